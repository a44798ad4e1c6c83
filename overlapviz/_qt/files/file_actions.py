"""What the File menu does: open, save, export and copy, with errors shown in the window.

Files are read and written off the GUI thread (`background`), so that a large file never
stops the window; `open_finished` and `write_finished` say how each ended. Opening reads,
checks and prepares the whole file before the window changes anything (`file_loading`), and a
newer open replaces one still reading. A picture (PNG, SVG, the clipboard) shows what the
window shows: the comparison when one is on show, with or without the callouts as the
timeline draws them; it is drawn on the GUI thread in short steps (`stepwise`), then encoded
and written off it. PNG and SVG both ask how (`ExportDialog`), and offer to save in the last
export's folder (`ExportFolder`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any, Protocol

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication, QWidget

from overlapviz._qt.event_turns import in_a_turn_of_its_own
from overlapviz._qt.export.export_dialog import ExportDialog
from overlapviz._qt.export.export_view import ExportOptions
from overlapviz._qt.export.image_export import Pieces, Subject, image_in_pieces, png_bytes, svg_in_pieces
from overlapviz._qt.files.background import BackgroundTasks, Task, TaskOutcome, Work
from overlapviz._qt.files.child_process import write_file
from overlapviz._qt.files.export_folder import ExportFolder
from overlapviz._qt.files.file_loading import OpenedFile, load_file
from overlapviz._qt.files.path_dialogs import CSV_FILTER, JSON_FILTER, OPEN_FILTER, PNG_FILTER, SVG_FILTER, PathDialogs
from overlapviz._qt.files.problem_words import problem_words
from overlapviz._qt.files.recent_files import RecentFiles
from overlapviz._qt.files.stepwise import Stepwise
from overlapviz._qt.translation import translate
from overlapviz.app.session_file import SessionData
from overlapviz.core.cancel import CancelToken
from overlapviz.core.files.atomic_write import atomic_write_bytes
from overlapviz.core.trace.spans import Trace


class FileHost(Protocol):
    """What the file actions need from the window."""

    def current_trace(self) -> Trace | None: ...
    def current_picture(self) -> Subject | None: ...
    def explanations_shown(self) -> bool: ...
    def current_session(self) -> SessionData: ...
    def show_loaded(self, opened: OpenedFile) -> None: ...
    def show_error(self, text: str) -> None: ...
    def show_notice(self, text: str) -> None: ...
    def theme_name(self) -> str: ...
    def view_window_ms(self) -> tuple[float, float] | None: ...


class FileActions(QObject):
    """Each method asks for a path when not given one; failures become words in the window.

    `open`, the writes and `copy_image` return whether they began (False: no path was
    chosen, or nothing to write); `open_finished` (True: on show), `write_finished` (True:
    written) and `copy_finished` (True: on the clipboard) follow.
    """

    recent_changed = Signal()
    open_finished = Signal(bool)
    write_finished = Signal(bool)
    copy_finished = Signal(bool)

    def __init__(
        self, host: FileHost, recent: RecentFiles, dialogs: PathDialogs, export_folder: ExportFolder,
        window: QWidget | None = None,
    ) -> None:  # fmt: skip
        super().__init__(window)
        self._window = window
        self._host = host
        self._recent = recent
        self.dialogs = dialogs
        self.export_folder = export_folder
        self.ask_export_options: Callable[[], ExportOptions | None] = self._ask_export_options
        self.tasks = BackgroundTasks("overlapviz-files", self)
        self.tasks.done.connect(self._on_done)
        self._then: dict[Task, Callable[[TaskOutcome], None]] = {}
        self._latest_open: Task | None = None
        self._drawing: set[Stepwise] = set()  # pictures being drawn, a step at a time

    def open(self, path: Path | None = None, load: Callable[[Path, CancelToken], OpenedFile] = load_file) -> bool:
        """Open a session, a trace overlapviz wrote or another tool's trace (read off the GUI thread by `load`)."""
        path = path or self.dialogs.open_path(translate("FileActions", "Open a session or trace"), OPEN_FILTER)
        if path is None:
            return False
        if self._latest_open is not None:
            self._latest_open.cancel.cancel()
        self._latest_open = self._submit(partial(load, path), partial(self._opened, path))
        return True

    def save_session(self, path: Path | None = None) -> bool:
        """Save the settings and the trace on show."""
        title = translate("FileActions", "Save session")
        path = path or self.dialogs.save_path(title, JSON_FILTER, "overlapviz-session.json")
        if path is None:
            return False
        session = self._host.current_session()
        return self._write(path, partial(write_file, "session", path, session), remember=True)

    def export_png(self, path: Path | None = None, options: ExportOptions | None = None) -> bool:
        """Export the timeline as PNG (asks for size, theme and background when not given)."""
        return self._export("PNG", path, options)

    def export_svg(self, path: Path | None = None, options: ExportOptions | None = None) -> bool:
        """Export the timeline as SVG (asks for size, theme and background when not given)."""
        return self._export("SVG", path, options)

    def copy_image(self) -> bool:
        """Put a 1920-px picture of the timeline on the clipboard."""
        picture = self._picture_or_say()
        if picture is None:
            return False
        options = ExportOptions(theme=self._host.theme_name(), window_ms=self._host.view_window_ms())
        self._draw(image_in_pieces(picture, self._as_shown(options)), self._copied, self._not_copied)
        return True

    def export_trace(self, path: Path | None = None) -> bool:
        """Export the trace as Chrome trace JSON (opens in Perfetto and in overlapviz)."""
        trace = self._trace_or_say()
        title = translate("FileActions", "Export trace")
        path = path or (self.dialogs.save_path(title, JSON_FILTER, "overlapviz-trace.json") if trace else None)
        if trace is None or path is None:
            return False
        return self._write(path, partial(write_file, "chrome", path, SessionData(None, trace)), remember=True)

    def export_csv(self, path: Path | None = None) -> bool:
        """Export the spans as a CSV table."""
        trace = self._trace_or_say()
        title = translate("FileActions", "Export CSV")
        path = path or (self.dialogs.save_path(title, CSV_FILTER, "overlapviz-spans.csv") if trace else None)
        if trace is None or path is None:
            return False
        return self._write(path, partial(write_file, "csv", path, SessionData(None, trace)))

    def shutdown(self) -> None:
        """Drop what is still to draw, read or write and stop the file thread (a write under way finishes)."""
        for drawing in list(self._drawing):
            drawing.cancel()
        self._drawing.clear()
        self.tasks.shutdown()
        self._then.clear()

    # --- internals -----------------------------------------------------------------------

    def _export(self, kind: str, path: Path | None, options: ExportOptions | None) -> bool:
        picture = self._picture_or_say()
        options = options or (self.ask_export_options() if picture is not None else None)
        if picture is None or options is None:
            return False
        options = self._as_shown(options)
        path = path or self._export_path(kind)
        if path is None:
            return False
        self.export_folder.remember(path)
        failed = partial(self._not_drawn, path)
        if kind == "PNG":
            self._draw(image_in_pieces(picture, options), partial(self._write_png, path), failed)
        else:
            self._draw(svg_in_pieces(picture, options), partial(self._write_svg, path), failed)
        return True

    def _export_path(self, kind: str) -> Path | None:
        filters = PNG_FILTER if kind == "PNG" else SVG_FILTER
        title = translate("FileActions", "Export PNG") if kind == "PNG" else translate("FileActions", "Export SVG")
        suggested = self.export_folder.suggested(f"overlapviz-timeline.{kind.lower()}")
        return self.dialogs.save_path(title, filters, str(suggested))

    def _ask_export_options(self) -> ExportOptions | None:
        return ExportDialog(self._window, self._host.theme_name(), self._host.view_window_ms()).ask()

    def _picture_or_say(self) -> Subject | None:
        picture = self._host.current_picture()
        if picture is None:
            self._host.show_error(_no_timeline())
        return picture

    def _as_shown(self, options: ExportOptions) -> ExportOptions:
        return dataclasses.replace(options, explanations=self._host.explanations_shown())

    def _trace_or_say(self) -> Trace | None:
        trace = self._host.current_trace()
        if trace is None:
            self._host.show_error(_no_timeline())
        return trace

    def _submit(self, work: Work, then: Callable[[TaskOutcome], None]) -> Task:
        task = self.tasks.submit(work)
        self._then[task] = then
        return task

    def _on_done(self, outcome: TaskOutcome) -> None:
        then = self._then.pop(outcome.task, None)
        if then is not None:
            then(outcome)

    def _opened(self, path: Path, outcome: TaskOutcome) -> None:
        if outcome.task is not self._latest_open:
            return  # a newer open replaced this one
        self._latest_open = None
        if outcome.cancelled:
            return
        if outcome.error is not None:
            self._host.show_error(_could_not_open(path, outcome.error))
            self.open_finished.emit(False)
            return
        opened: OpenedFile = outcome.result
        self._host.show_loaded(opened)
        if opened.view is None:
            said = translate("FileActions", "{name} holds settings but no trace; run it to see a timeline.")
            self._host.show_error(said.format(name=path.name))
        # writing the recent files to disk gets a turn of the event loop of its own, after the new picture's
        in_a_turn_of_its_own(self, partial(self._remember_opened, path))

    def _remember_opened(self, path: Path) -> None:
        self._remember(path)
        self.open_finished.emit(True)

    def _draw(self, steps: Pieces[Any], then: Callable[[Any], None], failed: Callable[[Exception], None]) -> None:
        drawing = Stepwise(steps, self)
        self._drawing.add(drawing)
        drawing.finished.connect(then)
        drawing.failed.connect(failed)
        drawing.destroyed.connect(lambda: self._drawing.discard(drawing))
        drawing.start()

    def _write_png(self, path: Path, image: QImage) -> None:
        self._write(path, lambda _cancel: atomic_write_bytes(path, png_bytes(image)))

    def _write_svg(self, path: Path, svg: bytes) -> None:
        self._write(path, lambda _cancel: atomic_write_bytes(path, svg))

    def _not_drawn(self, path: Path, error: Exception) -> None:
        self._host.show_error(_could_not_write(path, error))
        self.write_finished.emit(False)

    def _copied(self, image: QImage) -> None:
        QApplication.clipboard().setImage(image)
        self._host.show_notice(translate("FileActions", "Timeline copied to the clipboard"))
        self.copy_finished.emit(True)

    def _not_copied(self, error: Exception) -> None:
        self._host.show_error(translate("FileActions", "Could not copy the picture: {reason}").format(reason=error))
        self.copy_finished.emit(False)

    def _write(self, path: Path, work: Work, remember: bool = False) -> bool:
        self._submit(work, partial(self._written, path, remember))
        return True

    def _written(self, path: Path, remember: bool, outcome: TaskOutcome) -> None:
        if outcome.error is not None:
            self._host.show_error(_could_not_write(path, outcome.error))
        if outcome.error is not None or outcome.cancelled:
            self.write_finished.emit(False)
            return
        self._host.show_notice(translate("FileActions", "Wrote {path}").format(path=path))
        if remember:
            self._remember(path)
        self.write_finished.emit(True)

    def _remember(self, path: Path) -> None:
        self._recent.add(path)
        self.recent_changed.emit()


def _no_timeline() -> str:
    return translate("FileActions", "There is no timeline yet: run the pipeline or open a trace first.")


def _could_not_open(path: Path, error: BaseException) -> str:
    """``Could not open x.json: why``, naming the file once."""
    said = translate("FileActions", "Could not open {name}: {reason}")
    return said.format(name=path.name, reason=problem_words(error, path))


def _could_not_write(path: Path, error: BaseException) -> str:
    """``Could not write x.png: why``, naming the file once."""
    said = translate("FileActions", "Could not write {name}: {reason}")
    return said.format(name=path.name, reason=problem_words(error, path))

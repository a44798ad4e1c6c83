"""What the File menu does: open, save, export and copy, with errors shown in the window.

A picture (PNG, SVG, the clipboard) shows what the window shows: the comparison when one
is on show, with or without the callouts as the timeline draws them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QWidget

from overlapviz._qt.export.export_dialog import ExportDialog
from overlapviz._qt.export.export_view import ExportOptions
from overlapviz._qt.export.image_export import ExportError, Subject, copy_image, write_png, write_svg
from overlapviz._qt.path_dialogs import CSV_FILTER, JSON_FILTER, PNG_FILTER, SVG_FILTER, PathDialogs
from overlapviz._qt.recent_files import RecentFiles
from overlapviz._qt.session_file import SessionData, SessionFormatError, open_file, save_session
from overlapviz.core.trace import Trace
from overlapviz.core.trace_io import export_chrome, export_csv

FILE_ERRORS = (OSError, SessionFormatError, ExportError, ValueError)


class FileHost(Protocol):
    """What the file actions need from the window."""

    def current_trace(self) -> Trace | None: ...
    def current_picture(self) -> Subject | None: ...
    def explanations_shown(self) -> bool: ...
    def current_session(self) -> SessionData: ...
    def show_loaded(self, data: SessionData, path: Path) -> None: ...
    def show_error(self, text: str) -> None: ...
    def show_notice(self, text: str) -> None: ...
    def theme_name(self) -> str: ...
    def view_window_ms(self) -> tuple[float, float] | None: ...


class FileActions(QObject):
    """Each method asks for a path when not given one; failures become words in the window."""

    recent_changed = Signal()

    def __init__(
        self, host: FileHost, recent: RecentFiles, dialogs: PathDialogs, window: QWidget | None = None
    ) -> None:
        super().__init__(window)
        self._window = window
        self._host = host
        self._recent = recent
        self.dialogs = dialogs
        self.ask_export_options: Callable[[], ExportOptions | None] = self._ask_export_options

    def open(self, path: Path | None = None) -> bool:
        """Open a session or a Chrome trace written by overlapviz."""
        path = path or self.dialogs.open_path("Open a session or trace", JSON_FILTER)
        if path is None:
            return False
        try:
            data = open_file(path)
        except FILE_ERRORS as error:
            self._host.show_error(f"Could not open {path.name}: {error}")
            return False
        if data.trace is None:
            self._host.show_error(f"{path.name} holds settings but no trace; run it to see a timeline.")
        self._host.show_loaded(data, path)
        self._remember(path)
        return True

    def save_session(self, path: Path | None = None) -> bool:
        """Save the settings and the trace on show."""
        path = path or self.dialogs.save_path("Save session", JSON_FILTER, "overlapviz-session.json")
        return path is not None and self._write(path, lambda: save_session(path, self._host.current_session()), True)

    def export_png(self, path: Path | None = None, options: ExportOptions | None = None) -> bool:
        """Export the timeline as PNG (asks for width, theme and background when not given)."""
        picture = self._picture_or_say()
        options = options or (self.ask_export_options() if picture is not None else None)
        if picture is None or options is None:
            return False
        options = self._as_shown(options)
        path = path or self.dialogs.save_path("Export PNG", PNG_FILTER, "overlapviz-timeline.png")
        return path is not None and self._write(path, lambda: write_png(picture, path, options))

    def export_svg(self, path: Path | None = None, options: ExportOptions | None = None) -> bool:
        """Export the timeline as SVG in the current theme."""
        picture = self._picture_or_say()
        if picture is None:
            return False
        options = self._as_shown(options or ExportOptions(theme=self._host.theme_name(),
                                                          window_ms=self._host.view_window_ms()))
        path = path or self.dialogs.save_path("Export SVG", SVG_FILTER, "overlapviz-timeline.svg")
        return path is not None and self._write(path, lambda: write_svg(picture, path, options))

    def copy_image(self) -> bool:
        """Put a 1920-px picture of the timeline on the clipboard."""
        picture = self._picture_or_say()
        if picture is None:
            return False
        try:
            options = ExportOptions(theme=self._host.theme_name(), window_ms=self._host.view_window_ms())
            copy_image(picture, self._as_shown(options))
        except ExportError as error:
            self._host.show_error(f"Could not copy the picture: {error}")
            return False
        self._host.show_notice("Timeline copied to the clipboard")
        return True

    def export_trace(self, path: Path | None = None) -> bool:
        """Export the trace as Chrome trace JSON (opens in Perfetto and in overlapviz)."""
        trace = self._trace_or_say()
        path = path or (self.dialogs.save_path("Export trace", JSON_FILTER, "overlapviz-trace.json") if trace else None)
        return trace is not None and path is not None and self._write(path, lambda: export_chrome(trace, path), True)

    def export_csv(self, path: Path | None = None) -> bool:
        """Export the spans as a CSV table."""
        trace = self._trace_or_say()
        path = path or (self.dialogs.save_path("Export CSV", CSV_FILTER, "overlapviz-spans.csv") if trace else None)
        return trace is not None and path is not None and self._write(path, lambda: export_csv(trace, path))

    def _ask_export_options(self) -> ExportOptions | None:
        return ExportDialog(self._window, self._host.theme_name(), self._host.view_window_ms()).ask()

    def _picture_or_say(self) -> Subject | None:
        picture = self._host.current_picture()
        if picture is None:
            self._host.show_error("There is no timeline yet: run the pipeline or open a trace first.")
        return picture

    def _as_shown(self, options: ExportOptions) -> ExportOptions:
        return dataclasses.replace(options, explanations=self._host.explanations_shown())

    def _trace_or_say(self) -> Trace | None:
        trace = self._host.current_trace()
        if trace is None:
            self._host.show_error("There is no timeline yet: run the pipeline or open a trace first.")
        return trace

    def _write(self, path: Path, write: Callable[[], None], remember: bool = False) -> bool:
        try:
            write()
        except FILE_ERRORS as error:
            self._host.show_error(f"Could not write {path.name}: {error}")
            return False
        self._host.show_notice(f"Wrote {path}")
        if remember:
            self._remember(path)
        return True

    def _remember(self, path: Path) -> None:
        self._recent.add(path)
        self.recent_changed.emit()

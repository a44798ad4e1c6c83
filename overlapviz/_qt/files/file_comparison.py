"""Files compared: Compare ▸ Compare with a file, two files opened as A and B, files dropped on the window.

A trace or session dropped on the window opens as File ▸ Open opens it; two dropped together
are compared, the first as A.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path

from PySide6.QtCore import QMimeData

from overlapviz._qt.files.file_actions import FileActions
from overlapviz._qt.files.path_dialogs import OPEN_FILTER
from overlapviz._qt.translation import translate
from overlapviz.app.controller import AppController
from overlapviz.app.model import Pinned
from overlapviz.app.ports import Messages


class FileComparison:
    """Opens files through `files` and pins them as A through the controller's comparison."""

    def __init__(self, files: FileActions, controller: AppController, messages: Messages) -> None:
        self._files = files
        self._controller = controller
        self._messages = messages

    def compare_with_file(self, path: Path | None = None) -> bool:
        """What is on show becomes A, the file (asked for when not given) B.

        A file that cannot be opened leaves the comparison as it was.
        """
        title = translate("FileComparison", "Compare with a file (B)")
        path = path or self._files.dialogs.open_path(title, OPEN_FILTER)
        if path is None:
            return False
        before = self._controller.model.pinned
        if not self._controller.compare.pin_current():
            return False
        self._after_open(lambda ok: None if ok else self._controller.compare.put_back(before))
        return self._files.open(path)

    def compare_files(self, a: Path, b: Path) -> bool:
        """Open `a` and, once it is on show, compare `b` with it (A and B)."""
        before = self._controller.model.pinned
        self._controller.compare.unpin()  # the first file goes on show alone, then is pinned
        self._after_open(partial(self._then_compare, before, b))
        return self._files.open(a)

    def open_dropped(self, paths: list[Path]) -> None:
        """One file opens as File ▸ Open would; two are compared, the first as A."""
        if len(paths) == 1:
            self._files.open(paths[0])
        elif len(paths) == 2:
            self.compare_files(*paths)
        else:
            said = translate(
                "FileComparison",
                "{n} files were dropped. "
                "Drop one trace or session file to open it, or two to compare them (the first as A).",
            )
            self._messages.show_error(said.format(n=len(paths)))

    def _then_compare(self, before: Pinned | None, b: Path, ok: bool) -> None:
        if not ok:
            self._controller.compare.put_back(before)
        elif self._controller.compare.pin_current():
            self._after_open(lambda ok_b: None if ok_b else self._controller.compare.unpin())
            self._files.open(b)

    def _after_open(self, then: Callable[[bool], None]) -> None:
        """Call `then` once, with how the next open ends."""

        def once(ok: bool) -> None:
            self._files.open_finished.disconnect(once)
            then(ok)

        self._files.open_finished.connect(once)


def dropped_paths(mime: QMimeData) -> list[Path]:
    """The local files dropped; none when any of the dropped things is not a local file."""
    urls = mime.urls() if mime.hasUrls() else []
    paths = [Path(url.toLocalFile()) for url in urls if url.isLocalFile()]
    return paths if paths and len(paths) == len(urls) else []

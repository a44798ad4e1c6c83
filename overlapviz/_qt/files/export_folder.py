"""The folder a picture's save dialog opens in: the last export's, else Pictures, else home.

Never the current directory: started from a source checkout, the app would offer to write
its pictures into it, and Enter would.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QSettings, QStandardPaths

EXPORT_FOLDER_KEY = "export_folder"


def usual_folders() -> list[Path]:
    """The user's Pictures folder (where the desktop has one), then home."""
    pictures = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.PicturesLocation)
    return [*([Path(pictures)] if pictures else []), Path.home()]


class ExportFolder:
    """Remembers the folder of the last export in `settings`; `usual` gives the folders to fall back on."""

    def __init__(self, settings: QSettings, usual: Callable[[], list[Path]] = usual_folders) -> None:
        self._settings = settings
        self._usual = usual

    def folder(self) -> Path:
        """The first of the last export's folder, the usual folders, that exists (the last usual one else)."""
        stored = self._settings.value(EXPORT_FOLDER_KEY, "")
        last = [Path(stored)] if isinstance(stored, str) and stored else []
        usual = self._usual()
        return next((path for path in [*last, *usual] if path.is_absolute() and path.is_dir()), usual[-1])

    def suggested(self, name: str) -> Path:
        """`name` in `folder`."""
        return self.folder() / name

    def remember(self, path: Path) -> None:
        """`path` was exported to: its folder is offered next time."""
        self._settings.setValue(EXPORT_FOLDER_KEY, str(path.resolve().parent))
        self._settings.sync()

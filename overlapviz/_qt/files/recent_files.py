"""The File menu's recent files, kept in QSettings (newest first, existing files only)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings

RECENT_KEY = "recent_files"
MAX_RECENT = 8


class RecentFiles:
    """Reads and updates the list in `settings`."""

    def __init__(self, settings: QSettings) -> None:
        self._settings = settings

    def paths(self) -> list[Path]:
        """Recent files that still exist, newest first."""
        stored = self._settings.value(RECENT_KEY, [])
        if isinstance(stored, str):  # QSettings returns a lone string for a one-entry list
            stored = [stored]
        entries = stored if isinstance(stored, list) else []
        paths = [Path(p) for p in entries if isinstance(p, str)]
        return [p for p in paths if p.is_file()]

    def add(self, path: Path) -> None:
        """Put `path` first."""
        resolved = path.resolve()
        paths = [resolved, *(p for p in self.paths() if p != resolved)][:MAX_RECENT]
        self._settings.setValue(RECENT_KEY, [str(p) for p in paths])
        self._settings.sync()

    def clear(self) -> None:
        """Forget them all."""
        self._settings.remove(RECENT_KEY)
        self._settings.sync()

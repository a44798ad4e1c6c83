"""File dialogs behind one small class, so tests (and scripts) can answer them instead."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QWidget

# Saved under .ovz, a session or trace is written as columns: it opens in a fraction of the time.
JSON_FILTER = "overlapviz sessions and traces (*.json);;Columnar, for large traces (*.ovz);;All files (*)"
# What File > Open reads; files are told apart by their content, so "All files" opens them too.
OPEN_FILTER = ";;".join((
    "Sessions and traces (*.json *.json.gz *.gz *.ovz *.npz *.sqlite *.db)",
    "overlapviz sessions and traces (*.json *.json.gz *.ovz *.npz)",
    "PyTorch profiler traces (*.json *.json.gz)",
    "Nsight Systems SQLite exports (*.sqlite *.db *.sqlite.gz *.db.gz)",
    "All files (*)",
))  # fmt: skip
PNG_FILTER = "PNG image (*.png)"
SVG_FILTER = "SVG image (*.svg)"
CSV_FILTER = "CSV table (*.csv)"


class PathDialogs:
    """Asks the user for a file to open or to write."""

    def __init__(self, parent: QWidget | None) -> None:
        self._parent = parent

    def open_path(self, title: str, filters: str) -> Path | None:
        """A file to read, or None when cancelled."""
        name, _chosen = QFileDialog.getOpenFileName(self._parent, title, "", filters)
        return Path(name) if name else None

    def folder_path(self, title: str) -> Path | None:
        """A folder to read, or None when cancelled."""
        name = QFileDialog.getExistingDirectory(self._parent, title, "")
        return Path(name) if name else None

    def save_path(self, title: str, filters: str, suggested: str) -> Path | None:
        """A file to write, or None when cancelled."""
        name, _chosen = QFileDialog.getSaveFileName(self._parent, title, suggested, filters)
        return Path(name) if name else None

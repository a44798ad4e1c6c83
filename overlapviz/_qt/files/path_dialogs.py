"""File dialogs behind one small class, so tests (and scripts) can answer them instead.

A name filter is written in English, its entries marked for translation; the dialog shows
each entry in the user's language (a translation keeps the patterns in ASCII brackets, which
Qt reads).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QT_TRANSLATE_NOOP
from PySide6.QtWidgets import QFileDialog, QWidget

from overlapviz._qt.translation import translate

FILTER_SEPARATOR = ";;"  # between the entries of a Qt name filter
# QT_TRANSLATE_NOOP gives back its text (typed `object`, hence str) and marks it for the catalogue.
# Saved under .ovz, a session or trace is written as columns: it opens in a fraction of the time.
JSON_FILTER = FILTER_SEPARATOR.join(map(str, (
    QT_TRANSLATE_NOOP("PathDialogs", "overlapviz sessions and traces (*.json)"),
    QT_TRANSLATE_NOOP("PathDialogs", "Columnar, for large traces (*.ovz)"),
    QT_TRANSLATE_NOOP("PathDialogs", "All files (*)"),
)))  # fmt: skip
# What File > Open reads; files are told apart by their content, so "All files" opens them too.
OPEN_FILTER = FILTER_SEPARATOR.join(map(str, (
    QT_TRANSLATE_NOOP("PathDialogs", "Sessions and traces (*.json *.json.gz *.gz *.ovz *.npz *.sqlite *.db)"),
    QT_TRANSLATE_NOOP("PathDialogs", "overlapviz sessions and traces (*.json *.json.gz *.ovz *.npz)"),
    QT_TRANSLATE_NOOP("PathDialogs", "PyTorch profiler traces (*.json *.json.gz)"),
    QT_TRANSLATE_NOOP("PathDialogs", "Nsight Systems SQLite exports (*.sqlite *.db *.sqlite.gz *.db.gz)"),
    QT_TRANSLATE_NOOP("PathDialogs", "All files (*)"),
)))  # fmt: skip
PNG_FILTER = str(QT_TRANSLATE_NOOP("PathDialogs", "PNG image (*.png)"))
SVG_FILTER = str(QT_TRANSLATE_NOOP("PathDialogs", "SVG image (*.svg)"))
CSV_FILTER = str(QT_TRANSLATE_NOOP("PathDialogs", "CSV table (*.csv)"))


def shown_filter(filters: str) -> str:
    """`filters` (one of this module's) with each entry in the user's language."""
    return FILTER_SEPARATOR.join(translate("PathDialogs", entry) for entry in filters.split(FILTER_SEPARATOR))


class PathDialogs:
    """Asks the user for a file to open or to write."""

    def __init__(self, parent: QWidget | None) -> None:
        self._parent = parent

    def open_path(self, title: str, filters: str) -> Path | None:
        """A file to read, or None when cancelled."""
        name, _chosen = QFileDialog.getOpenFileName(self._parent, title, "", shown_filter(filters))
        return Path(name) if name else None

    def folder_path(self, title: str) -> Path | None:
        """A folder to read, or None when cancelled."""
        name = QFileDialog.getExistingDirectory(self._parent, title, "")
        return Path(name) if name else None

    def save_path(self, title: str, filters: str, suggested: str) -> Path | None:
        """A file to write, or None when cancelled."""
        name, _chosen = QFileDialog.getSaveFileName(self._parent, title, suggested, shown_filter(filters))
        return Path(name) if name else None

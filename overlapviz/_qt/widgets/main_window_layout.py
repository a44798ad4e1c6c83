"""The window's three columns: controls (scrolling), the centre, and the panels on the right."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QScrollArea, QSplitter, QVBoxLayout, QWidget

COLUMN_WIDTHS = (340, 900, 320)


@dataclass(frozen=True)
class Columns:
    """The splitter that holds the columns, and the two side columns (presentation mode hides them)."""

    splitter: QSplitter
    controls: QScrollArea
    right: QWidget


def arrange_columns(
    controls: QWidget, above_centre: Sequence[QWidget], centre: QWidget, right_parts: Sequence[QWidget]
) -> Columns:
    """Controls on the left; `above_centre` stacked over `centre` (which stretches); `right_parts` on the right.

    The last of `right_parts` takes the spare height; only the centre column takes spare width.
    """
    scroll = QScrollArea()
    scroll.setWidget(controls)
    scroll.setWidgetResizable(True)
    scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    middle = _stack([*above_centre, centre], margin=4)
    right = _stack(right_parts, margin=0)
    splitter = QSplitter(Qt.Orientation.Horizontal)
    for widget, stretch in ((scroll, 0), (middle, 1), (right, 0)):
        splitter.addWidget(widget)
        splitter.setStretchFactor(splitter.count() - 1, stretch)
    splitter.setSizes(list(COLUMN_WIDTHS))
    return Columns(splitter, scroll, right)


def _stack(parts: Sequence[QWidget], margin: int) -> QWidget:
    """`parts` one above the other; the last one stretches."""
    column = QWidget()
    layout = QVBoxLayout(column)
    layout.setContentsMargins(margin, margin, margin, margin)
    for index, part in enumerate(parts):
        layout.addWidget(part, 1 if index == len(parts) - 1 else 0)
    return column

"""The brushes that paint spans and legend swatches, made from the palette's colours."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor

from overlapviz.view.palette import WAITING_FILL_ALPHA, WAITING_HATCH_ALPHA


def solid_brush(hex_colour: str) -> QBrush:
    """An opaque brush of `hex_colour`."""
    return QBrush(QColor(hex_colour))


def waiting_brushes(hex_colour: str) -> tuple[QBrush, QBrush]:
    """The pale fill and the hatching that mark a waiting span of a kind of `hex_colour`."""
    fill = QColor(hex_colour)
    fill.setAlphaF(WAITING_FILL_ALPHA)
    hatch = QColor(hex_colour)
    hatch.setAlphaF(WAITING_HATCH_ALPHA)
    return QBrush(fill), QBrush(hatch, Qt.BrushStyle.BDiagPattern)

"""The colour key: one swatch per op kind, drawn with the timeline's own brushes."""

from __future__ import annotations

from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPaintEvent
from PySide6.QtWidgets import QSizePolicy, QWidget

from overlapviz._qt.timeline.brushes import solid_brush, waiting_brushes
from overlapviz.view.palette import LEGEND, LegendEntry

SWATCH_EM = 1.6  # swatch width in font heights
GAP_EM = 1.2


class LegendBar(QWidget):
    """A row of swatches with their labels, in the widget's font and text colour."""

    def __init__(self, parent: QWidget | None = None, entries: tuple[LegendEntry, ...] = LEGEND) -> None:
        super().__init__(parent)
        self._entries = entries
        self._text_colour: QColor | None = None
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)

    @property
    def entries(self) -> tuple[LegendEntry, ...]:
        """The swatches, in order."""
        return self._entries

    def set_entries(self, entries: tuple[LegendEntry, ...]) -> None:
        """Show `entries` (the kinds a picture draws)."""
        if entries != self._entries:
            self._entries = entries
            self.updateGeometry()
            self.update()

    def set_text_colour(self, colour: QColor | None) -> None:
        """Write the labels in `colour` (None: the palette's text colour)."""
        self._text_colour = colour
        self.update()

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        """One line of swatches."""
        metrics = self.fontMetrics()
        width = sum(self._entry_width(entry) for entry in self._entries)
        return QSize(int(width), int(metrics.height() * 1.6))

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        """As tall as a line; as narrow as the layout likes."""
        return QSize(0, self.sizeHint().height())

    def paintEvent(self, _event: QPaintEvent) -> None:  # noqa: N802 (Qt's name)
        """Swatch, label, gap; repeated."""
        painter = QPainter(self)
        metrics = self.fontMetrics()
        height = metrics.height()
        x = 0.0
        top = (self.height() - height) // 2
        painter.setPen(self._text_colour or self.palette().windowText().color())
        for entry in self._entries:
            swatch = QRect(int(x), top + height // 6, int(height * SWATCH_EM), height * 2 // 3)
            brushes = waiting_brushes(entry.colour) if entry.waiting else (solid_brush(entry.colour),)
            for brush in brushes:
                painter.fillRect(swatch, brush)
            x += height * (SWATCH_EM + 0.4)
            text_width = metrics.horizontalAdvance(entry.label)
            painter.drawText(QRect(int(x), top, text_width + 2, height), Qt.AlignmentFlag.AlignVCenter, entry.label)
            x += text_width + height * GAP_EM
        painter.end()

    def _entry_width(self, entry: LegendEntry) -> float:
        height = self.fontMetrics().height()
        return height * (SWATCH_EM + 0.4 + GAP_EM) + self.fontMetrics().horizontalAdvance(entry.label)

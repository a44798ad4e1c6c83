"""The class's predictions as bars: one per choice (or range of numbers), its count above it; never a name.

A small painted widget in the theme's colours and the window's font, so it reads on a
projector in presentation mode as the rest of the dock does. Once the instructor has revealed
the answer, the bar of what the model measured is outlined (a number: a line where it falls).
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from overlapviz._qt.themes import THEMES, Theme
from overlapviz._qt.translation import translate
from overlapviz.app.exercise_class import Bar, ClassHistogram
from overlapviz.core.i18n import grouped

# the bars' fill per theme: a blue that reads on white, on the dark background and on a projector
BAR_COLOURS = {"light": "#0969DA", "dark": "#58A6FF", "projector": "#000000"}
MEASURED_COLOUR = {"light": "#1A7F37", "dark": "#3FB950", "projector": "#1A7F37"}
GAP = 0.2  # of a bar's slot left empty beside it


class ClassHistogramView(QWidget):
    """Bars of `ClassHistogram` with their counts and labels; a word when there is none."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("class_histogram")
        self.setMinimumHeight(160)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.histogram: ClassHistogram | None = None
        self.show_measured = False
        self._theme = THEMES["light"]

    def set_histogram(self, histogram: ClassHistogram | None, show_measured: bool = False) -> None:
        """Draw `histogram` (None: nothing), with what was measured when `show_measured`."""
        self.histogram, self.show_measured = histogram, show_measured
        self.update()

    def set_theme(self, theme: Theme) -> None:
        """Draw in `theme`'s colours."""
        self._theme = theme
        self.update()

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 (Qt's name)
        """The heading, the bars with their counts, the labels under them."""
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.fillRect(self.rect(), QColor(self._theme.background))
        painter.setFont(self.font())
        line = painter.fontMetrics().height()
        painter.setPen(QColor(self._theme.foreground))
        histogram = self.histogram
        heading = (
            histogram.heading if histogram is not None
            else translate("ClassHistogramView", "The class's predictions appear here")
        )  # fmt: skip
        painter.drawText(QRectF(0, 0, self.width(), line), Qt.AlignmentFlag.AlignLeft, heading)
        if histogram is not None and histogram.bars:
            self._draw_bars(painter, histogram, QRectF(0, line * 1.5, self.width(), self.height() - line * 1.5))
        painter.end()

    def _draw_bars(self, painter: QPainter, histogram: ClassHistogram, area: QRectF) -> None:
        line = painter.fontMetrics().height()
        plot = area.adjusted(2, line, -2, -line * 1.3)  # room for the counts above, the labels below
        slot = plot.width() / len(histogram.bars)
        tallest = max(max(bar.count for bar in histogram.bars), 1)
        fill = QColor(BAR_COLOURS.get(self._theme.name, BAR_COLOURS["light"]))
        for index, bar in enumerate(histogram.bars):
            height = plot.height() * bar.count / tallest
            rect = QRectF(plot.left() + slot * (index + GAP / 2), plot.bottom() - height, slot * (1 - GAP), height)
            painter.fillRect(rect, fill)
            painter.setPen(QColor(self._theme.foreground))
            above = QRectF(rect.left() - slot * GAP / 2, rect.top() - line, slot, line)
            painter.drawText(above, Qt.AlignmentFlag.AlignCenter, grouped(bar.count))
            below = QRectF(plot.left() + slot * index, plot.bottom() + 2, slot, line * 1.2)
            painter.drawText(below, Qt.AlignmentFlag.AlignCenter, _fitted(painter, bar.label, slot))
        painter.setPen(QPen(QColor(self._theme.muted), 1))
        painter.drawLine(QPointF(plot.left(), plot.bottom()), QPointF(plot.right(), plot.bottom()))
        if self.show_measured and histogram.measured is not None:
            self._mark_measured(painter, histogram, plot, slot)

    def _mark_measured(self, painter: QPainter, histogram: ClassHistogram, plot: QRectF, slot: float) -> None:
        painter.setPen(QPen(QColor(MEASURED_COLOUR.get(self._theme.name, "#1A7F37")), 3))
        at = measured_position(histogram.bars, histogram.measured)
        if at is None:
            return
        if isinstance(histogram.measured, str):  # a choice: outline its bar's slot
            painter.drawRect(QRectF(plot.left() + slot * at, plot.top(), slot, plot.height()))
        else:  # a number: a line where it falls among the bins
            x = plot.left() + slot * at
            painter.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()))


def measured_position(bars: tuple[Bar, ...], measured: str | float | None) -> float | None:
    """Where `measured` falls, in bars from the left: a choice's index, or a fraction through the number bins."""
    if isinstance(measured, str):
        return next((float(index) for index, bar in enumerate(bars) if bar.label == measured), None)
    edges = [(bar.low, bar.high) for bar in bars if bar.low is not None and bar.high is not None]
    if measured is None or len(edges) != len(bars) or not edges:
        return None
    for index, (low, high) in enumerate(edges):
        if low <= measured < high:
            return index + (measured - low) / (high - low)
    return None  # outside the class's range: no line rather than one at an edge that misleads


def _fitted(painter: QPainter, text: str, width: float) -> str:
    return painter.fontMetrics().elidedText(text, Qt.TextElideMode.ElideRight, int(width))

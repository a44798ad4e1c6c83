"""Measuring a time window by dragging along the time axis: a translucent band, its times above it.

While the drag lasts, the band covers the span dragged out (held inside the visible time) and
a label at its top gives its start, end and length in ms. On release the span is `chosen`; a
drag shorter than `CLICK_PX` is a click and chooses nothing, and `cancel` (Esc) drops the drag
in progress.
"""

from __future__ import annotations

from collections.abc import Callable

import pyqtgraph as pg
from PySide6.QtCore import QObject, QPointF, Signal
from PySide6.QtGui import QColor

from overlapviz._qt.themes import Theme
from overlapviz._qt.timeline.axes import TimeAxis
from overlapviz.app.time_window import span_label

CLICK_PX = 4  # a drag shorter than this is a click
Z_BAND = 15  # above the spans and callouts: it is what the user is doing now
FILL_ALPHA, EDGE_ALPHA = 45, 170


class WindowBand:
    """The band over the lanes and the label that gives its times."""

    def __init__(self, view_box: pg.ViewBox) -> None:
        self._view_box = view_box
        self.region = pg.LinearRegionItem(movable=False)
        self.label = pg.TextItem(anchor=(0.5, 0.0))
        for item in (self.region, self.label):
            item.setZValue(Z_BAND)
            item.hide()
            view_box.addItem(item, ignoreBounds=True)

    def set_theme(self, theme: Theme) -> None:
        """Tint the band with the theme's text colour, so that it shows on any background."""
        fill, edge = QColor(theme.foreground), QColor(theme.foreground)
        fill.setAlpha(FILL_ALPHA)
        edge.setAlpha(EDGE_ALPHA)
        self.region.setBrush(fill)
        for line in self.region.lines:
            line.setPen(pg.mkPen(edge, width=1))
        background = QColor(theme.background)
        background.setAlpha(220)
        self.label.setColor(QColor(theme.foreground))
        self.label.fill = pg.mkBrush(background)  # TextItem has no setter for the fill it paints
        self.label.update()

    @property
    def visible(self) -> bool:
        """Whether a band is on show."""
        return bool(self.region.isVisible())

    def show_span(self, t0_ms: float, t1_ms: float) -> None:
        """Cover the time from `t0_ms` to `t1_ms`, its times at the top."""
        self.region.setRegion((t0_ms, t1_ms))
        self.label.setText(span_label(t0_ms, t1_ms))
        top = self._view_box.viewRange()[1][0]  # the lanes' y grows downwards
        self.label.setPos((t0_ms + t1_ms) / 2, top)
        self.region.show()
        self.label.show()

    def hide(self) -> None:
        """No band."""
        self.region.hide()
        self.label.hide()


class WindowDrag(QObject):
    """Turns drags along `axis` into a band over `view_box` and, on release, a `chosen` span (ms)."""

    chosen = Signal(float, float)

    def __init__(
        self, axis: TimeAxis, view_box: pg.ViewBox, can_measure: Callable[[], bool], parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self._view_box = view_box
        self._can_measure = can_measure
        self.band = WindowBand(view_box)
        self._dragging = False
        self._cancelled = False
        axis.drag_moved.connect(self._moved)
        axis.drag_finished.connect(self._finished)

    def cancel(self) -> None:
        """Drop the drag in progress (its release chooses nothing)."""
        if self._dragging:
            self._cancelled = True
        self.band.hide()

    def _moved(self, began_x: float, now_x: float) -> None:
        self._dragging = True
        if self._cancelled or not self._can_measure() or abs(now_x - began_x) < CLICK_PX:
            self.band.hide()
            return
        self.band.show_span(*self._span_ms(began_x, now_x))

    def _finished(self, began_x: float, now_x: float) -> None:
        cancelled = self._cancelled
        self._dragging = self._cancelled = False
        self.band.hide()
        if not cancelled and self._can_measure() and abs(now_x - began_x) >= CLICK_PX:
            self.chosen.emit(*self._span_ms(began_x, now_x))

    def _span_ms(self, began_x: float, now_x: float) -> tuple[float, float]:
        """The dragged span in ms, the earlier end first, held inside the visible time."""
        x_min, x_max = self._view_box.viewRange()[0]
        times = (self._view_box.mapSceneToView(QPointF(x, 0.0)).x() for x in (began_x, now_x))
        t0, t1 = sorted(min(max(t, x_min), x_max) for t in times)
        return float(t0), float(t1)

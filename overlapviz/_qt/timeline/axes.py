"""The timeline's axes: time in ms below (the unit of every duration beside it); lane titles on the left."""

from __future__ import annotations

import math

import pyqtgraph as pg
from pyqtgraph.GraphicsScene.mouseEvents import MouseDragEvent
from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont, QFontMetrics

from overlapviz.core.number_text import fixed
from overlapviz.view.layout import TimelineLayout

TITLE_PAD_PX = 10
TIME_LABEL = "Time since the run started (ms)"
DRAG_TIP = "Drag to measure a window: the figures and findings of that part of the run (Esc: the whole run)"


def tick_decimals(spacing: float) -> int:
    """Decimals that tell ticks `spacing` apart (in the shown unit)."""
    if spacing <= 0 or not math.isfinite(spacing):
        return 0
    return max(0, -math.floor(math.log10(spacing) + 1e-9))


class TimeAxis(pg.AxisItem):  # type: ignore[misc]  # pyqtgraph is untyped
    """Bottom axis over scene x in ms, at any zoom: captions, callouts and panels speak ms too.

    A left-button drag along it measures a time window instead of panning (the lanes pan):
    `drag_moved` and then `drag_finished` give the scene x where the drag began and where it is.
    """

    drag_moved = Signal(float, float)
    drag_finished = Signal(float, float)

    def __init__(self) -> None:
        super().__init__("bottom")
        self.enableAutoSIPrefix(False)
        self.setLabel(TIME_LABEL)
        self.setToolTip(DRAG_TIP)
        self.setCursor(Qt.CursorShape.SizeHorCursor)

    def mouseDragEvent(self, event: MouseDragEvent) -> None:  # noqa: N802 (Qt's name)
        """A left-button drag begun on the axis measures a window; any other drag is not the axis's."""
        view = self.linkedView()
        began = event.buttonDownScenePos()
        if event.button() != Qt.MouseButton.LeftButton or view is None or view.sceneBoundingRect().contains(began):
            event.ignore()
            return
        event.accept()
        (self.drag_finished if event.isFinish() else self.drag_moved).emit(began.x(), event.scenePos().x())

    def tickStrings(self, values: list[float], scale: float, spacing: float) -> list[str]:  # noqa: N802
        """Tick labels in ms, with the decimals that tell them apart."""
        decimals = tick_decimals(spacing)
        return [fixed(value, decimals) for value in values]


class LaneAxis(pg.AxisItem):  # type: ignore[misc]  # pyqtgraph is untyped
    """Left axis that names each lane, with a header per group (and per GPU, with several).

    Its width is set from the titles' text: pyqtgraph would otherwise widen the axis only
    after a first paint, and a one-shot export would show it without its labels.
    """

    def __init__(self) -> None:
        super().__init__("left")
        self.setStyle(tickLength=0)
        self._titles: list[str] = []
        self.min_width = 0.0  # at least this wide (stacked timelines share one width)

    def show_layout(self, layout: TimelineLayout) -> None:
        """Label the lanes, group headers and GPU headers of `layout`."""
        headers = [(band.header_centre, band.title) for band in layout.groups]
        headers += [(device.header_centre, device.title) for device in layout.devices]
        lanes = [(placed.centre, placed.lane.title) for placed in layout.lanes]
        self._titles = [title for _y, title in headers + lanes]
        self.setTicks([sorted(headers + lanes)])
        self.fit_width()

    def natural_width(self) -> int:
        """The width the longest title needs in the current tick font."""
        font = self.style["tickFont"] or QFont()
        metrics = QFontMetrics(font)
        widest = max((metrics.horizontalAdvance(title) for title in self._titles), default=0)
        return int(widest + self.style["tickTextOffset"][0] + TITLE_PAD_PX)

    def fit_width(self) -> None:
        """Make room for the longest title in the current tick font (and `min_width`)."""
        self.setWidth(max(self.natural_width(), int(self.min_width)))


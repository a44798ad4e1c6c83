"""The timeline's axes: time in ms below (the unit of every duration beside it); lane titles on the left."""

from __future__ import annotations

import math
from collections.abc import Sequence

import pyqtgraph as pg
from pyqtgraph.GraphicsScene.mouseEvents import MouseDragEvent
from PySide6.QtCore import QT_TRANSLATE_NOOP, Qt, Signal
from PySide6.QtGui import QFont, QFontInfo, QFontMetrics, QFontMetricsF

from overlapviz._qt.timeline.text_extent import ink_height, tallest
from overlapviz._qt.translation import translate
from overlapviz.core.number_text import fixed
from overlapviz.view.layout import HEADER_HEIGHT, TimelineLayout

TITLE_PAD_PX = 10
MIN_TITLE_PX = 6  # below this a title is unreadable anyway: it may overlap its neighbour instead
TIME_LABEL = str(QT_TRANSLATE_NOOP("TimeAxis", "Time since the run started (ms)"))
DRAG_TIP = str(
    QT_TRANSLATE_NOOP(
        "TimeAxis", "Drag to measure a window: the figures and findings of that part of the run (Esc: the whole run)"
    )
)


def tick_decimals(spacing: float) -> int:
    """Decimals that tell ticks `spacing` apart (in the shown unit)."""
    if spacing <= 0 or not math.isfinite(spacing):
        return 0
    return max(0, -math.floor(math.log10(spacing) + 1e-9))


class TimeAxis(pg.AxisItem):  # type: ignore[misc]  # pyqtgraph is untyped
    """Bottom axis over scene x in ms, at any zoom: captions, callouts and panels speak ms too.

    Its height is set from the tick font: pyqtgraph would otherwise grow it only after a first
    paint, and move every lane above it once more after the window was drawn.
    A left-button drag along it measures a time window instead of panning (the lanes pan):
    `drag_moved` and then `drag_finished` give the scene x where the drag began and where it is.
    """

    drag_moved = Signal(float, float)
    drag_finished = Signal(float, float)

    def __init__(self) -> None:
        super().__init__("bottom")
        self.enableAutoSIPrefix(False)
        self.setLabel(translate("TimeAxis", TIME_LABEL))
        self.setToolTip(translate("TimeAxis", DRAG_TIP))
        self.setCursor(Qt.CursorShape.SizeHorCursor)

    def setTickFont(self, font: QFont | None) -> None:  # noqa: N802 (pyqtgraph's name)
        """Write the ticks in `font`, with room for their height from now on."""
        super().setTickFont(font)
        self.textHeight = QFontMetricsF(font or QFont()).height()  # what pyqtgraph measures at its first paint
        self._updateHeight()

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
    The titles are drawn no taller than the lowest row (a lane, or a header) is on screen:
    given large type and little height (presentation mode, a comparison), they shrink with
    the lanes rather than print over each other. The width stays that of the font asked for,
    so that stacked timelines keep one width as their heights change.
    """

    # at class level: pyqtgraph's constructor already resizes the axis, before ours has run
    _row_units = 0.0  # the lowest row of the layout, in lane heights
    _wanted_font: QFont | None = None
    _tallest = ""  # the title whose line is tallest (one in Chinese, where any is): the one to fit the rows to

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
        rows = [HEADER_HEIGHT] * len(headers) + [placed.height for placed in layout.lanes]
        self._row_units = min(rows, default=0.0)
        self.setTicks([sorted(headers + lanes)])
        self._tallest = tallest(self._wanted_font or QFont(), self._titles)
        self.fit_width()
        self._fit_font()

    def setTickFont(self, font: QFont | None) -> None:  # noqa: N802 (pyqtgraph's name)
        """Write the titles in `font`, or smaller where the rows are lower than its lines."""
        self._wanted_font = None if font is None else QFont(font)
        self._tallest = tallest(self._wanted_font or QFont(), self._titles)
        self._fit_font()

    def title_font(self) -> QFont:
        """The font the titles are drawn in now."""
        return QFont(self.style["tickFont"] or QFont())

    def natural_width(self) -> int:
        """The width the longest title needs in the font asked for."""
        metrics = QFontMetrics(self._wanted_font or QFont())
        widest = max((metrics.horizontalAdvance(title) for title in self._titles), default=0)
        return int(widest + self.style["tickTextOffset"][0] + TITLE_PAD_PX)

    def fit_width(self) -> None:
        """Make room for the longest title in the font asked for (and `min_width`)."""
        self.setWidth(max(self.natural_width(), int(self.min_width)))

    def setRange(self, mn: float, mx: float) -> None:  # noqa: N802 (pyqtgraph's name)
        """Follow the view's lanes; the titles fit their rows at the new scale."""
        super().setRange(mn, mx)
        self._fit_font()

    def resizeEvent(self, ev: object = None) -> None:  # noqa: N802 (Qt's name)
        """The titles fit their rows at the new height."""
        super().resizeEvent(ev)
        self._fit_font()

    def _row_px(self) -> float:
        low, high = self.range
        span = abs(high - low)
        return self._row_units * self.size().height() / span if span > 0 else 0.0

    def _fit_font(self) -> None:
        wanted = self._wanted_font
        fitted = fitted_font(wanted or QFont(), self._row_px(), (self._tallest,))
        drawn = wanted if fitted == (wanted or QFont()) else fitted  # None: pyqtgraph's default
        current = self.style["tickFont"]
        if (current is None) != (drawn is None) or (current is not None and current != drawn):
            super().setTickFont(drawn)


def fitted_font(font: QFont, row_px: float, titles: Sequence[str] = ()) -> QFont:
    """`font`, or a smaller one whose rows of `titles` are no taller than `row_px` (no smaller than `MIN_TITLE_PX`).

    A row is as tall as the font's line, or as a title's letters where they are taller; not as a
    fallback font's line (Chinese), whose leading would only make Chinese titles smaller. Titles
    are drawn unclipped, centred on their rows, so letters that fit their rows stay apart. With
    no row height known yet (0) the font is left as it is.
    """
    line = ink_height(font, titles)
    if row_px <= 0 or line <= row_px:
        return QFont(font)
    fitted = QFont(font)
    size = max(MIN_TITLE_PX, math.floor(row_px / line * _pixel_size(font)))
    fitted.setPixelSize(size)
    while size > MIN_TITLE_PX and ink_height(fitted, titles) > row_px:
        size -= 1
        fitted.setPixelSize(size)
    return fitted


def _pixel_size(font: QFont) -> float:
    """The font's size in pixels (a point-sized font: as the screen draws it)."""
    return font.pixelSize() if font.pixelSize() > 0 else QFontInfo(font).pixelSize()

"""One graphics item per (lane group, kind): every span of that batch in a few `drawRects`.

The timeline tells the item which time window is in view and how wide a pixel is; the item
culls and merges its spans for it (`span_levels`, from the coarsest level made for such a
pixel), so the number of rectangles, and the work, follow the number of pixels, not the
number of spans. Scene x is milliseconds from the run's start. During a replay a cursor
hides what had not started by then and cuts the rest at it.

A layer's rectangles share one top and bottom, so once in whole device pixels, those that
touch (and, in an opaque layer, those that overlap) are one rectangle of the same pixels:
Qt's raster engine spends about a microsecond on each rectangle however small, and spans a
pixel or two wide, as a window of 10^3 chunks shows them, come thousands to a layer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from PySide6.QtCore import QRectF
from PySide6.QtGui import QBrush, QPainter
from PySide6.QtWidgets import QGraphicsObject

from overlapviz._qt.timeline.brushes import solid_brush, waiting_brushes
from overlapviz._qt.timeline.device_rects import FloatArray, RectBatch, to_device
from overlapviz.view.layout import PlacedLane
from overlapviz.view.palette import SpanStyle
from overlapviz.view.span_sets import SpanSet

NS_PER_MS = 1e6
GAP_MIN_WIDTH_PX = 3.0


def layer_brushes(span_set: SpanSet) -> tuple[QBrush, ...]:
    """How a set is filled: solid when running, pale and hatched when waiting."""
    if span_set.style is SpanStyle.WAITING:
        return waiting_brushes(span_set.colour)
    return (solid_brush(span_set.colour),)


class SpanBatchItem(QGraphicsObject):
    """Draws the span sets of one batch, layer after layer, each in its lane's place in `lanes`."""

    def __init__(self, layers: Sequence[SpanSet], lanes: Mapping[str, PlacedLane]) -> None:
        super().__init__()
        self._layers = list(layers)
        self._brushes = [layer_brushes(layer) for layer in layers]
        self._opaque = [all(brush.isOpaque() for brush in brushes) for brushes in self._brushes]
        self._shown: list[tuple[FloatArray, FloatArray]] = [(np.zeros(0), np.zeros(0)) for _ in layers]
        self._batch = RectBatch()
        self._x_bounds = _time_bounds(self._layers)
        self._rows_y: list[tuple[float, float]] = []
        self._bounds = QRectF()
        self.set_lanes(lanes)
        self._window = (0.0, 0.0, 0.0)
        self._cursor_ns: float | None = None

    @property
    def layers(self) -> list[SpanSet]:
        """The span sets, in paint order."""
        return self._layers

    def shown_count(self) -> int:
        """Rectangles drawn at the current window (after culling and merging)."""
        return sum(len(starts) for starts, _ends in self._shown)

    def set_lanes(self, lanes: Mapping[str, PlacedLane]) -> None:
        """Draw each layer where its lane is placed in `lanes`."""
        self.prepareGeometryChange()
        self._rows_y = [(lanes[layer.lane_key].span_top, lanes[layer.lane_key].span_bottom) for layer in self._layers]
        self._bounds = _bounds(self._layers, self._rows_y, self._x_bounds)
        self.update()

    def set_window(self, t0_ms: float, t1_ms: float, pixel_ms: float) -> None:
        """Cull and merge for the window [t0, t1] where one pixel is `pixel_ms` wide."""
        self._window = (t0_ms, t1_ms, pixel_ms)
        t0, t1, pixel = t0_ms * NS_PER_MS, t1_ms * NS_PER_MS, max(pixel_ms * NS_PER_MS, 0.0)
        shown = []
        for layer in self._layers:
            starts, ends = layer.levels.visible(t0, t1, pixel, self._cursor_ns)
            shown.append((_ms(starts), _ms(ends)))
        self._shown = shown
        self.update()

    def set_cursor(self, t_ms: float | None) -> None:
        """Draw only what started before `t_ms`, cut at `t_ms` (None: everything)."""
        cursor_ns = None if t_ms is None else t_ms * NS_PER_MS
        if cursor_ns != self._cursor_ns:
            self._cursor_ns = cursor_ns
            self.set_window(*self._window)

    def boundingRect(self) -> QRectF:  # noqa: N802 (Qt's name)
        """Every span of the batch, whatever the window."""
        return self._bounds

    def paint(self, painter: QPainter, *_args: Any) -> None:
        """Fill each layer's visible rectangles in device pixels."""
        transform = painter.transform()
        painter.save()
        painter.resetTransform()
        for layer, (y0, y1), brushes, opaque, (starts, ends) in zip(
            self._layers, self._rows_y, self._brushes, self._opaque, self._shown, strict=True
        ):
            top, bottom = np.full(len(starts), y0), np.full(len(starts), y1)
            rects = to_device(starts, ends, top, bottom, transform)
            if layer.style is not SpanStyle.WAITING:
                _separate_neighbours(rects)
            self._batch.draw(painter, join_touching(rects, overlapping=opaque), brushes)
        painter.restore()


def _ms(ns: npt.NDArray[np.generic]) -> FloatArray:
    return np.asarray(ns, dtype=np.float64) / NS_PER_MS


def _separate_neighbours(rects: FloatArray) -> None:
    """Leave a one-pixel gap at the end of each span wide enough to spare it.

    Back-to-back copies on one engine would otherwise read as one long bar.
    """
    wide = rects[:, 2] > GAP_MIN_WIDTH_PX
    rects[wide, 2] -= 1.0


def join_touching(rects: FloatArray, *, overlapping: bool) -> FloatArray:
    """`rects` (of one row: one top, one height) with each run of touching ones made one rectangle.

    With `overlapping`, rectangles that overlap join too: in an opaque fill the pixels are
    the same. A translucent fill paints an overlap twice, darker, so there only rectangles
    that meet edge to edge join.
    """
    if len(rects) < 2:
        return rects
    if (np.diff(rects[:, 0]) < 0).any():
        rects = rects[np.argsort(rects[:, 0], kind="stable")]
    left, right = rects[:, 0], rects[:, 0] + rects[:, 2]
    if overlapping:
        reach = np.maximum.accumulate(right)
        opens = left[1:] > reach[:-1]
    else:
        reach = right
        opens = left[1:] != right[:-1]
    first = np.flatnonzero(np.concatenate(([True], opens)))
    if len(first) == len(rects):
        return rects
    last = np.concatenate((first[1:] - 1, [len(rects) - 1]))
    joined = rects[first]
    joined[:, 2] = reach[last] - joined[:, 0]
    return joined


def _time_bounds(layers: list[SpanSet]) -> tuple[float, float] | None:
    """The first start and the last end (ms) of every span (found once: the lanes may move, the times not)."""
    filled = [layer for layer in layers if len(layer)]
    if not filled:
        return None
    # a set is sorted by start and its finest level's reach is the running latest end: no scan
    x0 = min(float(layer.starts[0]) for layer in filled) / NS_PER_MS
    x1 = max(float(layer.levels.levels[0].reach[-1]) for layer in filled) / NS_PER_MS
    return x0, x1


def _bounds(layers: list[SpanSet], rows_y: list[tuple[float, float]], x_bounds: tuple[float, float] | None) -> QRectF:
    filled = [(layer, y) for layer, y in zip(layers, rows_y, strict=True) if len(layer)]
    if not filled or x_bounds is None:
        return QRectF()
    x0, x1 = x_bounds
    y0 = min(top for _layer, (top, _bottom) in filled)
    y1 = max(bottom for _layer, (_top, bottom) in filled)
    return QRectF(x0, y0, max(x1 - x0, 1e-9), y1 - y0)

"""One graphics item per (lane group, kind): every span of that batch in a few `drawRects`.

The timeline tells the item which time window is in view and how wide a pixel is; the item
culls its spans for it (`span_levels`, from the coarsest level made for such a pixel): the
spans at least a pixel wide are drawn as they are, the narrower ones as the share of each
pixel column they keep busy (`core.analysis.lod`), so the number of rectangles, and the work, follow
the number of pixels, not the number of spans, and a lane is never drawn busier or emptier
than it was. Scene x is milliseconds from the run's start. During a replay a cursor hides
what had not started by then and cuts the rest at it.

A column's share is drawn as a bar of the lane's colour that tall, from the bottom of the
lane, the layers of one lane stacked (`view.lane_ink`). A bar rather than a paler colour:
the colour stays the kind's own, which a projector does not wash out and which reads the
same on a light and a dark background (a translucent fill takes on the background's
lightness, and how dark it looks is not in proportion to its alpha); a bar's area is in
proportion to the time, as a span's is, and its height is read against the lane's.

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
from PySide6.QtGui import QBrush, QPainter, QTransform
from PySide6.QtWidgets import QGraphicsObject

from overlapviz._qt.timeline.brushes import solid_brush, waiting_brushes
from overlapviz._qt.timeline.device_rects import FloatArray, RectBatch, to_device
from overlapviz.core.analysis.intervals import merge_runs
from overlapviz.view.lane_ink import NOT_BUSY
from overlapviz.view.layout import PlacedLane
from overlapviz.view.palette import SpanStyle
from overlapviz.view.span_levels import ShownSpans, SpanLevels
from overlapviz.view.span_sets import SpanSet

NS_PER_MS = 1e6
GAP_MIN_WIDTH_PX = 12.0  # a span this wide spares a pixel to part it from the next (at most 1/12 of its ink)
IntpArray = npt.NDArray[np.intp]
_NO_INK: FloatArray = np.zeros(0)
_NOTHING_SHOWN = ShownSpans(_NO_INK, _NO_INK, _NO_INK, _NO_INK)


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
        self._shown = [_NOTHING_SHOWN for _ in layers]
        self._ink_bases: list[FloatArray] = [_NO_INK for _ in layers]
        self._batch = RectBatch()
        self._x_bounds = _time_bounds(self._layers)
        self._rows_y: list[tuple[float, float]] = []
        self._bounds = QRectF()
        self.set_lanes(lanes)
        self._window = (0.0, 0.0, 0.0, True)
        self._cursor_ns: float | None = None

    @property
    def layers(self) -> list[SpanSet]:
        """The span sets, in paint order."""
        return self._layers

    @property
    def shown(self) -> list[ShownSpans]:
        """What each layer draws at the current window."""
        return self._shown

    def shown_count(self) -> int:
        """Spans drawn as they are at the current window (the rest are drawn as ink)."""
        return sum(len(shown.starts) for shown in self._shown)

    def ink_at(self, lane_key: str, t_ms: float) -> float:
        """The share of the pixel column at `t_ms` that this batch's ink shows busy in `lane_key` (waiting left out)."""
        t_ns = t_ms * NS_PER_MS
        share = 0.0
        for layer, shown in zip(self._layers, self._shown, strict=True):
            if layer.lane_key != lane_key or layer.style in NOT_BUSY or not len(shown.ink):
                continue
            column = int(np.searchsorted(shown.edges, t_ns, side="right")) - 1
            if 0 <= column < len(shown.ink):
                share += float(shown.ink[column])
        return share

    def set_ink_bases(self, bases: Sequence[FloatArray]) -> None:
        """Start each layer's ink bars at `bases` (shares of the lane's height, one per column): what lies below."""
        self._ink_bases = list(bases)
        self.update()

    def set_lanes(self, lanes: Mapping[str, PlacedLane]) -> None:
        """Draw each layer where its lane is placed in `lanes`."""
        self.prepareGeometryChange()
        self._rows_y = [(lanes[layer.lane_key].span_top, lanes[layer.lane_key].span_bottom) for layer in self._layers]
        self._bounds = _bounds(self._layers, self._rows_y, self._x_bounds)
        self.update()

    def set_window(self, t0_ms: float, t1_ms: float, pixel_ms: float, *, build: bool = True) -> None:
        """Cull for the window [t0, t1] where one pixel is `pixel_ms` wide; the ink starts from the lane's bottom.

        Unless `build`, from the levels built so far (`missing_levels` names those it lacks).
        The scene stacks the layers of a lane afterwards (`set_ink_bases`).
        """
        self._window = (t0_ms, t1_ms, pixel_ms, build)
        t0, t1, pixel = t0_ms * NS_PER_MS, t1_ms * NS_PER_MS, max(pixel_ms * NS_PER_MS, 0.0)
        self._shown = [layer.levels.visible(t0, t1, pixel, self._cursor_ns, build=build) for layer in self._layers]
        self._ink_bases = [np.zeros_like(shown.ink) for shown in self._shown]
        self.update()

    def set_cursor(self, t_ms: float | None) -> bool:
        """Draw only what started before `t_ms`, cut at `t_ms` (None: everything); whether that changed anything."""
        cursor_ns = None if t_ms is None else t_ms * NS_PER_MS
        if cursor_ns == self._cursor_ns:
            return False
        self._cursor_ns = cursor_ns
        t0_ms, t1_ms, pixel_ms, build = self._window
        self.set_window(t0_ms, t1_ms, pixel_ms, build=build)
        return True

    def missing_levels(self) -> list[tuple[SpanLevels, int]]:
        """The levels, by layer, that the current window reads and that are not built yet."""
        pixel = max(self._window[2] * NS_PER_MS, 0.0)
        found = ((layer.levels, layer.levels.missing(pixel)) for layer in self._layers)
        return [(levels, index) for levels, index in found if index is not None]

    def boundingRect(self) -> QRectF:  # noqa: N802 (Qt's name)
        """Every span of the batch, whatever the window."""
        return self._bounds

    def paint(self, painter: QPainter, *_args: Any) -> None:
        """Fill each layer's wide spans and its ink columns in device pixels."""
        transform = painter.transform()
        painter.save()
        painter.resetTransform()
        for layer, rows_y, brushes, opaque, shown, base in zip(
            self._layers, self._rows_y, self._brushes, self._opaque, self._shown, self._ink_bases, strict=True
        ):
            self._paint_spans(painter, transform, layer, rows_y, brushes, opaque, shown)
            self._paint_ink(painter, transform, rows_y, brushes, shown, base)
        painter.restore()

    def _paint_spans(
        self,
        painter: QPainter,
        transform: QTransform,
        layer: SpanSet,
        rows_y: tuple[float, float],
        brushes: tuple[QBrush, ...],
        opaque: bool,
        shown: ShownSpans,
    ) -> None:
        count = len(shown.starts)
        top, bottom = np.full(count, rows_y[0]), np.full(count, rows_y[1])
        rects = to_device(_ms(shown.starts), _ms(shown.ends), top, bottom, transform)
        if layer.style is not SpanStyle.WAITING:
            _separate_neighbours(rects)
        self._batch.draw(painter, join_touching(rects, overlapping=opaque), brushes)

    def _paint_ink(
        self,
        painter: QPainter,
        transform: QTransform,
        rows_y: tuple[float, float],
        brushes: tuple[QBrush, ...],
        shown: ShownSpans,
        base: FloatArray,
    ) -> None:
        """The layer's ink bars, antialiased: a bar's top is where its share ends, to a fraction of a pixel."""
        if not shown.ink.any():
            return
        rects = ink_rects(_ms(shown.edges), shown.ink, base, rows_y, transform)
        if len(rects):
            painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
            self._batch.draw(painter, rects, brushes)
            painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)


def ink_rects(
    edges_ms: FloatArray, ink: FloatArray, base: FloatArray, rows_y: tuple[float, float], transform: QTransform
) -> FloatArray:
    """(x, y, w, h) device rectangles of the ink bars: whole pixels across, the share of the lane's height up.

    Column i spans `edges_ms[i]` to `edges_ms[i + 1]`; its bar rises from `base[i]` of the
    lane's height (from its bottom) by `ink[i]`, never past the lane's top. Neighbouring
    bars of one height are one rectangle (a busy stretch is one bar, as a span is).
    """
    if transform.m12() or transform.m21():
        raise ValueError("the timeline is never rotated or sheared")
    x = np.rint(edges_ms * transform.m11() + transform.m31())
    lane_y = np.array(rows_y) * transform.m22() + transform.m32()
    bottom, height = float(lane_y.max()), float(abs(lane_y[1] - lane_y[0]))
    low, high = np.minimum(base, 1.0), np.minimum(base + ink, 1.0)
    left, right = np.minimum(x[:-1], x[1:]), np.maximum(x[:-1], x[1:])
    first, last = _runs_alike(np.flatnonzero((high > low) & (right > left)), low, high)
    top = bottom - high[first] * height
    return np.column_stack((left[first], top, right[last] - left[first], (high - low)[first] * height))


def _runs_alike(columns: npt.NDArray[np.intp], low: FloatArray, high: FloatArray) -> tuple[IntpArray, IntpArray]:
    """The first and last of each run of neighbouring `columns` whose bars go from the same `low` to the same `high`."""
    if not len(columns):
        return columns, columns
    after, before = columns[1:], columns[:-1]
    opens = np.ones(len(columns), dtype=bool)  # a bar that does not continue the one before it
    opens[1:] = (after != before + 1) | (low[after] != low[before]) | (high[after] != high[before])
    starts = np.flatnonzero(opens)
    return columns[starts], columns[np.append(starts[1:] - 1, len(columns) - 1)]


def _ms(ns: npt.NDArray[np.generic]) -> FloatArray:
    return np.asarray(ns, dtype=np.float64) / NS_PER_MS


def _separate_neighbours(rects: FloatArray) -> None:
    """Leave a one-pixel gap at the end of each span wide enough to spare it.

    Back-to-back copies on one engine would otherwise read as one long bar. Narrower spans
    keep every pixel: there the gap would take a large share of their ink.
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
    first, run_right = merge_runs(rects[:, 0], rects[:, 0] + rects[:, 2], overlapping=overlapping)
    if len(first) == len(rects):
        return rects
    joined = rects[first]
    joined[:, 2] = run_right - joined[:, 0]
    return joined


def _time_bounds(layers: list[SpanSet]) -> tuple[float, float] | None:
    """The first start and the last end (ms) of every span (found once: the lanes may move, the times not)."""
    filled = [layer for layer in layers if len(layer)]
    if not filled:
        return None
    # a set is sorted by start and its finest level's reach is the running latest end: no scan
    x0 = min(float(layer.starts[0]) for layer in filled) / NS_PER_MS
    x1 = max(float(layer.levels.base.reach[-1]) for layer in filled) / NS_PER_MS
    return x0, x1


def _bounds(layers: list[SpanSet], rows_y: list[tuple[float, float]], x_bounds: tuple[float, float] | None) -> QRectF:
    filled = [(layer, y) for layer, y in zip(layers, rows_y, strict=True) if len(layer)]
    if not filled or x_bounds is None:
        return QRectF()
    x0, x1 = x_bounds
    y0 = min(top for _layer, (top, _bottom) in filled)
    y1 = max(bottom for _layer, (_top, bottom) in filled)
    return QRectF(x0, y0, max(x1 - x0, 1e-9), y1 - y0)

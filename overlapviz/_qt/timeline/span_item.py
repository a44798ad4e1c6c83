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

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from PySide6.QtCore import QRectF
from PySide6.QtGui import QBrush, QPainter, QTransform
from PySide6.QtWidgets import QGraphicsObject

from overlapviz._qt.timeline.brushes import solid_brush, waiting_brushes
from overlapviz._qt.timeline.device_rects import FloatArray, RectBatch, to_device
from overlapviz._qt.timeline.ink_bars import NO_RECTS, InkLayer, ink_layers_rects
from overlapviz.core.analysis.intervals import merge_runs
from overlapviz.view.lane_ink import NOT_BUSY, nothing_below
from overlapviz.view.layout import PlacedLane
from overlapviz.view.palette import SpanStyle
from overlapviz.view.span_levels import ShownSpans, SpanLevels, visible_together
from overlapviz.view.span_sets import SpanSet

NS_PER_MS = 1e6
GAP_MIN_WIDTH_PX = 12.0  # a span this wide spares a pixel to part it from the next (at most 1/12 of its ink)
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
        self._paint_groups = paint_groups(self._layers)
        self._shown = [_NOTHING_SHOWN for _ in layers]
        self._ink_bases: list[FloatArray] = [_NO_INK for _ in layers]
        self._batch = RectBatch()
        self._x_bounds = _time_bounds(self._layers)
        self._rows_y: list[tuple[float, float]] = []
        self._bounds = QRectF()
        self._painted: tuple[QTransform, list[tuple[FloatArray, FloatArray]]] | None = None
        # the picture's items worked out at once by the first to paint (`picture_rects`); a weak
        # reference, so that an item does not keep its picture's arrays alive
        self.together: Callable[[], Callable[[QTransform], None] | None] | None = None
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
        self._painted = None
        self.update()

    def set_lanes(self, lanes: Mapping[str, PlacedLane]) -> None:
        """Draw each layer where its lane is placed in `lanes`."""
        self.prepareGeometryChange()
        self._rows_y = [(lanes[layer.lane_key].span_top, lanes[layer.lane_key].span_bottom) for layer in self._layers]
        self._bounds = _bounds(self._layers, self._rows_y, self._x_bounds)
        self._painted = None
        self.update()

    def set_window(self, t0_ms: float, t1_ms: float, pixel_ms: float, *, build: bool = True) -> None:
        """Cull for the window [t0, t1] where one pixel is `pixel_ms` wide; the ink starts from the lane's bottom.

        Unless `build`, from the levels built so far (`missing_levels` names those it lacks).
        The scene stacks the layers of a lane afterwards (`set_ink_bases`).
        """
        cull_together((self,), t0_ms, t1_ms, pixel_ms, build=build)

    def take_window(self, window: tuple[float, float, float, bool], shown: list[ShownSpans]) -> None:
        """Draw `shown`, what each layer shows at `window` (t0, t1 and pixel in ms, build): see `cull_together`."""
        self._window = window
        self._shown = shown
        self._ink_bases = [nothing_below(len(shown[0].ink) if shown else 0)] * len(shown)  # one window's columns
        self._painted = None
        self.update()

    def set_cursor(self, t_ms: float | None) -> bool:
        """Draw only what started before `t_ms`, cut at `t_ms` (None: everything), from the next cull on.

        Returns whether that changed anything; if so, the caller culls again (`recull`).
        """
        cursor_ns = None if t_ms is None else t_ms * NS_PER_MS
        if cursor_ns == self._cursor_ns:
            return False
        self._cursor_ns = cursor_ns
        return True

    @property
    def culled_for(self) -> tuple[float, float, float, bool]:
        """The window last culled for: t0, t1 and a pixel (ms), and whether missing levels were built."""
        return self._window

    @property
    def cursor_ns(self) -> float | None:
        """The replay's cursor (ns), None when everything is drawn."""
        return self._cursor_ns

    def missing_levels(self) -> list[tuple[SpanLevels, int]]:
        """The levels, by layer, that the current window reads and that are not built yet."""
        pixel = max(self._window[2] * NS_PER_MS, 0.0)
        found = ((layer.levels, layer.levels.missing(pixel)) for layer in self._layers)
        return [(levels, index) for levels, index in found if index is not None]

    def boundingRect(self) -> QRectF:  # noqa: N802 (Qt's name)
        """Every span of the batch, whatever the window."""
        return self._bounds

    def paint(self, painter: QPainter, *_args: Any) -> None:
        """Fill each layer's wide spans and its ink columns in device pixels, by `paint_groups`."""
        rects = self.device_rects(painter.transform())
        if not rects:  # not culled for a window yet
            return
        painter.save()
        painter.resetTransform()
        for group in self._paint_groups:
            spans, ink = (_joined([rects[i][part] for i in group]) for part in (0, 1))
            brushes = self._brushes[group[0]]
            self._batch.draw(painter, spans, brushes)
            if len(ink):  # antialiased: a bar's top is where its share ends, to a fraction of a pixel
                painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
                self._batch.draw(painter, ink, brushes)
                painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        painter.restore()

    def rects_stale(self, transform: QTransform) -> bool:
        """Whether a paint at `transform` must work out the rectangles again (the window, lanes or ink changed)."""
        return self._painted is None or self._painted[0] != transform

    def ink_layers(self) -> list[InkLayer]:
        """The column edges (ms), ink, bases and lane rows of each layer that has ink, for `ink_layers_rects`."""
        return [
            InkLayer(_ms(shown.edges), shown.ink, base, rows_y)
            for shown, base, rows_y in zip(self._shown, self._ink_bases, self._rows_y, strict=True)
            if shown.ink.any()
        ]

    def take_rects(self, transform: QTransform, ink: Sequence[FloatArray]) -> None:
        """Keep the rectangles for `transform`: the spans' worked out here, `ink` those of `ink_layers` in order."""
        spans = [
            _span_rects(layer, rows_y, opaque, shown, transform)
            for layer, rows_y, opaque, shown in zip(self._layers, self._rows_y, self._opaque, self._shown, strict=True)
        ]
        inked = iter(ink)
        layers_ink = [next(inked) if shown.ink.any() else NO_RECTS for shown in self._shown]
        self._painted = (QTransform(transform), list(zip(spans, layers_ink, strict=True)))

    def device_rects(self, transform: QTransform) -> list[tuple[FloatArray, FloatArray]]:
        """Each layer's span and ink rectangles for `transform`, kept until the window, lanes or ink change.

        A repaint that moves nothing (a tooltip, the band of a drag, the window's own paint)
        then costs only the drawing. The first item of a picture to paint after a change works
        out every item's (`together`), the others find theirs made.
        """
        if self.rects_stale(transform):
            together = None if self.together is None else self.together()
            if together is not None:
                together(transform)
            if self.rects_stale(transform):  # alone, or its transform is not the others'
                self.take_rects(transform, ink_layers_rects(self.ink_layers(), transform))
        return [] if self._painted is None else self._painted[1]


def paint_groups(layers: Sequence[SpanSet]) -> list[list[int]]:
    """The layers (by index) that may be filled in one call each, in the order to fill them.

    A batch holds the same few styles in every lane (a stream's waiting and running copies,
    say), and lanes never overlap: so every layer of one style and colour is filled at once,
    a few calls an item rather than two a layer. That keeps each lane's own order only where
    every lane has its styles in one order; otherwise each layer is filled alone, in order.
    """
    rank: dict[tuple[SpanStyle, str], int] = {}
    last_in_lane: dict[str, int] = {}
    groups: list[list[int]] = []
    for index, layer in enumerate(layers):
        key = (layer.style, layer.colour)
        if key not in rank:
            rank[key] = len(groups)
            groups.append([])
        if rank[key] < last_in_lane.get(layer.lane_key, 0):
            return [[index] for index in range(len(layers))]  # a lane with its styles in another order
        last_in_lane[layer.lane_key] = rank[key]
        groups[rank[key]].append(index)
    return groups


def _joined(rects: list[FloatArray]) -> FloatArray:
    """The rectangles of several layers as one array."""
    filled = [part for part in rects if len(part)]
    if len(filled) < 2:
        return filled[0] if filled else NO_RECTS
    return np.concatenate(filled)


def cull_together(items: Sequence[SpanBatchItem], t0_ms: float, t1_ms: float, pixel_ms: float, *, build: bool) -> None:
    """Cull every item of `items` for the window [t0, t1] where one pixel is `pixel_ms` wide (see `set_window`).

    The layers of all the items are culled at once (`visible_together`): a picture has a few
    dozen to a few hundred layers, and their ink is worked out in one go, each item's at its own cursor.
    """
    t0, t1, pixel = t0_ms * NS_PER_MS, t1_ms * NS_PER_MS, max(pixel_ms * NS_PER_MS, 0.0)
    by_cursor: dict[float | None, list[SpanBatchItem]] = {}
    for item in items:
        by_cursor.setdefault(item.cursor_ns, []).append(item)
    for cursor_ns, alike in by_cursor.items():
        shown = iter(visible_together([layer.levels for item in alike for layer in item.layers], t0, t1, pixel,
                                      cursor_ns, build=build))  # fmt: skip
        for item in alike:
            item.take_window((t0_ms, t1_ms, pixel_ms, build), [next(shown) for _ in item.layers])


def recull(items: Sequence[SpanBatchItem]) -> None:
    """Cull `items` again for the window each was culled for last (after `set_cursor`)."""
    by_window: dict[tuple[float, float, float, bool], list[SpanBatchItem]] = {}
    for item in items:
        by_window.setdefault(item.culled_for, []).append(item)
    for (t0_ms, t1_ms, pixel_ms, build), alike in by_window.items():
        cull_together(alike, t0_ms, t1_ms, pixel_ms, build=build)


def _span_rects(
    layer: SpanSet, rows_y: tuple[float, float], opaque: bool, shown: ShownSpans, transform: QTransform
) -> FloatArray:
    """The layer's spans wide enough to draw as they are, in device pixels, those that touch made one."""
    count = len(shown.starts)
    if not count:
        return NO_RECTS
    top, bottom = np.full(count, rows_y[0]), np.full(count, rows_y[1])
    rects = to_device(_ms(shown.starts), _ms(shown.ends), top, bottom, transform)
    if layer.style is not SpanStyle.WAITING:
        _separate_neighbours(rects)
    return join_touching(rects, overlapping=opaque)


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

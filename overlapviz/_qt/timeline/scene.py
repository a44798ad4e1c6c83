"""The drawn content of one trace: its layout, one item per batch, callouts, backdrop, highlight.

Built from a prepared trace (`prepared`): only the lanes' places are worked out here, for the
theme and the callouts on show; every array the items draw was made on the run thread. The
callout rows are as tall as their words (`fit_callout_rows`): when the font or the plot's
height changes, the lanes are placed again and the items move, nothing is rebuilt.
"""

from __future__ import annotations

import functools

import numpy as np
import numpy.typing as npt
import pyqtgraph as pg
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QGraphicsObject

from overlapviz._qt.themes import Theme
from overlapviz._qt.timeline.backdrop import LaneBackdrop
from overlapviz._qt.timeline.background_builds import BackgroundBuilds
from overlapviz._qt.timeline.callout_item import CalloutItem
from overlapviz._qt.timeline.highlight import HighlightItem
from overlapviz._qt.timeline.picture_rects import PictureRects
from overlapviz._qt.timeline.range_labels import RangeLabelItem
from overlapviz._qt.timeline.span_item import NS_PER_MS, SpanBatchItem, cull_together, recull
from overlapviz.core.trace.lanes import LaneGroup
from overlapviz.core.trace.spans import OpKind, Trace
from overlapviz.view.callouts import rows_per_lane
from overlapviz.view.lane_ink import column_text, ink_bases
from overlapviz.view.layout import CALLOUT_HEIGHT, TimelineLayout, callout_row_height, layout_lanes
from overlapviz.view.prepared import PreparedView
from overlapviz.view.span_sets import BatchKey
from overlapviz.view.span_text import describe_span

Z_BACKDROP, Z_SPANS, Z_LABELS, Z_CALLOUTS, Z_HIGHLIGHT = -10, 0, 2, 5, 10
RANGES: BatchKey = (LaneGroup.ANNOTATIONS, OpKind.ANNOTATION.label)
FIT_TOLERANCE = 1e-3  # relative change of a callout row's height worth placing the lanes again for


class TimelineScene:
    """Everything drawn for `view`, ready to add to a view box; with `explain`, its callouts get rows of their own."""

    def __init__(self, view: PreparedView, theme: Theme, *, explain: bool = True) -> None:
        self.view = view
        callouts = list(view.callouts) if explain else []
        self._span_margin = theme.span_margin
        self._rows = rows_per_lane(callouts)
        self.layout: TimelineLayout = self._place(CALLOUT_HEIGHT)
        placed = {lane.lane.key: lane for lane in self.layout.lanes}
        self.batches: dict[BatchKey, SpanBatchItem] = {
            key: SpanBatchItem(sets, placed) for key, sets in view.span_sets.items()
        }
        self._rects_together = PictureRects(list(self.batches.values()))
        self.range_labels = RangeLabelItem(view.span_sets.get(RANGES, ()), placed, view.trace)
        self.backdrop = LaneBackdrop(self.layout, theme)
        self.highlight_item = HighlightItem(theme.foreground)
        self._highlighted = np.zeros(0, dtype=np.intp)
        self.callout_item = CalloutItem(self.layout, callouts, theme)
        window = view.trace.meta.window  # a trace cut to a time window spans the window, from its start
        self.windowed = window is not None
        self.start_ms = 0.0 if window is None else window[0] / NS_PER_MS
        self.end_ms = view.end_ms if window is None else max(view.end_ms, window[1] / NS_PER_MS)
        self.backdrop.setZValue(Z_BACKDROP)
        self.highlight_item.setZValue(Z_HIGHLIGHT)
        self.callout_item.setZValue(Z_CALLOUTS)
        self.range_labels.setZValue(Z_LABELS)

    def _place(self, callout_height: float) -> TimelineLayout:
        return layout_lanes(
            self.view.lanes, callout_rows=self._rows, span_margin=self._span_margin, callout_height=callout_height,
            gpus_not_drawn=self.view.gpus_not_drawn,
        )

    @property
    def trace(self) -> Trace:
        """The trace drawn."""
        return self.view.trace

    def items(self) -> list[QGraphicsObject]:
        """Every graphics item, backdrop first."""
        return [self.backdrop, *self.batches.values(), self.range_labels, self.callout_item, self.highlight_item]

    def add_to(self, view_box: pg.ViewBox) -> None:
        """Put the items in `view_box`."""
        for item in self.items():
            view_box.addItem(item, ignoreBounds=True)

    def remove_from(self, view_box: pg.ViewBox) -> None:
        """Take the items out of `view_box`."""
        for item in self.items():
            view_box.removeItem(item)

    def set_window(self, t0_ms: float, t1_ms: float, pixel_ms: float, builds: BackgroundBuilds | None = None) -> None:
        """Cull every batch for the visible window; stack the ink of each lane's layers.

        With `builds` that run off the GUI thread, the levels the window lacks are asked of
        them and the batches draw from coarser ones meanwhile; otherwise they are built now.
        """
        self.backdrop.set_window(t0_ms, t1_ms)
        self.range_labels.set_window(t0_ms, t1_ms)
        self.callout_item.set_window(t0_ms, t1_ms)
        build_now = builds is None or not builds.off_thread
        cull_together(list(self.batches.values()), t0_ms, t1_ms, pixel_ms, build=build_now)
        if builds is not None and not build_now:
            missing = (pair for item in self.batches.values() for pair in item.missing_levels())
            builds.want({("level", id(levels), i): functools.partial(levels.level, i) for levels, i in missing})
        self._stack_ink()

    def set_cursor(self, t_ms: float | None) -> None:
        """Replay: show what started before `t_ms`, cut at it (None: everything)."""
        self.callout_item.set_cursor(t_ms)
        self.range_labels.set_cursor(t_ms)
        moved = [item for item in self.batches.values() if item.set_cursor(t_ms)]
        if moved:  # stacking every lane's ink again is the costly part of a new picture's first cull
            recull(moved)
            self._stack_ink()

    def _stack_ink(self) -> None:
        """Start each layer's ink bars on top of those painted before it in its lane (`lane_ink`)."""
        items = list(self.batches.values())
        layers = [
            (layer.lane_key, layer.style, shown.ink)
            for item in items
            for layer, shown in zip(item.layers, item.shown, strict=True)
        ]
        bases = iter(ink_bases(layers))
        for item in items:
            item.set_ink_bases([next(bases) for _ in item.layers])

    def set_theme(self, theme: Theme) -> None:
        """Recolour what depends on the theme (the span colours never change)."""
        self.backdrop.set_theme(theme)
        self.highlight_item.set_colour(theme.foreground)
        self.callout_item.set_theme(theme)

    def set_font(self, font: QFont) -> None:
        """Write the callouts and the ranges' names in `font` (`fit_callout_rows` then sizes the callout rows)."""
        self.callout_item.set_font(font)
        self.range_labels.set_font(font)

    def fit_callout_rows(self, plot_px: float) -> bool:
        """Make each callout row as tall as its words on a plot `plot_px` tall; True if the lanes moved."""
        if not self.layout.callout_rows:
            return False
        wanted = callout_row_height(
            self.callout_item.row_px(), plot_px, self.layout.lanes_height, self.layout.callout_rows
        )
        if abs(wanted - self.layout.callout_height) <= FIT_TOLERANCE * self.layout.callout_height:
            return False
        self.layout = self._place(wanted)
        placed = {lane.lane.key: lane for lane in self.layout.lanes}
        for item in self.batches.values():
            item.set_lanes(placed)
        self.backdrop.set_layout(self.layout)
        self.callout_item.set_layout(self.layout)
        self.highlight(self._highlighted)
        return True

    def highlight(self, rows: npt.NDArray[np.intp]) -> None:
        """Outline `rows`."""
        self._highlighted = rows
        self.highlight_item.set_rows(self.trace, self.layout, rows)

    def shown_rect_count(self) -> int:
        """Spans drawn as they are at the current window (those narrower than a pixel are drawn as ink)."""
        return sum(item.shown_count() for item in self.batches.values())

    def describe_at(
        self, t_ms: float, y: float, tolerance_ms: float = 0.0, builds: BackgroundBuilds | None = None
    ) -> str | None:
        """The tooltip at (t, y): a callout's whole text, or the span's description, if any.

        Over a column of ink (spans narrower than a pixel), a last line says how busy it is.
        With `builds` that run off the GUI thread, a lane of many spans not yet indexed for
        hover is indexed there, and has no tooltip until then.
        """
        callout = self.callout_item.text_at(t_ms, y)
        if callout is not None:
            return callout
        view, placed = self.view, self.layout.lane_at(y)
        if placed is not None and self._index_off_thread(placed.lane.key, builds):
            return None
        hit = None if placed is None else view.hover.at(placed.lane.key, t_ms * NS_PER_MS, tolerance_ms * NS_PER_MS)
        if hit is None or placed is None:
            return None
        text = describe_span(
            view.trace, hit.row, waiting=hit.waiting, bandwidth_gbps=view.bandwidth_gbps, blocked_ns=view.blocked_ns
        )
        share = sum(item.ink_at(placed.lane.key, t_ms) for item in self.batches.values())
        return f"{text}\n{column_text(min(share, 1.0))}" if share > 0 else text

    def _index_off_thread(self, lane_key: str, builds: BackgroundBuilds | None) -> bool:
        """Whether `lane_key` waits for its hover index, asked of `builds` now if they run off the GUI thread."""
        hover = self.view.hover
        if builds is None or not builds.off_thread or not hover.needs_indexing(lane_key):
            return False
        builds.want({("hover", id(hover), lane_key): functools.partial(hover.index_lane, lane_key)})
        return True

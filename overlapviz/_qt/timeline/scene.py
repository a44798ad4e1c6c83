"""The drawn content of one trace: its layout, one item per batch, callouts, backdrop, highlight."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pyqtgraph as pg
from PySide6.QtGui import QFont

from overlapviz._qt.themes import Theme
from overlapviz._qt.timeline.backdrop import LaneBackdrop
from overlapviz._qt.timeline.callout_item import CalloutItem
from overlapviz._qt.timeline.callouts import Callout, rows_per_lane
from overlapviz._qt.timeline.highlight import HighlightItem
from overlapviz._qt.timeline.hover_index import HoverIndex
from overlapviz._qt.timeline.layout import TimelineLayout, layout_trace
from overlapviz._qt.timeline.span_item import NS_PER_MS, SpanBatchItem
from overlapviz._qt.timeline.span_sets import BatchKey, build_span_sets
from overlapviz._qt.timeline.span_text import describe_span
from overlapviz.core.metrics import copy_bandwidth_gbps, host_blocked_per_row
from overlapviz.core.trace import Trace

Z_BACKDROP, Z_SPANS, Z_CALLOUTS, Z_HIGHLIGHT = -10, 0, 5, 10


class TimelineScene:
    """Everything drawn for `trace`, ready to add to a view box; `callouts` get rows of their own."""

    def __init__(self, trace: Trace, theme: Theme, callouts: list[Callout] | None = None) -> None:
        self.trace = trace
        rows = rows_per_lane(callouts or [])
        self.layout: TimelineLayout = layout_trace(
            trace, callout_rows=rows, span_margin=theme.span_margin, callout_height=theme.callout_height
        )
        batches = build_span_sets(trace, self.layout)
        self.batches: dict[BatchKey, SpanBatchItem] = {key: SpanBatchItem(sets) for key, sets in batches.items()}
        self.backdrop = LaneBackdrop(self.layout, theme)
        self.highlight_item = HighlightItem(theme.foreground)
        self.callout_item = CalloutItem(self.layout, callouts or [], theme)
        self._hover = HoverIndex(trace, self.layout, [s for sets in batches.values() for s in sets])
        self._bandwidth = copy_bandwidth_gbps(trace)
        self._blocked = host_blocked_per_row(trace)
        self.end_ms = float(trace["end_ns"].max()) / NS_PER_MS if len(trace) else 1.0
        self.backdrop.setZValue(Z_BACKDROP)
        self.highlight_item.setZValue(Z_HIGHLIGHT)
        self.callout_item.setZValue(Z_CALLOUTS)

    def items(self) -> list[pg.GraphicsObject]:
        """Every graphics item, backdrop first."""
        return [self.backdrop, *self.batches.values(), self.callout_item, self.highlight_item]

    def add_to(self, view_box: pg.ViewBox) -> None:
        """Put the items in `view_box`."""
        for item in self.items():
            view_box.addItem(item, ignoreBounds=True)

    def remove_from(self, view_box: pg.ViewBox) -> None:
        """Take the items out of `view_box`."""
        for item in self.items():
            view_box.removeItem(item)

    def set_window(self, t0_ms: float, t1_ms: float, pixel_ms: float) -> None:
        """Cull and merge every batch for the visible window."""
        self.backdrop.set_window(t0_ms, t1_ms)
        self.callout_item.set_window(t0_ms, t1_ms)
        for item in self.batches.values():
            item.set_window(t0_ms, t1_ms, pixel_ms)

    def set_cursor(self, t_ms: float | None) -> None:
        """Replay: show what started before `t_ms`, cut at it (None: everything)."""
        self.callout_item.set_cursor(t_ms)
        for item in self.batches.values():
            item.set_cursor(t_ms)

    def set_theme(self, theme: Theme) -> None:
        """Recolour what depends on the theme (the span colours never change)."""
        self.backdrop.set_theme(theme)
        self.highlight_item.set_colour(theme.foreground)
        self.callout_item.set_theme(theme)

    def set_font(self, font: QFont) -> None:
        """Write the callouts in `font`."""
        self.callout_item.set_font(font)

    def highlight(self, rows: npt.NDArray[np.intp]) -> None:
        """Outline `rows`."""
        self.highlight_item.set_rows(self.trace, self.layout, rows)

    def shown_rect_count(self) -> int:
        """Rectangles drawn for the spans at the current window."""
        return sum(item.shown_count() for item in self.batches.values())

    def describe_at(self, t_ms: float, y: float, tolerance_ms: float = 0.0) -> str | None:
        """The tooltip of the span at (t, y), if any."""
        hit = self._hover.at(t_ms * NS_PER_MS, y, tolerance_ms * NS_PER_MS)
        if hit is None:
            return None
        return describe_span(
            self.trace, hit.row, waiting=hit.waiting, bandwidth_gbps=self._bandwidth, blocked_ns=self._blocked
        )

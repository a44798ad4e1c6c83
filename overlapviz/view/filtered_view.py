"""A prepared view re-made for the stream lanes a `StreamFilter` keeps, without preparing it again.

`core.analysis.many_streams.arrange_streams` says which lanes to show; a lane the view had keeps its
rows and span sets, only a lane it did not have (the folded quiet streams) gets its own, and
the hover index and callouts follow the lanes kept. The timeline offers the filter only where
a trace has more stream lanes than `COLLAPSE_ABOVE`; below that it shows every stream, in
stream order. Pure: no Qt here.
"""

from __future__ import annotations

from dataclasses import replace

from overlapviz.core.analysis.many_streams import COLLAPSE_ABOVE, arrange_streams
from overlapviz.core.trace.lanes import LaneGroup
from overlapviz.view.hover_index import HoverIndex
from overlapviz.view.lane_rows import LaneRows, lanes_with_rows
from overlapviz.view.prepared import PreparedView
from overlapviz.view.span_sets import SpanSet, build_span_sets
from overlapviz.view.stream_filter import StreamFilter, stream_lane_count


def offers_filter(view: PreparedView) -> bool:
    """Whether the trace has too many stream lanes to read without a filter."""
    return stream_lane_count(view.lanes) > COLLAPSE_ABOVE


def filtered_view(view: PreparedView, wanted: StreamFilter) -> PreparedView:
    """`view` with the stream lanes `wanted` keeps, busiest first; `view` itself where there is no filter to apply.

    A view made by a filter is filtered again from the view it was made from.
    """
    view = view.unfiltered or view
    if not offers_filter(view):
        return view
    collapse_above = COLLAPSE_ABOVE if wanted.hide_quiet else len(view.lanes)
    rows_found = {lane.key: lane.rows for lane in view.lanes}  # found once, as the view was prepared
    chosen = arrange_streams(view.trace, [lane.lane for lane in view.lanes], text=wanted.text,
                             collapse_above=collapse_above, rows=rows_found)  # fmt: skip
    had = {lane.key: lane for lane in view.lanes}
    lanes: list[LaneRows] = []
    for lane in chosen:
        known = had.get(lane.key)
        # A folded lane keeps its key whatever streams it folds: its rows are its own.
        lanes += [known] if known is not None and known.lane == lane else list(lanes_with_rows(view.trace, [lane]))
    kept = {lane.key for lane in lanes}
    fresh = [lane for lane in lanes if had.get(lane.key) is not lane]
    reused = kept - {lane.key for lane in fresh}
    batches: dict[tuple[LaneGroup, str], list[SpanSet]] = {}
    for key, sets in view.span_sets.items():
        batches[key] = [s for s in sets if s.lane_key in reused]
    for key, sets in build_span_sets(view.trace, fresh, view.blocked_ns).items():
        batches.setdefault(key, []).extend(sets)
    span_sets = {key: tuple(sets) for key, sets in batches.items() if sets}
    hover = HoverIndex(view.trace, lanes, (s for sets in span_sets.values() for s in sets))
    callouts = tuple(callout for callout in view.callouts if callout.lane_key in kept)
    return replace(view, lanes=tuple(lanes), span_sets=span_sets, callouts=callouts, hover=hover,
                   stream_filter=wanted, unfiltered=view)  # fmt: skip

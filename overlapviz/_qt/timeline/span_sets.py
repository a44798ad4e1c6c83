"""The spans of a trace sorted into drawable sets: per lane, per way of painting them.

A device op is drawn running (start -> end) in its stream lane and its unit lane, and waiting
(ready -> start) in its stream lane only: in a unit lane the unit was busy with another op at
that time. A host API call is drawn grey, with the part in which the host waited for its own
op (as `core.metrics.host_blocked_per_row` measures it) painted over it as blocked.
Sets are batched by (lane group, kind): the timeline draws one item per batch.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from overlapviz._qt.palette import KIND_COLOURS, SpanStyle
from overlapviz._qt.timeline.layout import PlacedLane, TimelineLayout
from overlapviz.core.lanes import LaneGroup
from overlapviz.core.metrics import host_blocked_per_row
from overlapviz.core.trace import OpKind, Trace

Int64Array = npt.NDArray[np.int64]
KIND_STYLES = {OpKind.H2D: SpanStyle.H2D, OpKind.KERNEL: SpanStyle.KERNEL, OpKind.D2H: SpanStyle.D2H}


@dataclass(frozen=True, slots=True)
class SpanSet:
    """Spans of one style in one lane, sorted by start; times in ns from the run's start."""

    lane: PlacedLane
    style: SpanStyle
    colour: str  # the kind's colour (a waiting set takes its op kind's colour)
    starts: Int64Array
    ends: Int64Array
    rows: npt.NDArray[np.intp]

    def __len__(self) -> int:
        return len(self.rows)


BatchKey = tuple[LaneGroup, str]  # (lane group, kind label): one drawn item each


def build_span_sets(trace: Trace, layout: TimelineLayout) -> dict[BatchKey, list[SpanSet]]:
    """Every span set of `trace`, batched by (lane group, kind), layers in paint order."""
    batches: dict[BatchKey, list[SpanSet]] = {}
    blocked = host_blocked_per_row(trace)
    for placed in layout.lanes:
        for key, span_set in _lane_sets(trace, placed, blocked):
            if len(span_set):
                batches.setdefault(key, []).append(span_set)
    return batches


def _lane_sets(trace: Trace, placed: PlacedLane, blocked: Int64Array) -> list[tuple[BatchKey, SpanSet]]:
    group = placed.lane.group
    if group is LaneGroup.HOST:
        return _host_sets(trace, placed, blocked)
    sets: list[tuple[BatchKey, SpanSet]] = []
    kinds = trace["kind"][placed.rows]
    for kind, style in KIND_STYLES.items():
        rows = placed.rows[kinds == kind]
        if group is LaneGroup.STREAMS:
            sets.append(((group, kind.label), _waiting_set(trace, placed, rows, style)))
        sets.append(((group, kind.label), _running_set(trace, placed, rows, style)))
    return sets


def _running_set(trace: Trace, placed: PlacedLane, rows: npt.NDArray[np.intp], style: SpanStyle) -> SpanSet:
    return SpanSet(placed, style, KIND_COLOURS[style], trace["start_ns"][rows], trace["end_ns"][rows], rows)


def _waiting_set(trace: Trace, placed: PlacedLane, rows: npt.NDArray[np.intp], style: SpanStyle) -> SpanSet:
    ready, start = trace["ready_ns"][rows], trace["start_ns"][rows]
    waited = rows[(ready >= 0) & (start > ready)]
    order = np.argsort(trace["ready_ns"][waited], kind="stable")
    waited = waited[order]
    return SpanSet(
        placed, SpanStyle.WAITING, KIND_COLOURS[style], trace["ready_ns"][waited], trace["start_ns"][waited], waited
    )


def _host_sets(trace: Trace, placed: PlacedLane, blocked: Int64Array) -> list[tuple[BatchKey, SpanSet]]:
    key: BatchKey = (LaneGroup.HOST, OpKind.API.label)
    rows = placed.rows
    starts, ends = trace["start_ns"][rows], trace["end_ns"][rows]
    calls = SpanSet(placed, SpanStyle.API, KIND_COLOURS[SpanStyle.API], starts, ends, rows)
    stuck = rows[blocked[rows] > 0]
    ends = trace["end_ns"][stuck]
    waits = SpanSet(placed, SpanStyle.BLOCKED, KIND_COLOURS[SpanStyle.BLOCKED], ends - blocked[stuck], ends, stuck)
    return [(key, calls), (key, waits)]

"""The spans of a trace sorted into drawable sets: per lane, per way of painting them.

A device op is drawn running (start -> end) in its stream lane and its unit lane, and waiting
(ready -> start) in its stream lane only: in a unit lane the unit was busy with another op at
that time. A host API call is drawn grey, with the part in which the host waited for its own
op (as `core.analysis.metrics.host_blocked_per_row` measures it) painted over it as blocked; the
host thread's own copies (a staging ring's) are drawn in their colour on its lane. An
annotation range is drawn as it ran, in its row of the annotation lane.
Sets are batched by (lane group, kind): the timeline draws one item per batch. A set names
its lane by key only, so where the lane sits (theme, callout rows) can change without
building the sets again. Pure: no Qt here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from overlapviz.core.trace.lanes import LaneGroup
from overlapviz.core.trace.spans import OpKind, Trace
from overlapviz.view.lane_rows import LaneRows
from overlapviz.view.palette import KIND_COLOURS, SpanStyle
from overlapviz.view.span_levels import SpanLevels, span_levels

Int64Array = npt.NDArray[np.int64]
MOSTLY_KEPT = (7, 8)  # a mask that keeps this share or more is read as it is: it seldom changes its mind
KIND_STYLES = {
    OpKind.H2D: SpanStyle.H2D, OpKind.KERNEL: SpanStyle.KERNEL, OpKind.D2H: SpanStyle.D2H,
    OpKind.MEMSET: SpanStyle.MEMSET, OpKind.D2D: SpanStyle.D2D, OpKind.PEER: SpanStyle.PEER,
    OpKind.MIGRATION: SpanStyle.MIGRATION, OpKind.PREFETCH: SpanStyle.PREFETCH,
    OpKind.COMMUNICATION: SpanStyle.COMMUNICATION,
}  # fmt: skip  (the device kinds; in the order they are painted)


@dataclass(frozen=True, slots=True)
class SpanSet:
    """Spans of one style in one lane, sorted by start; times in ns from the run's start.

    `levels` holds the wider of them again, by level, and the time they cover (`span_levels`), for the item to draw.
    """

    lane_key: str
    style: SpanStyle
    colour: str  # the kind's colour (a waiting set takes its op kind's colour)
    starts: Int64Array
    ends: Int64Array
    rows: npt.NDArray[np.intp]
    levels: SpanLevels

    @classmethod
    def of(
        cls,
        lane_key: str,
        style: SpanStyle,
        colour: str,
        starts: Int64Array,
        ends: Int64Array,
        rows: npt.NDArray[np.intp],
    ) -> SpanSet:
        """The set, with its levels."""
        return cls(lane_key, style, colour, starts, ends, rows, span_levels(starts, ends))

    def __len__(self) -> int:
        return len(self.rows)


BatchKey = tuple[LaneGroup, str]  # (lane group, kind label): one drawn item each
SpanBatches = dict[BatchKey, tuple[SpanSet, ...]]


def build_span_sets(trace: Trace, lanes: Sequence[LaneRows], blocked: Int64Array) -> SpanBatches:
    """Every span set of `trace`, batched by (lane group, kind), layers in paint order.

    `blocked` is the host time blocked per row (`core.analysis.metrics.host_blocked_per_row`).
    """
    batches: dict[BatchKey, list[SpanSet]] = {}
    for lane in lanes:
        for key, span_set in _lane_sets(trace, lane, blocked):
            if len(span_set):
                batches.setdefault(key, []).append(span_set)
    return {key: tuple(sets) for key, sets in batches.items()}


def styles_present(batches: Mapping[BatchKey, Sequence[SpanSet]]) -> set[SpanStyle]:
    """The styles the batches paint (what a legend should name)."""
    return {span_set.style for sets in batches.values() for span_set in sets}


def _lane_sets(trace: Trace, lane: LaneRows, blocked: Int64Array) -> list[tuple[BatchKey, SpanSet]]:
    group = lane.lane.group
    if group is LaneGroup.HOST:
        return _host_sets(trace, lane, blocked)
    if group is LaneGroup.ANNOTATIONS:
        key: BatchKey = (group, OpKind.ANNOTATION.label)
        return [(key, _running_set(trace, lane.key, lane.rows, SpanStyle.ANNOTATION))]
    sets: list[tuple[BatchKey, SpanSet]] = []
    kinds = trace["kind"].take(lane.rows)
    present = np.bincount(kinds.astype(np.intp), minlength=max(KIND_STYLES) + 1)
    for kind, style in KIND_STYLES.items():
        if not present[kind]:
            continue
        # a lane of one kind (a hardware unit's, mostly) takes its rows as they are
        (rows,) = _picked(kinds == kind, lane.rows) if present[kind] < len(kinds) else (lane.rows,)
        starts = trace["start_ns"].take(rows)
        if group is LaneGroup.STREAMS:
            sets.append(((group, kind.label), _waiting_set(trace, lane.key, rows, starts, style)))
        sets.append(((group, kind.label), _running_set(trace, lane.key, rows, style, starts)))
    return sets


def _running_set(
    trace: Trace, lane_key: str, rows: npt.NDArray[np.intp], style: SpanStyle, starts: Int64Array | None = None
) -> SpanSet:
    starts = trace["start_ns"].take(rows) if starts is None else starts
    return SpanSet.of(lane_key, style, KIND_COLOURS[style], starts, trace["end_ns"].take(rows), rows)


def _waiting_set(
    trace: Trace, lane_key: str, rows: npt.NDArray[np.intp], start: Int64Array, style: SpanStyle
) -> SpanSet:
    """The ops of `rows` (starting at `start`) that waited, from ready to start, in the order they got ready."""
    ready = trace["ready_ns"].take(rows)
    rows, ready, start = _picked((ready >= 0) & (start > ready), rows, ready, start)
    if len(ready) > 1 and bool((ready[1:] < ready[:-1]).any()):  # ops mostly get ready in the order they start
        order = np.argsort(ready, kind="stable")
        rows, ready, start = rows[order], ready[order], start[order]
    return SpanSet.of(lane_key, SpanStyle.WAITING, KIND_COLOURS[style], ready, start, rows)


def _picked(mask: npt.NDArray[np.bool_], *arrays: npt.NDArray[Any]) -> tuple[npt.NDArray[Any], ...]:
    """`arrays` where `mask` holds (as they are where it holds everywhere).

    A mask that alternates (a stream's copies and kernels, a thread's blocking calls) costs a
    mispredicted branch a span: picking by its indices is several times quicker then.
    """
    kept = int(np.count_nonzero(mask))
    if kept == len(mask):
        return arrays
    if kept * MOSTLY_KEPT[1] >= len(mask) * MOSTLY_KEPT[0]:
        return tuple(values[mask] for values in arrays)
    where = np.flatnonzero(mask)
    return tuple(values.take(where) for values in arrays)


def _host_sets(trace: Trace, lane: LaneRows, blocked: Int64Array) -> list[tuple[BatchKey, SpanSet]]:
    key: BatchKey = (LaneGroup.HOST, OpKind.API.label)
    own_copy = trace["kind"].take(lane.rows) == OpKind.HOST_COPY
    copied = own_copy.any()
    rows = lane.rows[~own_copy] if copied else lane.rows
    starts, ends = trace["start_ns"].take(rows), trace["end_ns"].take(rows)
    calls = SpanSet.of(lane.key, SpanStyle.API, KIND_COLOURS[SpanStyle.API], starts, ends, rows)
    blocked_here = blocked.take(rows)
    rows, ends, blocked_here = _picked(blocked_here > 0, rows, ends, blocked_here)
    waits = SpanSet.of(lane.key, SpanStyle.BLOCKED, KIND_COLOURS[SpanStyle.BLOCKED], ends - blocked_here, ends, rows)
    sets = [(key, calls), (key, waits)]
    if copied:
        copies = _running_set(trace, lane.key, lane.rows[own_copy], SpanStyle.HOST_COPY)
        sets.append(((LaneGroup.HOST, OpKind.HOST_COPY.label), copies))
    return sets

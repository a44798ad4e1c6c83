"""Which span is under the pointer: a binary search on each lane's start times.

Hit-testing shapes is far too slow at 10^4 spans; instead each lane keeps its spans sorted
by start and the running maximum of their ends, so a look-up is one `np.searchsorted` and a
short walk back over the spans that can still cover the instant. The index is made with the
rest of a prepared trace but sorts a lane's spans only at the lane's first look-up. A lane of
many spans (`INDEX_NOW_MAX`) takes a few tenths of a second to index at 10^7 spans: the
timeline has it indexed on a worker thread (`needs_indexing`, `index_lane`) and gives no
tooltip there until it is. It knows lanes by key only; which lane is at a height is the
layout's to say. Pure: no Qt here.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from overlapviz.core.trace.spans import Trace
from overlapviz.view.lane_rows import LaneRows
from overlapviz.view.palette import SpanStyle
from overlapviz.view.span_sets import SpanSet

_INT64 = np.iinfo(np.int64)
INDEX_NOW_MAX = 200_000  # a lane of up to this many spans is indexed at its first look-up (about 10 ms)


@dataclass(frozen=True, slots=True)
class SortedSpans:
    """Spans sorted by start with the running maximum of their ends."""

    rows: npt.NDArray[np.intp]
    starts: npt.NDArray[np.int64]
    ends: npt.NDArray[np.int64]
    reach: npt.NDArray[np.int64]

    @classmethod
    def of(cls, rows: npt.NDArray[np.intp], starts: npt.ArrayLike, ends: npt.ArrayLike) -> SortedSpans:
        """Sort the spans by start and index them."""
        s, e, r = np.asarray(starts, dtype=np.int64), np.asarray(ends, dtype=np.int64), np.asarray(rows, dtype=np.intp)
        if len(s) > 1 and not bool((s[1:] >= s[:-1]).all()):  # a lane's rows come sorted: no sort to pay then
            order = np.argsort(s, kind="stable")
            s, e, r = s[order], e[order], r[order]
        reach = np.maximum.accumulate(e) if len(e) else e
        return cls(r, s, e, reach)

    def at(self, t: float, tolerance: float = 0.0) -> int | None:
        """The row of the latest-starting span that covers `t` (within `tolerance`), if any."""
        # a whole-ns key: a float one would make numpy convert every start to float on each look-up
        key = min(max(math.floor(t + tolerance), _INT64.min), _INT64.max)
        j = int(np.searchsorted(self.starts, np.int64(key), side="right")) - 1
        while j >= 0 and self.reach[j] >= t - tolerance:
            if self.ends[j] >= t - tolerance:
                return int(self.rows[j])
            j -= 1
        return None


@dataclass(frozen=True, slots=True)
class Hit:
    """A span under the pointer, and whether the pointer is on its waiting part."""

    row: int
    waiting: bool
    lane_key: str


class HoverIndex:
    """Look-ups of the span at an instant of a lane.

    A lane's index is made at its first look-up: sorting every lane's spans up front would
    cost a second of the open at 10^7 spans, for lanes the pointer may never cross.
    """

    def __init__(self, trace: Trace, lanes: Sequence[LaneRows], span_sets: Iterable[SpanSet]) -> None:
        self._trace = trace
        self._lane_rows = {lane.key: lane.rows for lane in lanes}
        self._waiting_sets = _waiting_by_lane(span_sets)
        self._running: dict[str, SortedSpans] = {}
        self._waiting: dict[str, SortedSpans] = {}

    def at(self, lane_key: str, t_ns: float, tolerance_ns: float = 0.0) -> Hit | None:
        """The span at time `t_ns` in lane `lane_key`: running first, then waiting."""
        if lane_key not in self._lane_rows:
            return None
        running = self._running_in(lane_key)
        row = running.at(t_ns)
        if row is None and lane_key in self._waiting_sets:
            waiting = self._waiting_in(lane_key).at(t_ns)
            if waiting is not None:
                return Hit(waiting, True, lane_key)
        if row is None:
            row = running.at(t_ns, tolerance_ns)
        return None if row is None else Hit(row, False, lane_key)

    def needs_indexing(self, lane_key: str) -> bool:
        """Whether a look-up in `lane_key` would first index more than `INDEX_NOW_MAX` spans."""
        if lane_key not in self._lane_rows:
            return False
        running = 0 if lane_key in self._running else len(self._lane_rows[lane_key])
        sets = self._waiting_sets.get(lane_key, []) if lane_key not in self._waiting else []
        return running + sum(len(s) for s in sets) > INDEX_NOW_MAX

    def index_lane(self, lane_key: str) -> None:
        """Index `lane_key` now (a worker thread may: look-ups meanwhile index it themselves, to the same end)."""
        if lane_key in self._lane_rows:
            self._running_in(lane_key)
            if lane_key in self._waiting_sets:
                self._waiting_in(lane_key)

    def _running_in(self, lane_key: str) -> SortedSpans:
        if lane_key not in self._running:
            rows = self._lane_rows[lane_key]
            self._running[lane_key] = SortedSpans.of(rows, self._trace["start_ns"][rows], self._trace["end_ns"][rows])
        return self._running[lane_key]

    def _waiting_in(self, lane_key: str) -> SortedSpans:
        if lane_key not in self._waiting:
            sets = self._waiting_sets[lane_key]
            rows = np.concatenate([s.rows for s in sets])
            starts = np.concatenate([s.starts for s in sets])
            ends = np.concatenate([s.ends for s in sets])
            self._waiting[lane_key] = SortedSpans.of(rows, starts, ends)
        return self._waiting[lane_key]


def _waiting_by_lane(span_sets: Iterable[SpanSet]) -> dict[str, list[SpanSet]]:
    found: dict[str, list[SpanSet]] = {}
    for span_set in span_sets:
        if span_set.style is SpanStyle.WAITING and len(span_set):
            found.setdefault(span_set.lane_key, []).append(span_set)
    return found

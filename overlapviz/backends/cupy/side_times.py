"""Times of the ops that CUPTI does not report as copies or kernels (pure: no CUDA here).

- A host copy into or out of a staging ring slot is the host thread's own work: timed with
  the run's host clock around the memcpy. The wait for the slot's D2H before a copy out is
  timed too, as its own host step (under CUPTI its ``cudaEventSynchronize`` record shows it).
- A prefetch of managed memory (``cudaMemPrefetchAsync``) comes back from CUPTI as
  unified-memory counter records, thousands per prefetch and with no correlation id to the
  call, so it is timed with an event on its stream just before and just after it, read
  against an origin event recorded when the device was idle. Prefetches of one direction
  share its copy engine, which serves them in order: their starts are replayed as the CUDA
  events fallback does for copies.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from overlapviz.backends.cupy.cupti_records import HostStep
from overlapviz.backends.cupy.fifo_replay import replay_groups
from overlapviz.core.config.pipeline_plan import PlannedOp
from overlapviz.core.trace.spans import OpKind, Unit

WAIT_NAME = "cudaEventSynchronize"  # what the host calls to wait for a slot's D2H


@dataclass(frozen=True, slots=True)
class Span:
    """When one op ran (``ready``: when its stream reached it; the host's own ops are ready when they start)."""

    ready_ns: int
    start_ns: int
    end_ns: int


@dataclass
class SideTimes:
    """The host copies', waits' and prefetches' times of one run, on the run's clock."""

    host: dict[int, Span] = field(default_factory=dict)  # plan row -> the host copy's span
    waits: list[HostStep] = field(default_factory=list)  # the host waiting for a slot before a copy out
    device: dict[int, Span] = field(default_factory=dict)  # plan row -> a prefetch's span (events)
    pending: list[Callable[[], None]] = field(default_factory=list, repr=False)  # event readings, once synchronised

    def settle(self) -> None:
        """Read the events of the run (call once the device is idle: their times are known then)."""
        pending, self.pending = self.pending, []
        for read in pending:
            read()

    def span(self, row: int) -> Span:
        """The span of plan row `row` (a host copy or a prefetch)."""
        found = self.host.get(row) or self.device.get(row)
        if found is None:
            raise KeyError(f"op {row} was not timed")
        return found


def is_side_op(op: PlannedOp) -> bool:
    """Whether `op` is timed here rather than from CUPTI's copy and kernel records."""
    return op.kind in (OpKind.HOST_COPY, OpKind.PREFETCH)


def event_spans(plan: Sequence[PlannedOp], ready: dict[int, int], end: dict[int, int]) -> dict[int, Span]:
    """Spans of event-timed ops (`ready`/`end` by plan row), each unit's ops replayed as a FIFO."""
    rows = sorted(ready)
    position = {row: i for i, row in enumerate(rows)}
    groups: dict[Unit, list[int]] = {}
    for op in plan:
        if op.index in position:
            groups.setdefault(op.unit, []).append(position[op.index])
    ready_list, end_list = [ready[r] for r in rows], [end[r] for r in rows]
    start = replay_groups(list(groups.values()), ready_list, end_list)
    return {
        row: Span(min(ready_list[i], start[i]), start[i], max(start[i], end_list[i])) for i, row in enumerate(rows)
    }

"""CUPTI as the timing source of one run: claimed just before it, collected and checked after it.

The decisions are `cupti_sharing`'s; this module makes the CUPTI calls they need. Before the
run, a probe copy must come back to our buffers with no sign of another client; after it,
every op issued must come back exactly once. When either fails the caller times the run
with CUDA events instead, with the reason as its timing note.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from overlapviz.backends.cupy.cupti_records import HostStep
from overlapviz.backends.cupy.cupti_session import CuptiCollector
from overlapviz.backends.cupy.cupti_sharing import (
    Delivery,
    after_run_reason,
    before_run_reason,
    duplicated_ops,
    foreign_reason,
    merge,
    probe_returned,
    should_rearm,
)
from overlapviz.backends.cupy.cupti_trace import RecordMismatch, cupti_ops, run_device_records, trace_from_cupti
from overlapviz.backends.cupy.side_times import SideTimes
from overlapviz.core.config import FLOAT32_BYTES, PipelineConfig
from overlapviz.core.config.pipeline_plan import PlannedOp
from overlapviz.core.trace.meta import TraceMeta
from overlapviz.core.trace.spans import Trace

PROBE_BYTES = FLOAT32_BYTES  # the runner's touch copy, the probe
FLUSH_ATTEMPTS = 25  # records can trail the flush that asked for them
FLUSH_WAIT_S = 0.002


class CuptiShared(RuntimeError):
    """The run's CUPTI records are not its alone; the message says why, in one line."""


@dataclass(frozen=True, slots=True)
class Claim:
    """The check made just before a run: why CUPTI cannot time it ("" if it can)."""

    reason: str
    rearmed: bool  # our callbacks and kinds were set up again: the next run is a warm-up


def claim(collector: CuptiCollector, touch: Callable[[], None]) -> Claim:
    """Check that CUPTI is ours alone right now; `touch` issues the probe copy and waits for it.

    Ends with one more probe copy, unflushed, so that CUPTI's next buffer request lands
    here and not in the timed region.
    """
    subscriber = collector.other_subscriber()
    rearmed = False
    if subscriber:
        hand_over(collector)
        return Claim(subscriber, rearmed)
    returned, earlier = _probe(collector, touch)
    if should_rearm(subscriber, earlier.foreign, returned):
        collector.rearm()
        rearmed = True
        returned, again = _probe(collector, touch)
        earlier = merge((earlier, again))
    touch()
    return Claim(before_run_reason(subscriber, earlier.foreign, returned), rearmed)


def hand_over(collector: CuptiCollector) -> None:
    """Give CUPTI's half-filled buffer back, so that another client's records go to its own.

    CUPTI fills the buffer it holds until a flush, whoever registered callbacks since: a
    profiler that attached after our last run would find its first records in a buffer we
    asked for, and drop them with it (torch.profiler logs "bufferCompleted called with
    unknown buffer"; on the H200 its trace then held none of the run's kernels). After a
    flush, CUPTI asks the profiler's callbacks for the next buffer.
    """
    collector.flush()
    collector.take()  # whatever was still ours: earlier runs, not wanted


def _probe(collector: CuptiCollector, touch: Callable[[], None]) -> tuple[bool, Delivery]:
    """Whether the probe copy came back, and everything handed over with and before it."""
    collector.flush()
    deliveries = [collector.take()]  # earlier runs and warm-ups; foreign records in it still count
    since = collector.timestamp()
    touch()
    for _ in range(FLUSH_ATTEMPTS):
        collector.flush()
        deliveries.append(collector.take())
        if probe_returned(deliveries[-1].devices, since, PROBE_BYTES):
            return True, merge(deliveries)
        time.sleep(FLUSH_WAIT_S)
    return False, merge(deliveries)


def collect_trace(
    collector: CuptiCollector,
    begin: int,
    plan: Sequence[PlannedOp],
    config: PipelineConfig,
    meta: TraceMeta,
    steps: Sequence[HostStep],
    side: SideTimes | None = None,
) -> Trace:
    """The trace of the run that began at `begin` (CUPTI's clock); `CuptiShared` if not its alone.

    `side` holds the times of the ops CUPTI does not report (host copies, prefetches).
    """
    deliveries: list[Delivery] = []
    reason = "CUPTI handed back nothing"
    for _ in range(FLUSH_ATTEMPTS):
        collector.flush()
        deliveries.append(collector.take())
        got = merge(deliveries)
        apis = [api for api in got.apis if api.start_ns >= begin]
        ops = run_device_records(got.devices, apis)
        reason = after_run_reason(cupti_ops(plan), ops, got.foreign)
        if not reason:
            try:
                return trace_from_cupti(plan, apis, got.devices, config, meta, host_steps=steps, side=side)
            except RecordMismatch as error:
                raise CuptiShared(f"CUPTI's records do not match this run's ops: {error}") from error
        if foreign_reason(got.foreign) or duplicated_ops(ops):
            break  # waiting brings more records, never fewer
        time.sleep(FLUSH_WAIT_S)
    raise CuptiShared(reason)

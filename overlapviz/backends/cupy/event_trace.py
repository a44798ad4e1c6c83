"""CUDA-event timings of one run -> a `Trace`, with queue time separated (pure).

The fallback when CUPTI cannot be used. Per op, an event recorded on its stream just
before it gives ``ready`` (the stream reached it) and one just after gives ``end``; host
clock readings around each issuing call give the host lane. Copy engines are FIFO, and so is
the compute unit when every kernel fills all SMs, so their ops' starts are rebuilt with
`replay_groups`. Kernels that leave room for others start when ready. A host copy (staging
ring) runs on the host thread: its ``ready``/``end`` are the host clock's, and it has no call.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from overlapviz.backends.cupy.cupti_records import HostStep
from overlapviz.backends.cupy.fifo_replay import replay_groups
from overlapviz.core.config.pipeline_plan import PlannedOp
from overlapviz.core.trace.meta import TraceMeta
from overlapviz.core.trace.spans import OpKind, Trace, TraceBuilder, Unit

CALL_NAMES = {
    OpKind.H2D: "cudaMemcpyAsync", OpKind.D2H: "cudaMemcpyAsync", OpKind.KERNEL: "cuLaunchKernel",
    OpKind.PREFETCH: "cudaMemPrefetchAsync",
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class EventTimes:
    """One run's readings, all in host-clock nanoseconds, index-aligned with the plan."""

    call_start: Sequence[int]
    call_end: Sequence[int]
    ready: Sequence[int]
    end: Sequence[int]
    sync_start: int
    sync_end: int


def fifo_groups(plan: Sequence[PlannedOp], kernels_fill_device: bool) -> list[list[int]]:
    """Rows that share one FIFO unit: each copy engine, and compute when kernels fill the GPU."""
    groups: dict[Unit, list[int]] = {}
    for op in plan:
        if op.on_host:
            continue  # the host thread's own copies: timed by its clock, one after another
        if op.unit is not Unit.COMPUTE or kernels_fill_device:
            groups.setdefault(op.unit, []).append(op.index)
    return list(groups.values())


def trace_from_events(
    plan: Sequence[PlannedOp],
    times: EventTimes,
    meta: TraceMeta,
    *,
    kernels_fill_device: bool,
    host_steps: Sequence[HostStep] = (),
    per_op_calls: bool = True,
) -> Trace:
    """The trace of one event-timed run (`host_steps`: host work that issued no op).

    Each op's unit, name, bytes and host memory are its plan's. `per_op_calls=False`: the
    ops were not issued one call each (a graph launch, which `host_steps` then holds).
    """
    groups = fifo_groups(plan, kernels_fill_device)
    start = replay_groups(groups, times.ready, times.end)
    builder = TraceBuilder()
    for op in plan:
        i = op.index
        builder.add(
            op.kind,
            op.unit,
            start[i],
            max(start[i], times.end[i]),
            name=op.name,
            stream=op.stream,
            chunk=op.chunk,
            enqueue_ns=times.call_start[i],
            ready_ns=min(times.ready[i], start[i]),
            nbytes=op.nbytes,
            memory=op.memory,
        )
    for op in plan if per_op_calls else ():
        if op.on_host:
            continue
        i = op.index
        builder.add(
            OpKind.API, Unit.HOST, times.call_start[i], times.call_end[i],
            name=CALL_NAMES[op.kind], chunk=op.chunk, op=i,
        )  # fmt: skip
    builder.add(OpKind.API, Unit.HOST, times.sync_start, times.sync_end, name="cudaDeviceSynchronize")
    for step in host_steps:
        builder.add(OpKind.API, Unit.HOST, step.start_ns, step.end_ns, name=step.name)
    return builder.build(replace(meta, timing="cuda-events"))

"""CUDA-event timings of one run -> a `Trace`, with queue time separated (pure).

The fallback when CUPTI cannot be used. Per op, an event recorded on its stream just
before it gives ``ready`` (the stream reached it) and one just after gives ``end``; host
clock readings around each issuing call give the host lane. Copy engines are FIFO, and so is
the compute unit when every kernel fills all SMs, so their ops' starts are rebuilt with
`replay_groups`. Kernels that leave room for others start when ready.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from overlapviz.backends.cupy.fifo_replay import replay_groups
from overlapviz.backends.cupy.plan import PlannedOp, unit_of
from overlapviz.backends.cupy.records import HostStep
from overlapviz.core.config import HostMemory, PipelineConfig
from overlapviz.core.trace import MemoryKind, OpKind, Trace, TraceBuilder, Unit

CALL_NAMES = {OpKind.H2D: "cudaMemcpyAsync", OpKind.D2H: "cudaMemcpyAsync", OpKind.KERNEL: "cuLaunchKernel"}
OP_NAMES = {OpKind.H2D: "memcpy HtoD", OpKind.D2H: "memcpy DtoH"}
_HOST_MEMORY = {
    HostMemory.PINNED: MemoryKind.PINNED,
    HostMemory.PAGEABLE: MemoryKind.PAGEABLE,
    HostMemory.REGISTERED: MemoryKind.REGISTERED,
}


@dataclass(frozen=True, slots=True)
class EventTimes:
    """One run's readings, all in host-clock nanoseconds, index-aligned with the plan."""

    call_start: Sequence[int]
    call_end: Sequence[int]
    ready: Sequence[int]
    end: Sequence[int]
    sync_start: int
    sync_end: int


def copy_memory(kind: OpKind, config: PipelineConfig) -> MemoryKind:
    """The host memory of a copy as configured (a fresh output buffer is pageable)."""
    if kind is OpKind.KERNEL:
        return MemoryKind.NONE
    if kind is OpKind.D2H and config.fresh_output:
        return MemoryKind.PAGEABLE
    return _HOST_MEMORY[config.memory]


def fifo_groups(plan: Sequence[PlannedOp], copy_engines: int, kernels_fill_device: bool) -> list[list[int]]:
    """Rows that share one FIFO unit: each copy engine, and compute when kernels fill the GPU."""
    groups: dict[Unit, list[int]] = {}
    for op in plan:
        unit = unit_of(op.kind, copy_engines)
        if unit is not Unit.COMPUTE or kernels_fill_device:
            groups.setdefault(unit, []).append(op.index)
    return list(groups.values())


def trace_from_events(
    plan: Sequence[PlannedOp],
    times: EventTimes,
    config: PipelineConfig,
    meta: dict[str, Any],
    *,
    kernel_name: str,
    kernels_fill_device: bool,
    host_steps: Sequence[HostStep] = (),
) -> Trace:
    """The trace of one event-timed run (`host_steps`: host work that issued no op)."""
    copy_engines = int(meta.get("device_facts", {}).get("copy_engines", 2))
    groups = fifo_groups(plan, copy_engines, kernels_fill_device)
    start = replay_groups(groups, times.ready, times.end)
    builder = TraceBuilder()
    for op in plan:
        i = op.index
        builder.add(
            op.kind,
            unit_of(op.kind, copy_engines),
            start[i],
            max(start[i], times.end[i]),
            name=OP_NAMES.get(op.kind, kernel_name),
            stream=op.stream,
            chunk=op.chunk,
            enqueue_ns=times.call_start[i],
            ready_ns=min(times.ready[i], start[i]),
            nbytes=config.chunk_bytes_of(op.chunk) if op.kind is not OpKind.KERNEL else 0,
            memory=copy_memory(op.kind, config),
        )
    for op in plan:
        i = op.index
        builder.add(
            OpKind.API, Unit.HOST, times.call_start[i], times.call_end[i],
            name=CALL_NAMES[op.kind], chunk=op.chunk, op=i,
        )  # fmt: skip
    builder.add(OpKind.API, Unit.HOST, times.sync_start, times.sync_end, name="cudaDeviceSynchronize")
    for step in host_steps:
        builder.add(OpKind.API, Unit.HOST, step.start_ns, step.end_ns, name=step.name)
    return builder.build({**meta, "timing": "cuda-events"})

"""The one call (or host copy) each op of the plan consists of, for every kind of host memory.

- H2D / D2H: ``cudaMemcpyAsync`` between the device buffer and the host buffer, or the
  chunk's staging slot when the data is staged;
- kernel: ``cuLaunchKernel`` on the device buffer, or in place on host memory the kernel
  reaches itself (mapped memory's device address, managed memory);
- prefetch: ``cudaMemPrefetchAsync`` of the chunk's managed pages, to the device or back;
- host copy: the host thread's memcpy into or out of a staging slot, timed on the run's clock.

An op the plan says the host waits for (`PlannedOp.waits_for`) gets an event recorded right
after it on its stream; the op that waits synchronises on that event first, timed as a wait.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from overlapviz.backends.cupy.cupti_records import HostStep
from overlapviz.backends.cupy.plan import ChunkSlice
from overlapviz.backends.cupy.prefetch import Prefetch
from overlapviz.backends.cupy.side_times import WAIT_NAME, SideTimes, Span
from overlapviz.backends.cupy.staging_ring import FloatArray, StagingRing
from overlapviz.core.config.pipeline_plan import RING_IN, PlannedOp
from overlapviz.core.trace.spans import OpKind

H2D, D2H = 1, 2  # cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost
Clock = Callable[[], int]
IssueOne = Callable[[PlannedOp], None]


@dataclass
class Targets:
    """Where one run's ops read and write: everything `issuer` needs, fixed before the run."""

    streams: list[Any]  # cupy.cuda.Stream per stream index
    stream_ptrs: list[int]
    dev_ptrs: list[int]  # per chunk: the device buffer, or the host memory the kernel reaches
    in_ptrs: list[int]  # per chunk: the host input of its H2D (empty without copies)
    out_ptrs: list[int]  # per chunk: the host output of its D2H
    nbytes: list[int]  # per chunk
    slices: list[ChunkSlice]
    kernel: Any
    grids: list[tuple[int]]
    block: tuple[int]
    args: list[tuple[Any, ...]]
    ring: StagingRing | None = None
    host_in: FloatArray | None = None  # the pageable data a ring stages
    host_out: FloatArray | None = None
    to_device: Prefetch | None = None
    to_host: Prefetch | None = None
    done: dict[int, Any] | None = None  # plan row -> the event recorded after it (rows some op waits for)


def issuer(targets: Targets, side: SideTimes, clock: Clock) -> IssueOne:
    """A function that issues (or, for a host copy, does) one op, recording host copies' times in `side`."""
    import cupy

    memcpy = cupy.cuda.runtime.memcpyAsync
    t, done = targets, targets.done or {}

    def copy_in(op: PlannedOp) -> None:
        source = t.in_ptrs[op.chunk] if t.ring is None else t.ring.input_pointer(op.slot)
        memcpy(t.dev_ptrs[op.chunk], source, t.nbytes[op.chunk], H2D, t.stream_ptrs[op.stream])

    def copy_out(op: PlannedOp) -> None:
        dest = t.out_ptrs[op.chunk] if t.ring is None else t.ring.output_pointer(op.slot)
        memcpy(dest, t.dev_ptrs[op.chunk], t.nbytes[op.chunk], D2H, t.stream_ptrs[op.stream])

    def launch(op: PlannedOp) -> None:
        c = op.chunk
        t.kernel(t.grids[c], t.block, t.args[c], stream=t.streams[op.stream])

    def prefetch(op: PlannedOp) -> None:
        move = t.to_device if op.stage.direction is OpKind.H2D else t.to_host
        assert move is not None, "a prefetch needs managed memory's prefetchers"
        move(t.dev_ptrs[op.chunk], t.nbytes[op.chunk], t.stream_ptrs[op.stream])

    host_copy = _host_copier(t, done, side, clock)

    by_kind: dict[OpKind, IssueOne] = {
        OpKind.H2D: copy_in, OpKind.KERNEL: launch, OpKind.D2H: copy_out,
        OpKind.PREFETCH: prefetch, OpKind.HOST_COPY: host_copy,
    }  # fmt: skip

    def issue_one(op: PlannedOp) -> None:
        by_kind[op.kind](op)
        event = done.get(op.index)
        if event is not None:
            event.record(t.streams[op.stream])

    return issue_one


def _host_copier(t: Targets, done: dict[int, Any], side: SideTimes, clock: Clock) -> IssueOne:
    """The host thread's copy into or out of a ring slot, first waiting on the event of the op it waits for."""

    def host_copy(op: PlannedOp) -> None:
        ring = t.ring
        assert ring is not None and t.host_in is not None and t.host_out is not None, "a host copy needs the ring"
        if op.waits_for >= 0:
            waited = clock()
            done[op.waits_for].synchronize()
            side.waits.append(HostStep(WAIT_NAME, waited, clock()))
        start = clock()
        if op.stage == RING_IN:
            ring.copy_in(op.chunk, op.slot, t.slices[op.chunk], t.host_in)
        else:
            ring.copy_out(op.chunk, op.slot, t.slices[op.chunk], t.host_out)
        end = clock()
        side.host[op.index] = Span(start, start, end)

    return host_copy

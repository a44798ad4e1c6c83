"""Copy bandwidth by transfer size, per host-memory kind and direction.

One ``cudaMemcpyAsync`` at a time on an idle stream, timed with an event pair (nothing else
queues on the engine, so the pair measures the copy itself), plus how long the call blocked
the host thread. The median of a few repeats is kept. The buffers are sized for the largest
transfer once and dropped afterwards, so the sweep leaves nothing pinned.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from overlapviz.backends.base import SWEEP_SIZES
from overlapviz.backends.cupy.buffers import BufferPool
from overlapviz.backends.cupy.kernels import Kernels
from overlapviz.core.config import COPY_KINDS_TEXT, COPY_MEMORIES, FLOAT32_BYTES, HostMemory
from overlapviz.core.config.pipeline_plan import THREADS_PER_BLOCK, fma_blocks

_KIND = {"h2d": 1, "d2h": 2}
# Every kind a copy can come from, in the enum's order (mapped and managed memory have no
# copies of their own, a staging ring's copies are pinned ones).
SWEEP_MEMORIES = tuple(memory for memory in HostMemory if memory in COPY_MEMORIES)


@dataclass(frozen=True, slots=True)
class CopyTiming:
    """One size, memory kind and direction."""

    memory: str
    direction: str  # "h2d" or "d2h"
    size_bytes: int
    ms: float  # device time of the copy (events)
    gbps: float  # 1e9 bytes per second
    call_ms: float  # how long cudaMemcpyAsync kept the host thread

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return asdict(self)


def gbps(nbytes: int, ms: float) -> float:
    """Bytes over milliseconds, in GB/s (1e9 bytes per second)."""
    return nbytes / (ms * 1e6) if ms > 0 else float("nan")


def sweep(
    pool: BufferPool,
    stream: Any,
    sizes: Sequence[int] = SWEEP_SIZES,
    memories: Sequence[HostMemory] = SWEEP_MEMORIES,
    repeats: int = 3,
) -> list[CopyTiming]:
    """Time H2D and D2H copies of every size for every memory kind given (copy kinds only)."""
    refuse_non_copies(memories)
    import cupy

    largest = max(sizes) // FLOAT32_BYTES
    device = pool.device("sweep", largest)
    start, end = cupy.cuda.Event(), cupy.cuda.Event()
    points = []
    try:
        for memory in memories:
            host = pool.host(memory, "sweep", largest)
            for size in sizes:
                for direction, kind in _KIND.items():
                    dst, src = (device.data.ptr, host.pointer) if kind == 1 else (host.pointer, device.data.ptr)
                    times = [_one_copy(cupy, stream, start, end, dst, src, size, kind) for _ in range(repeats + 1)][1:]
                    ms = statistics.median(t[0] for t in times)
                    call_ms = statistics.median(t[1] for t in times)
                    points.append(CopyTiming(memory.value, direction, size, ms, gbps(size, ms), call_ms))
    finally:
        cupy.cuda.runtime.deviceSynchronize()
        pool.drop("sweep")
    return points


def refuse_non_copies(memories: Sequence[HostMemory]) -> None:
    """ValueError naming the kinds given that a copy cannot come from (mapped, managed, staged)."""
    not_copies = [memory.value for memory in memories if memory not in COPY_MEMORIES]
    if not_copies:
        named = ", ".join(not_copies)
        raise ValueError(f"{named} memory has no copies of its own to measure; copy kinds: {COPY_KINDS_TEXT}")


def _one_copy(
    cupy: Any, stream: Any, start: Any, end: Any, dst: int, src: int, size: int, kind: int
) -> tuple[float, float]:
    stream.synchronize()
    start.record(stream)
    before = time.perf_counter_ns()
    cupy.cuda.runtime.memcpyAsync(dst, src, size, kind, stream.ptr)
    call_ms = (time.perf_counter_ns() - before) / 1e6
    end.record(stream)
    end.synchronize()
    return float(cupy.cuda.get_elapsed_time(start, end)), call_ms


def device_copy_gbps(
    pool: BufferPool, kernels: Kernels, sm_count: int, nbytes: int = 1 << 30, repeats: int = 5
) -> float:
    """Device memory bandwidth of the memory-bound kernel (bytes read + written per second)."""
    import cupy
    import numpy as np

    n = nbytes // FLOAT32_BYTES
    src, dst = pool.device("copy_src", n), pool.device("copy_dst", n)
    stream = cupy.cuda.Stream(non_blocking=True)
    start, end = cupy.cuda.Event(), cupy.cuda.Event()
    grid = (fma_blocks(n, sm_count),)
    args = (src, dst, np.uint64(n), np.float32(2.0))
    times = []
    try:
        for _ in range(repeats + 1):
            start.record(stream)
            kernels.scale_copy(grid, (THREADS_PER_BLOCK,), args, stream=stream)
            end.record(stream)
            end.synchronize()
            times.append(float(cupy.cuda.get_elapsed_time(start, end)))
    finally:
        pool.drop_device("copy_src", "copy_dst")
    return gbps(2 * nbytes, statistics.median(times[1:]))


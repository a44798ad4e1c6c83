"""Measures this machine's GPU for ``overlapviz calibrate`` (needs CuPy and a GPU).

Every step is one short measurement, timed with CUDA events on the device and the host's
clock around calls, and reports its progress; all of them take seconds on an H200 (pinning
the 1 GiB sweep buffer is the longest part). What the numbers become is
`overlapviz.backends.calibration`'s. Every buffer comes from one pool and is freed at the
end, also when a step fails; errors become `BackendError`s with words.
"""

from __future__ import annotations

import datetime
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from overlapviz.backends.base import SWEEP_SIZES
from overlapviz.backends.calibration import CopyTime, KernelTime, Measurements, pageable_copy_seconds
from overlapviz.backends.cupy.bandwidth import device_copy_gbps, sweep
from overlapviz.backends.cupy.buffers import BufferPool
from overlapviz.backends.cupy.device_facts import device_facts, facts_from_properties
from overlapviz.backends.cupy.failures import describe_error, releasing_on_error
from overlapviz.backends.cupy.kernels import Kernels, load_kernels
from overlapviz.backends.cupy.ram_guard import pin_share, total_ram
from overlapviz.core.config import FLOAT32_BYTES, MIB, HostMemory, KernelKind, PipelineConfig
from overlapviz.core.config.pipeline_plan import THREADS_PER_BLOCK, fma_blocks, sincos_blocks
from overlapviz.core.run_errors import BackendError

Progress = Callable[[float, str], None]  # (share done, 0 to 1; the step starting)
H2D, D2H = 1, 2
REPEATS = 3  # timed repeats per point, after one untimed; the median is kept
BUFFER_ELEMENTS = 256 * MIB // FLOAT32_BYTES  # the default pipeline's 256 MiB
CHUNK_ELEMENTS = 16 * MIB // FLOAT32_BYTES  # one of its 16 chunks
FMA_ITERS = (256, 1024, 1860, 4000)  # where arithmetic, not memory, bounds the kernel on current GPUs
CHAIN_ITERS = (50_000, 200_000)  # one block: long enough that launch costs vanish in the slope
CALLS = 200  # host calls timed one by one
BOTH_WAYS_BYTES = 256 * MIB
FIRST_TOUCH_BYTES = 256 * MIB


def gpu_names() -> list[str]:
    """The names of this machine's CUDA devices, by index ([] with no driver or no device)."""
    try:
        import cupy

        runtime = cupy.cuda.runtime
        count = int(runtime.getDeviceCount())
        return [str(facts_from_properties(runtime.getDeviceProperties(i))["name"]) for i in range(count)]
    except Exception:  # no driver, no device, a broken install: nothing to measure
        return []


def measure(index: int = 0, progress: Progress | None = None) -> Measurements:
    """Measure CUDA device `index`; `progress` hears the share done before each step."""
    import cupy

    report = progress or (lambda share, step: None)
    try:
        with cupy.cuda.Device(index):
            report(0.0, "reading the device")
            facts = device_facts(index)
            kernels = load_kernels()
            pool = BufferPool(pin_share(None))
            with releasing_on_error(pool, "calibrating"):
                try:
                    return _measure(cupy, index, facts, kernels, pool, report)
                finally:
                    cupy.cuda.runtime.deviceSynchronize()
                    pool.release_all()
    except BackendError:
        raise
    except Exception as error:  # before the pool exists: no device, a broken driver
        raise BackendError(f"the GPU could not be measured: {describe_error(error)}") from error


def _measure(
    cupy: Any, index: int, facts: dict[str, Any], kernels: Kernels, pool: BufferPool, report: Progress
) -> Measurements:
    stream = cupy.cuda.Stream(non_blocking=True)
    sm_count = int(facts["sm_count"])
    report(0.02, "pinned copies by size")
    copies = _copies(pool, stream, HostMemory.PINNED)
    report(0.15, "pageable copies by size")
    copies += _copies(pool, stream, HostMemory.PAGEABLE)
    report(0.4, "the default pipeline from pageable memory")
    pageable = _pageable_pipeline(index)
    report(0.55, "both directions at once")
    both = _both_ways(cupy, pool)
    report(0.6, "the FMA kernel")
    data = pool.device("data", BUFFER_ELEMENTS)
    data.fill(1.0)
    fma = [KernelTime(BUFFER_ELEMENTS, k, _kernel_seconds(cupy, kernels, stream, data, k, sm_count)) for k in FMA_ITERS]
    empty = _empty_kernel_seconds(cupy, kernels, stream, data, data[:CHUNK_ELEMENTS], sm_count)
    one_block = data[:THREADS_PER_BLOCK]
    chain = [KernelTime(THREADS_PER_BLOCK, k, _kernel_seconds(cupy, kernels, stream, one_block, k, sm_count))
             for k in CHAIN_ITERS]  # fmt: skip
    sincos = KernelTime(BUFFER_ELEMENTS, 0, _sincos_seconds(cupy, kernels, stream, data))
    pool.drop_device("data")
    report(0.75, "device memory")
    memory_gbps = device_copy_gbps(pool, kernels, sm_count)
    report(0.85, "the host's first touch")
    touch = _first_touch_seconds()
    report(0.9, "host time per call")
    collector = _tracing()
    chunk = pool.device("calls", CHUNK_ELEMENTS)
    memcpy_calls = _memcpy_calls(cupy, pool, stream, chunk)
    launch_calls = _launch_calls(kernels, stream, chunk, sm_count)
    if collector is not None:
        collector.flush()
        collector.take()  # the records of these calls: not wanted
    report(1.0, "done")
    return Measurements(
        gpu_name=str(facts["name"]), date=datetime.date.today().isoformat(), facts=facts, copies=copies,
        pageable_chunks_bytes=BUFFER_ELEMENTS * FLOAT32_BYTES, pageable_chunk_bytes=CHUNK_ELEMENTS * FLOAT32_BYTES,
        pageable_chunks_seconds=pageable, both_ways_bytes=BOTH_WAYS_BYTES, both_ways_seconds=both,
        memcpy_call_seconds=memcpy_calls, launch_call_seconds=launch_calls, calls_traced=collector is not None,
        empty_kernel_seconds=empty, fma=fma, chain=chain, sincos=sincos,
        kernel_memory_gbps=memory_gbps, first_touch_bytes=FIRST_TOUCH_BYTES, first_touch_seconds=touch,
        host_ram_bytes=total_ram(),
    )  # fmt: skip


def _tracing() -> Any:
    """CUPTI's collector, tracing, when this process may use it (None otherwise).

    The real backend's runs are traced by CUPTI, which adds to the host time of every call;
    the calls are timed the same way, so that the model's host costs are those of its runs.
    """
    from overlapviz.backends.cupy.cupti_session import CuptiUnavailable, shared_collector

    try:
        collector = shared_collector()
    except CuptiUnavailable:
        return None
    return None if collector.other_subscriber() else collector


def _pageable_pipeline(index: int) -> dict[str, float]:
    """Seconds each direction's pageable copies held the host in a run of the default pageable pipeline.

    Pageable copies are staged by the driver, so their speed depends on how the pages stream
    from the host's memory while kernels and the other direction run: copies of one buffer
    repeated, or issued without the kernels, came out 20-30% faster on an H200 than the
    pipeline's own. So the real pipeline runs (once untimed, then `REPEATS` times) and each
    copy counts from the moment it could begin (its call started and its stream reached it)
    to the moment its call returned: what the model charges a pageable copy.
    """
    from overlapviz.backends.cupy.backend import DEVICE_PREFIX, CupyBackend

    backend, device = CupyBackend(), f"{DEVICE_PREFIX}{index}"
    config = PipelineConfig(memory=HostMemory.PAGEABLE)
    try:
        backend.run(config, device)
        runs = [pageable_copy_seconds(backend.run(config, device)) for _ in range(REPEATS)]
    finally:
        backend.close()
    return {direction: statistics.median(run[direction] for run in runs) for direction in ("h2d", "d2h")}


def _copies(pool: BufferPool, stream: Any, memory: HostMemory) -> list[CopyTime]:
    return [
        CopyTime(p.memory, p.direction, p.size_bytes, p.ms / 1e3, p.call_ms / 1e3)
        for p in sweep(pool, stream, SWEEP_SIZES, (memory,), REPEATS)
    ]


def _median_of_repeats(once: Callable[[], float]) -> float:
    once()  # untimed: first use of the buffers and the engines
    return statistics.median(once() for _ in range(REPEATS))


def _both_ways(cupy: Any, pool: BufferPool) -> float:
    """Seconds from the first start to the last end of one H2D and one D2H issued together."""
    n = BOTH_WAYS_BYTES // FLOAT32_BYTES
    host_in, host_out = pool.host(HostMemory.PINNED, "both_in", n), pool.host(HostMemory.PINNED, "both_out", n)
    dev_in, dev_out = pool.device("both_in", n), pool.device("both_out", n)
    up, down = cupy.cuda.Stream(non_blocking=True), cupy.cuda.Stream(non_blocking=True)
    events = [cupy.cuda.Event() for _ in range(4)]
    memcpy, elapsed = cupy.cuda.runtime.memcpyAsync, cupy.cuda.get_elapsed_time

    def once() -> float:
        cupy.cuda.runtime.deviceSynchronize()
        events[0].record(up)
        events[1].record(down)
        memcpy(dev_in.data.ptr, host_in.pointer, BOTH_WAYS_BYTES, H2D, up.ptr)
        memcpy(host_out.pointer, dev_out.data.ptr, BOTH_WAYS_BYTES, D2H, down.ptr)
        events[2].record(up)
        events[3].record(down)
        cupy.cuda.runtime.deviceSynchronize()
        first = min(0.0, elapsed(events[0], events[1]))
        return (max(elapsed(events[0], events[2]), elapsed(events[0], events[3])) - first) / 1e3

    try:
        return _median_of_repeats(once)
    finally:
        pool.drop("both_in")
        pool.drop("both_out")


def _memcpy_calls(cupy: Any, pool: BufferPool, stream: Any, chunk: Any) -> list[float]:
    """Host seconds inside each cudaMemcpyAsync of pinned memory, H2D and D2H in turn."""
    host = pool.host(HostMemory.PINNED, "calls", chunk.size)
    memcpy, clock, nbytes = cupy.cuda.runtime.memcpyAsync, time.perf_counter_ns, chunk.size * FLOAT32_BYTES
    times = []
    for call in range(CALLS + 1):
        dst, src, kind = (chunk.data.ptr, host.pointer, H2D) if call % 2 else (host.pointer, chunk.data.ptr, D2H)
        before = clock()
        memcpy(dst, src, nbytes, kind, stream.ptr)
        times.append((clock() - before) / 1e9)
    stream.synchronize()
    pool.drop("calls")
    return times[1:]


def _fma(kernels: Kernels) -> Any:
    """The FMA kernel's loaded function, as the pipeline launches it (no look-up per call)."""
    return kernels.chunk[KernelKind.FMA].kernel


def _fma_args(data: Any, iters: int) -> tuple[Any, ...]:
    return (data, np.uint64(data.size), np.int32(iters))  # the C signature in pipeline.cu


def _launch_calls(kernels: Kernels, stream: Any, chunk: Any, sm_count: int) -> list[float]:
    """Host seconds inside each launch of the FMA kernel, called as the pipeline calls it."""
    kernel, grid, args = _fma(kernels), (fma_blocks(chunk.size, sm_count),), _fma_args(chunk, 0)
    times = []
    for _ in range(CALLS + 1):
        before = time.perf_counter_ns()
        kernel(grid, (THREADS_PER_BLOCK,), args, stream=stream)
        times.append((time.perf_counter_ns() - before) / 1e9)
    stream.synchronize()
    return times[1:]


def _event_seconds(cupy: Any, stream: Any, work: Callable[[], None]) -> float:
    start, end = cupy.cuda.Event(), cupy.cuda.Event()
    start.record(stream)
    work()
    end.record(stream)
    end.synchronize()
    return float(cupy.cuda.get_elapsed_time(start, end)) / 1e3


def _kernel_seconds(cupy: Any, kernels: Kernels, stream: Any, data: Any, iters: int, sm_count: int) -> float:
    kernel, grid, args = _fma(kernels), (fma_blocks(data.size, sm_count),), _fma_args(data, iters)

    def once() -> float:
        return _event_seconds(cupy, stream, lambda: kernel(grid, (THREADS_PER_BLOCK,), args, stream=stream))

    return _median_of_repeats(once)


def _empty_kernel_seconds(cupy: Any, kernels: Kernels, stream: Any, data: Any, chunk: Any, sm_count: int) -> float:
    """Device seconds per iters = 0 kernel, in a row of them queued behind a long kernel.

    Issuing one takes the host longer than running it, so the row is queued while a long
    kernel holds the stream, and then runs back to back.
    """
    kernel, blocker, block = _fma(kernels), (fma_blocks(data.size, sm_count),), (THREADS_PER_BLOCK,)
    grid, args = (fma_blocks(chunk.size, sm_count),), _fma_args(chunk, 0)
    start, end = cupy.cuda.Event(), cupy.cuda.Event()
    kernel(blocker, block, _fma_args(data, FMA_ITERS[-1]), stream=stream)
    start.record(stream)
    for _ in range(CALLS):
        kernel(grid, block, args, stream=stream)
    end.record(stream)
    if start.done:  # the host was slower than the long kernel: the row had gaps
        raise BackendError("the empty kernels could not be queued faster than the GPU ran them")
    end.synchronize()
    return float(cupy.cuda.get_elapsed_time(start, end)) / 1e3 / CALLS


def _sincos_seconds(cupy: Any, kernels: Kernels, stream: Any, data: Any) -> float:
    kernel = kernels.chunk[KernelKind.SINCOS].kernel
    grid, args = (sincos_blocks(data.size),), (data, np.uint64(data.size), np.uint64(0))

    def once() -> float:
        return _event_seconds(cupy, stream, lambda: kernel(grid, (THREADS_PER_BLOCK,), args, stream=stream))

    return _median_of_repeats(once)


def _first_touch_seconds() -> float:
    """Seconds for the host's first write to fresh pageable memory (the OS hands pages over)."""

    def once() -> float:
        fresh = np.empty(FIRST_TOUCH_BYTES // FLOAT32_BYTES, dtype=np.float32)
        before = time.perf_counter_ns()
        fresh.fill(0.0)
        return (time.perf_counter_ns() - before) / 1e9

    return _median_of_repeats(once)

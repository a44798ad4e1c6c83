"""GPU pieces of the host-memory benchmark: allocations, timers and the pipeline's ops.

Nothing here imports CuPy at import time: `open_gpu` does. Every allocation goes through
`Allocations`, which frees all of it (after a device synchronise) when its block ends, error
or not. Copies and kernels are timed with CUDA events on an otherwise idle stream, as
``overlapviz.backends.cupy.bandwidth`` does; host work with ``time.perf_counter_ns``.
"""

from __future__ import annotations

import ctypes
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from overlapviz.backends.cupy.kernels import kernel_args, load_kernels
from overlapviz.backends.cupy.plan import chunk_slices
from overlapviz.core.config import FLOAT32_BYTES, KernelKind, PipelineConfig, format_size
from overlapviz.core.config.pipeline_plan import THREADS_PER_BLOCK, fma_blocks, kernel_blocks, pipeline_plan
from overlapviz.core.trace.spans import OpKind

# CUDA runtime values (driver_types.h); CuPy exposes some under other names, these never change.
HOST_ALLOC_DEFAULT = 0  # cudaHostAllocDefault: what cudaMallocHost does
HOST_ALLOC_MAPPED = 2  # cudaHostAllocMapped
HOST_ALLOC_WRITE_COMBINED = 4  # cudaHostAllocWriteCombined
MEM_ATTACH_GLOBAL = 1  # cudaMemAttachGlobal
CPU_DEVICE_ID = -1  # cudaCpuDeviceId, and CU_DEVICE_CPU of the driver API
H2D, D2H = 1, 2  # cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost

FloatArray = npt.NDArray[np.float32]
Issue = Callable[[], None]


def median(values: Sequence[float]) -> float:
    return float(statistics.median(values))


def gbps(nbytes: int, ms: float) -> float | None:
    """Bytes over milliseconds, in GB/s (1e9 bytes per second)."""
    return round(nbytes / (ms * 1e6), 3) if ms > 0 else None


def pipeline_shape(config: PipelineConfig) -> str:
    """The pipeline's size, streams, chunks, order and kernel (its host memory is the row's own)."""
    return (
        f"{format_size(config.size_bytes)}, {config.streams} streams x {config.chunks} chunks,"
        f" {config.order.value}, {config.kernel.value} x{config.iters}"
    )


def host_view(address: int, nbytes: int) -> FloatArray:
    """A float32 numpy view of host memory at `address` (valid while the memory is)."""
    buffer = (ctypes.c_char * nbytes).from_address(address)
    return np.frombuffer(memoryview(buffer), dtype=np.float32)


@dataclass
class Gpu:
    """CuPy, the device's facts, the compiled kernels and reusable streams and events."""

    cupy: Any
    sm_count: int
    kernels: Any
    facts: dict[str, Any]
    streams: list[Any] = field(default_factory=list)

    @property
    def runtime(self) -> Any:
        return self.cupy.cuda.runtime

    def new_streams(self, count: int) -> list[Any]:
        """`count` fresh non-blocking streams (never the legacy one, which serialises)."""
        return [self.cupy.cuda.Stream(non_blocking=True) for _ in range(count)]

    def event(self) -> Any:
        return self.cupy.cuda.Event()

    def pointer(self, address: int, nbytes: int) -> Any:
        """A kernel argument for device-visible memory CuPy did not allocate."""
        memory = self.cupy.cuda.UnownedMemory(address, nbytes, None, 0)  # device 0: no look-up
        return self.cupy.cuda.MemoryPointer(memory, 0)

    def elapsed_ms(self, start: Any, end: Any) -> float:
        return float(self.cupy.cuda.get_elapsed_time(start, end))


def open_gpu() -> Gpu:
    """Import CuPy, select device 0, compile pipeline.cu and launch each kernel once."""
    import cupy

    cupy.cuda.Device(0).use()
    runtime = cupy.cuda.runtime
    props = runtime.getDeviceProperties(0)
    facts = {
        "name": props["name"].decode(),
        "sm_count": int(props["multiProcessorCount"]),
        "can_map_host_memory": int(props.get("canMapHostMemory", -1)),
        "unified_addressing": int(props.get("unifiedAddressing", -1)),
        "concurrent_managed_access": int(props.get("concurrentManagedAccess", -1)),
        "pageable_memory_access": int(props.get("pageableMemoryAccess", -1)),
        "async_engine_count": int(props.get("asyncEngineCount", -1)),
        "pci_bus_id": props.get("pciBusID"),
        "runtime_version": runtime.runtimeGetVersion(),
        "driver_version": runtime.driverGetVersion(),
        "cupy": cupy.__version__,
        "numpy": np.__version__,
    }
    gpu = Gpu(cupy, facts["sm_count"], load_kernels(), facts)
    gpu.streams = gpu.new_streams(PipelineConfig().streams)
    with Allocations(gpu) as memory:  # load the module now, not inside the first timed launch
        data = gpu.pointer(memory.device(1024 * FLOAT32_BYTES), 1024 * FLOAT32_BYTES)
        gpu.kernels.chunk[KernelKind.FMA]((1,), (THREADS_PER_BLOCK,), (data, np.uint64(1024), np.int32(1)))
        gpu.kernels.scale_copy((1,), (THREADS_PER_BLOCK,), (data, data, np.uint64(1024), np.float32(1.0)))
    return gpu


class Allocations:
    """Every buffer of one measurement; all freed when the block ends (after a synchronise)."""

    def __init__(self, gpu: Gpu) -> None:
        self.gpu = gpu
        self._frees: list[Callable[[], None]] = []
        self._arrays: list[FloatArray] = []
        self.pinned_bytes = 0

    def __enter__(self) -> Allocations:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Synchronise, then free in reverse order; every free is tried, the first error raised."""
        errors: list[Exception] = []
        try:
            self.gpu.runtime.deviceSynchronize()
        except Exception as error:  # still free what can be freed
            errors.append(error)
        while self._frees:
            try:
                self._frees.pop()()
            except Exception as error:
                errors.append(error)
        self._arrays.clear()
        if errors:
            raise errors[0]

    def host(self, nbytes: int, flags: int = HOST_ALLOC_DEFAULT) -> int:
        """``cudaHostAlloc(nbytes, flags)``, zero-filled (so every page is touched); its address."""
        runtime = self.gpu.runtime
        address = int(runtime.hostAlloc(nbytes, flags))
        self._frees.append(lambda: runtime.freeHost(address))
        self.pinned_bytes += nbytes
        host_view(address, nbytes).fill(0.0)
        return address

    def device(self, nbytes: int) -> int:
        runtime = self.gpu.runtime
        address = int(runtime.malloc(nbytes))
        self._frees.append(lambda: runtime.free(address))
        return address

    def managed(self, nbytes: int) -> int:
        """``cudaMallocManaged(nbytes, cudaMemAttachGlobal)``: no page exists until first touched."""
        runtime = self.gpu.runtime
        address = int(runtime.mallocManaged(nbytes, MEM_ATTACH_GLOBAL))
        self._frees.append(lambda: runtime.free(address))
        return address

    def pageable(self, nbytes: int) -> FloatArray:
        """A numpy buffer, touched so that no copy pays its page faults."""
        array = np.zeros(nbytes // FLOAT32_BYTES, dtype=np.float32)
        array.fill(0.0)
        self._arrays.append(array)
        return array


def mapped_device_pointer(gpu: Gpu, address: int) -> int:
    """The device address of mapped host memory, as ``cudaHostGetDevicePointer`` gives it.

    CuPy has no ``hostGetDevicePointer``; ``cudaPointerGetAttributes`` reports the same
    pointer. A null one is refused here: a kernel handed it would fault, and that error
    would end every later measurement of the process.
    """
    pointer = int(gpu.runtime.pointerGetAttributes(address).devicePointer)
    if pointer == 0:
        raise RuntimeError(f"host memory at {address:#x} has no device address: it is not mapped")
    return pointer


def event_times(gpu: Gpu, stream: Any, issue: Issue, repeats: int, warm_ups: int = 1) -> list[float]:
    """Device ms of `issue` between two events on an idle stream; the warm-ups are dropped."""
    start, end = gpu.event(), gpu.event()
    times = []
    for _ in range(warm_ups + repeats):
        stream.synchronize()
        start.record(stream)
        issue()
        end.record(stream)
        end.synchronize()
        times.append(gpu.elapsed_ms(start, end))
    return times[warm_ups:]


def host_times(work: Issue, repeats: int, warm_ups: int = 1) -> list[float]:
    """Host ms of `work`, per repeat; the warm-ups are dropped."""
    times = []
    for _ in range(warm_ups + repeats):
        begin = time.perf_counter_ns()
        work()
        times.append((time.perf_counter_ns() - begin) / 1e6)
    return times[warm_ups:]


def fma_launch(gpu: Gpu, address: int, elements: int, iters: int) -> Callable[[Any], None]:
    """A launcher of the pipeline's kernel, in place on `elements` floats at `address`."""
    args = (gpu.pointer(address, elements * FLOAT32_BYTES), np.uint64(elements), np.int32(iters))
    grid = (fma_blocks(elements, gpu.sm_count),)
    kernel = gpu.kernels.chunk[KernelKind.FMA]

    def launch(stream: Any) -> None:
        kernel(grid, (THREADS_PER_BLOCK,), args, stream=stream)

    return launch


def copy_launch(gpu: Gpu, src: int, dst: int, elements: int) -> Callable[[Any], None]:
    """A launcher of ``scale_copy``: reads `elements` floats at `src`, writes them at `dst`."""
    nbytes = elements * FLOAT32_BYTES
    args = (gpu.pointer(src, nbytes), gpu.pointer(dst, nbytes), np.uint64(elements), np.float32(1.0))
    grid = (fma_blocks(elements, gpu.sm_count),)

    def launch(stream: Any) -> None:
        gpu.kernels.scale_copy(grid, (THREADS_PER_BLOCK,), args, stream=stream)

    return launch


ChunkOp = Callable[[int, Any], None]  # (chunk, stream) -> issues one op of that chunk


@dataclass
class PipelineOps:
    """What each stage of a chunk does; a stage left None is not issued (zero-copy, managed)."""

    h2d: ChunkOp | None
    kernel: ChunkOp
    d2h: ChunkOp | None


def chunk_kernel(gpu: Gpu, config: PipelineConfig, base: int) -> ChunkOp:
    """The pipeline's kernel on each chunk of the buffer at device address `base`."""
    kernel = gpu.kernels.chunk[config.kernel]
    slices = chunk_slices(config)
    args = [kernel_args(config, c, gpu.pointer(base + s.byte_offset, s.nbytes)) for c, s in enumerate(slices)]
    grids = [(kernel_blocks(config, gpu.sm_count, c),) for c in range(config.chunks)]

    def launch(chunk: int, stream: Any) -> None:
        kernel(grids[chunk], (THREADS_PER_BLOCK,), args[chunk], stream=stream)

    return launch


def chunk_copy(gpu: Gpu, config: PipelineConfig, dst: int, src: int, kind: int) -> ChunkOp:
    """``cudaMemcpyAsync`` of each chunk from `src` to `dst` (whole-buffer base addresses)."""
    memcpy = gpu.runtime.memcpyAsync
    slices = chunk_slices(config)

    def copy(chunk: int, stream: Any) -> None:
        s = slices[chunk]
        memcpy(dst + s.byte_offset, src + s.byte_offset, s.nbytes, kind, stream.ptr)

    return copy


def issue_list(config: PipelineConfig, streams: Sequence[Any], ops: PipelineOps) -> list[Issue]:
    """Every op of the pipeline, in the backend's issue order, bound to its chunk and stream."""
    stage = {OpKind.H2D: ops.h2d, OpKind.KERNEL: ops.kernel, OpKind.D2H: ops.d2h}
    bound = []
    # only the order, chunks and streams are used here: the engine count and SMs change neither
    for planned in pipeline_plan(config, copy_engines=2, sm_count=1).ops():
        op = stage[planned.kind]
        if op is not None:
            bound.append(_bind(op, planned.chunk, streams[planned.stream]))
    return bound


def _bind(op: ChunkOp, chunk: int, stream: Any) -> Issue:
    return lambda: op(chunk, stream)


def issue_all(issues: Sequence[Issue]) -> Issue:
    def run() -> None:
        for issue in issues:
            issue()

    return run


Prefetch = Callable[[int, int, Any], None]  # (address, bytes, stream)


def prefetch_to_device(gpu: Gpu) -> Prefetch:
    """``cudaMemPrefetchAsync`` to device 0 on a stream (CuPy's call; a device target works in every build)."""

    def prefetch(address: int, nbytes: int, stream: Any) -> None:
        gpu.runtime.memPrefetchAsync(address, nbytes, 0, stream.ptr)

    return prefetch

"""The operations a pipeline issues, in the host's order, with what each one costs alone."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from overlapviz.backends.sim.profile import DeviceProfile
from overlapviz.core.config import FLOAT32_BYTES, HostMemory, IssueOrder, KernelKind, PipelineConfig
from overlapviz.core.trace import MemoryKind, OpKind, Unit

THREADS_PER_BLOCK = 256
GRID_BLOCKS_PER_SM = 8  # the pipeline's kernels use min(ceil(n / 256), 8 x SMs) blocks
KERNEL_BYTES_PER_ELEMENT = 2 * FLOAT32_BYTES  # each element is read once and written once

_MEMORY_KINDS = {
    HostMemory.PINNED: MemoryKind.PINNED,
    HostMemory.PAGEABLE: MemoryKind.PAGEABLE,
    HostMemory.REGISTERED: MemoryKind.REGISTERED,
}
KERNEL_NAMES = {KernelKind.FMA: "fma_chain", KernelKind.SINCOS: "sincos_sqrt"}


class Op(NamedTuple):
    """One device operation of the pipeline, before it runs (a tuple: runs build thousands)."""

    kind: OpKind
    chunk: int
    stream: int
    unit: Unit
    work_ns: float  # how long it takes with its unit to itself
    nbytes: int
    memory: MemoryKind
    occupancy: float  # share of the GPU a kernel fills (1.0 for copies)
    blocks_host: bool  # a pageable copy: the host thread waits in the call until it is done
    name: str


def op_column(ops: Sequence[Op], field: str, dtype: type = np.int64) -> npt.NDArray[Any]:
    """One field of every op as an array.

    Read an op at a time in Python: `np.array` of a list of 10^5 enum members is one call
    that holds Python's lock for tens of ms (the GUI thread waits on it); a generator lets
    other threads in between.
    """
    index = Op._fields.index(field)
    return column_of((op[index] for op in ops), len(ops), dtype)


def column_of(values: Iterable[Any], count: int, dtype: type = np.int64) -> npt.NDArray[Any]:
    """`count` values from an iterable as an array (see `op_column` for why not `np.array`)."""
    return np.fromiter(values, dtype=dtype, count=count)


def issue_sequence(config: PipelineConfig) -> list[tuple[OpKind, int]]:
    """(kind, chunk) in the order the host issues them."""
    stages = (OpKind.H2D, OpKind.KERNEL, OpKind.D2H)
    chunks = range(config.chunks)
    if config.order is IssueOrder.DEPTH:
        return [(kind, c) for c in chunks for kind in stages]
    return [(kind, c) for kind in stages for c in chunks]


def build_ops(config: PipelineConfig, profile: DeviceProfile) -> list[Op]:
    """The pipeline's ops in issue order, each with its cost on `profile`."""
    # Every chunk but the last is the same size, so each kind of op costs the same on all of
    # them: one prototype per kind for those, one for the last chunk (runs build thousands).
    common = _prototypes(config, profile, 0)
    last_chunk = config.chunks - 1
    uneven = config.last_chunk_elements != config.chunk_elements
    last = _prototypes(config, profile, last_chunk) if uneven else common
    return [
        Op(kind, chunk, config.stream_of(chunk), *(last if chunk == last_chunk else common)[kind])
        for kind, chunk in issue_sequence(config)
    ]


def _prototypes(config: PipelineConfig, profile: DeviceProfile, chunk: int) -> dict[OpKind, tuple[Any, ...]]:
    """The fields after (kind, chunk, stream) of each kind of op on `chunk`."""
    kernel_ns, occupancy = kernel_cost(config, profile, chunk)
    memory = _MEMORY_KINDS[config.memory]
    pageable = memory is MemoryKind.PAGEABLE
    prototypes: dict[OpKind, tuple[Any, ...]] = {
        OpKind.KERNEL: (Unit.COMPUTE, kernel_ns, 0, MemoryKind.NONE, occupancy, False, KERNEL_NAMES[config.kernel]),
    }
    for kind in (OpKind.H2D, OpKind.D2H):
        prototypes[kind] = (copy_unit(kind, profile), copy_cost(kind, config, profile, chunk),
                            config.chunk_bytes_of(chunk), memory, 1.0, pageable, _copy_name(kind))
    return prototypes


def copy_unit(kind: OpKind, profile: DeviceProfile) -> Unit:
    """The engine that carries a copy of this direction."""
    if not profile.separate_copy_directions:
        return Unit.COPY_ENGINE
    return Unit.H2D_ENGINE if kind is OpKind.H2D else Unit.D2H_ENGINE


def copy_cost(kind: OpKind, config: PipelineConfig, profile: DeviceProfile, chunk: int = 0) -> float:
    """Nanoseconds the copy of `chunk` takes with the link to itself.

    Pageable copies run at the staged rate (the driver copies through its own pinned buffer);
    a D2H into a never-touched buffer also pays the host's page faults.
    """
    nbytes = config.chunk_bytes_of(chunk)
    ns = copy_ns(kind, config.memory, nbytes, profile)
    if config.fresh_output and kind is OpKind.D2H:
        ns += nbytes / profile.first_touch_gbps
    return ns


def copy_ns(kind: OpKind, memory: HostMemory, nbytes: int, profile: DeviceProfile) -> float:
    """Nanoseconds one copy of `nbytes` takes alone: the fixed cost plus bytes over the rate.

    Pinned and registered memory move at the link's rate; pageable memory at the staged rate.
    """
    h2d = kind is OpKind.H2D
    if memory is HostMemory.PAGEABLE:
        gbps = profile.pageable_h2d_gbps if h2d else profile.pageable_d2h_gbps
    else:
        gbps = profile.h2d_gbps if h2d else profile.d2h_gbps
    return profile.copy_latency_us * 1e3 + nbytes / gbps


def kernel_cost(config: PipelineConfig, profile: DeviceProfile, chunk: int = 0) -> tuple[float, float]:
    """(nanoseconds, occupancy) of the kernel on `chunk`.

    The grid is ``min(ceil(n / 256), 8 x SMs)`` blocks, each thread striding over its
    elements. A kernel takes the longer of two bounds: the GPU's throughput (``n x cost per
    element`` with every SM busy) and one thread's dependent chain (its elements times
    ``iters`` FMA latencies), which is what limits a grid too small to fill the GPU. Its
    occupancy, the share of the GPU's threads it holds, decides what may run beside it.
    ``iters = 0`` launches a kernel with nothing to do.
    """
    n = config.chunk_elements_of(chunk)
    blocks = min(math.ceil(n / THREADS_PER_BLOCK), GRID_BLOCKS_PER_SM * profile.sm_count)
    grid_threads = blocks * THREADS_PER_BLOCK
    occupancy = min(1.0, grid_threads / (profile.sm_count * profile.blocks_per_sm * THREADS_PER_BLOCK))
    launch_ns = profile.kernel_launch_us * 1e3
    if config.kernel is KernelKind.FMA and config.iters == 0:
        return launch_ns, occupancy
    memory_floor = KERNEL_BYTES_PER_ELEMENT / profile.kernel_memory_gbps
    if config.kernel is KernelKind.FMA:
        compute = profile.fma_base_ns_per_element + config.iters * profile.fma_ns_per_element_iter
        per_element = max(memory_floor, compute)
        chain = max(1.0, n / grid_threads) * config.iters * profile.fma_latency_ns
    else:
        per_element, chain = max(memory_floor, profile.sincos_ns_per_element), 0.0
    return launch_ns + max(n * per_element, chain), occupancy


def _copy_name(kind: OpKind) -> str:
    return "memcpy HtoD" if kind is OpKind.H2D else "memcpy DtoH"

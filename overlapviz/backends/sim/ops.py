"""The operations a pipeline issues, in the host's order, with what each one costs alone.

Which ops there are, in what order, on which stream and engine, with what bytes, names and
grids is the pipeline's plan (`overlapviz.core.pipeline_plan`), the same one the real GPU
runs; this module adds what the model needs on top: how long each op takes on a profile.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from overlapviz.backends.sim.profile import DeviceProfile
from overlapviz.core.config import FLOAT32_BYTES, HostMemory, KernelKind, PipelineConfig
from overlapviz.core.pipeline_plan import THREADS_PER_BLOCK, PipelinePlan, kernel_blocks, pipeline_plan
from overlapviz.core.trace import MemoryKind, OpKind, Unit

KERNEL_BYTES_PER_ELEMENT = 2 * FLOAT32_BYTES  # each element is read once and written once
KindValues = npt.NDArray[np.float64]  # one value per kind of op, indexed by `OpKind` value


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


def model_plan(config: PipelineConfig, profile: DeviceProfile) -> PipelinePlan:
    """The plan of `config` on the device `profile` describes."""
    return pipeline_plan(config, copy_engines=profile.copy_engines, sm_count=profile.sm_count)


def build_ops(config: PipelineConfig, profile: DeviceProfile) -> list[Op]:
    """The pipeline's ops in issue order (its plan's rows), each with its cost on `profile`."""
    plan = model_plan(config, profile)
    kinds = plan.kinds()
    # Every chunk but the last is the same size, so each kind of op costs the same on all of
    # them: one cost per kind for those, one for the last chunk (runs build thousands of ops).
    last = plan["chunk"] == config.chunks - 1
    common_ns, common_share = _costs(config, profile, 0)
    last_ns, last_share = _costs(config, profile, config.chunks - 1)
    work = np.where(last, last_ns[plan["kind"]], common_ns[plan["kind"]])
    occupancy = np.where(last, last_share[plan["kind"]], common_share[plan["kind"]])
    pageable = config.memory is HostMemory.PAGEABLE
    blocks_host = {kind: pageable and kind in (OpKind.H2D, OpKind.D2H) for kind in OpKind}
    return list(map(Op._make, zip(
        kinds, plan["chunk"].tolist(), plan["stream"].tolist(), plan.units(),
        work.tolist(), plan["bytes"].tolist(), plan.memories(), occupancy.tolist(),
        map(blocks_host.__getitem__, kinds), plan.names(), strict=True,
    )))  # fmt: skip


def _costs(config: PipelineConfig, profile: DeviceProfile, chunk: int) -> tuple[KindValues, KindValues]:
    """(nanoseconds, occupancy) of each kind of op on `chunk`, indexed by `OpKind` value."""
    work, share = np.zeros(len(OpKind)), np.ones(len(OpKind))
    work[OpKind.KERNEL], share[OpKind.KERNEL] = kernel_cost(config, profile, chunk)
    for kind in (OpKind.H2D, OpKind.D2H):
        work[kind] = copy_cost(kind, config, profile, chunk)
    return work, share


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

    Its grid is the plan's (`overlapviz.core.pipeline_plan.kernel_blocks`), each thread
    striding over its elements. A kernel takes the longer of two bounds: the GPU's throughput
    (``n x cost per element`` with every SM busy) and one thread's dependent chain (its
    elements times ``iters`` FMA latencies), which is what limits a grid too small to fill the
    GPU. Its occupancy, the share of the GPU's threads it holds, decides what may run beside
    it. ``iters = 0`` launches a kernel with nothing to do.
    """
    n = config.chunk_elements_of(chunk)
    grid_threads = kernel_blocks(config, profile.sm_count, chunk) * THREADS_PER_BLOCK
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

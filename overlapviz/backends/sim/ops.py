"""The operations a pipeline issues, in the host's order, with what each one costs alone.

Which ops there are, in what order, on which stream and engine, with what bytes, names and
grids is the pipeline's plan (`overlapviz.core.config.pipeline_plan`), the same one the real GPU
runs; this module adds what the model needs on top: how long each op takes on a profile.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from operator import itemgetter
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from overlapviz.backends.sim.host_kinds import missing_host_kinds_message, needs_host_kinds
from overlapviz.backends.sim.op_table import Op, OpTable
from overlapviz.backends.sim.peer_link import missing_peer_message
from overlapviz.backends.sim.profile import DeviceProfile
from overlapviz.core.config import COPY_KINDS_TEXT, COPY_MEMORIES, FLOAT32_BYTES, HostMemory, KernelKind, PipelineConfig
from overlapviz.core.config.pipeline_plan import (
    COPY_IN,
    COPY_OUT,
    KERNEL,
    PEER_COPY,
    PREFETCH_IN,
    PREFETCH_OUT,
    RING_IN,
    RING_OUT,
    STAGES,
    THREADS_PER_BLOCK,
    PipelinePlan,
    kernel_blocks,
    kernel_link_bytes,
    pipeline_plan,
)
from overlapviz.core.trace.spans import OpKind

KERNEL_BYTES_PER_ELEMENT = 2 * FLOAT32_BYTES  # each element is read once and written once
StageValues = npt.NDArray[np.float64]  # one value per stage, indexed like `pipeline_plan.STAGES`
_PIECE = 16_384  # ops made or read at a time: other threads get Python's lock in between


def model_plan(config: PipelineConfig, profile: DeviceProfile) -> PipelinePlan:
    """The plan of `config` on the device `profile` describes."""
    return pipeline_plan(config, copy_engines=profile.copy_engines, sm_count=profile.sm_count)


def op_column(
    ops: Sequence[Op], field: str, dtype: type = np.int64, convert: Callable[[Any], Any] | None = None
) -> npt.NDArray[Any]:
    """One field of every op (through `convert`, where given) as an array.

    Read a piece of the ops at a time: `np.array` of a list of 10^5 enum members is one call
    that holds Python's lock for tens of ms (the GUI thread waits on it); between pieces
    other threads get it.
    """
    if isinstance(ops, OpTable):
        return ops.column(field, dtype, convert)
    field_of = itemgetter(Op._fields.index(field))

    def piece(start: int) -> npt.NDArray[Any]:
        values = map(field_of, ops[start : start + _PIECE])
        return np.fromiter(values if convert is None else map(convert, values), dtype=dtype)

    pieces = [piece(start) for start in range(0, len(ops), _PIECE)]
    return np.concatenate(pieces) if pieces else np.zeros(0, dtype=dtype)


def op_values(ops: Sequence[Op], field: str) -> list[Any]:
    """One field of every op as a list: the event loop reads a list item quicker than a tuple's field."""
    if isinstance(ops, OpTable):
        return ops.field_list(field)
    return list(map(itemgetter(Op._fields.index(field)), ops))


def op_names(ops: Sequence[Op]) -> set[str]:
    """The distinct names of the ops."""
    if isinstance(ops, OpTable):
        return {ops.names[code] for code in np.unique(ops.columns["name"]).tolist()}
    return {op.name for op in ops}


class OpColumns(NamedTuple):
    """The fields of the ops that decide, before a run, how they wait and queue: one array each."""

    kind: npt.NDArray[np.int64]
    stream: npt.NDArray[np.int64]
    unit: npt.NDArray[np.int64]
    device: npt.NDArray[np.int64]
    after: npt.NDArray[np.int64]
    work_ns: npt.NDArray[np.float64]

    @classmethod
    def of(cls, ops: Sequence[Op]) -> OpColumns:
        """The columns of `ops`."""
        kind, stream, unit, device, after = (op_column(ops, field) for field in cls._fields[:-1])
        return cls(kind, stream, unit, device, after, op_column(ops, "work_ns", np.float64))


def build_ops(config: PipelineConfig, profile: DeviceProfile) -> OpTable:
    """The pipeline's ops in issue order (its plan's rows), each with its cost on `profile`.

    Raises
    ------
    ValueError
        `config` takes numbers `profile` lacks (see `overlapviz.backends.sim.host_kinds`
        and `overlapviz.backends.sim.peer_link`).
    """
    if needs_host_kinds(config) and profile.host_kinds is None:
        raise ValueError(missing_host_kinds_message(config, profile.key))
    if config.gpus > 1 and profile.peer is None:
        raise ValueError(missing_peer_message(profile.key))
    plan = model_plan(config, profile)
    # Every chunk but the last is the same size, so each stage costs the same on all of them:
    # one cost per stage for those, one for the last chunk (runs build thousands of ops).
    last = plan["chunk"] == config.chunks - 1
    common_ns, common_share = _costs(config, profile, 0)
    last_ns, last_share = _costs(config, profile, config.chunks - 1)
    work = np.where(last, last_ns[plan["stage"]], common_ns[plan["stage"]])
    occupancy = np.where(last, last_share[plan["stage"]], common_share[plan["stage"]])
    pageable = config.memory is HostMemory.PAGEABLE
    blocks_host = np.isin(plan["kind"], (OpKind.H2D, OpKind.D2H)) & pageable
    int64 = partial(np.asarray, dtype=np.int64)
    columns = {
        "kind": int64(plan["kind"]), "chunk": int64(plan["chunk"]), "stream": int64(plan["stream"]),
        "unit": int64(plan["unit"]), "work_ns": work, "nbytes": int64(plan["bytes"]), "memory": int64(plan["memory"]),
        "occupancy": occupancy, "blocks_host": blocks_host, "name": int64(plan["stage"]),
        "waits_for": int64(plan["waits_for"]), "device": int64(plan["device"]), "after": int64(plan["after"]),
    }  # fmt: skip
    return OpTable(columns, [plan.name_of(stage) for stage in STAGES])


def _costs(config: PipelineConfig, profile: DeviceProfile, chunk: int) -> tuple[StageValues, StageValues]:
    """(nanoseconds, occupancy) of each stage's op on `chunk`, indexed like `STAGES`.

    Only the stages `config` has are costed; the others stay 0.
    """
    work, share = np.zeros(len(STAGES)), np.ones(len(STAGES))
    kernel = STAGES.index(KERNEL)
    work[kernel], share[kernel] = kernel_cost(config, profile, chunk)
    if config.memory in COPY_MEMORIES or config.uses_ring:
        for stage in (COPY_IN, COPY_OUT):
            work[STAGES.index(stage)] = copy_cost(stage.kind, config, profile, chunk)
    if config.gpus > 1:
        work[STAGES.index(PEER_COPY)] = peer_copy_ns(config.peer_access, config.chunk_bytes_of(chunk), profile)
    kinds = profile.host_kinds
    if kinds is None:
        return work, share
    nbytes = config.chunk_bytes_of(chunk)
    latency = profile.copy_latency_us * 1e3
    work[STAGES.index(PREFETCH_IN)] = latency + nbytes / kinds.prefetch_h2d_gbps
    work[STAGES.index(PREFETCH_OUT)] = latency + nbytes / kinds.prefetch_d2h_gbps
    for stage in (RING_IN, RING_OUT):
        work[STAGES.index(stage)] = nbytes / kinds.staging_memcpy_gbps
    return work, share


def copy_cost(kind: OpKind, config: PipelineConfig, profile: DeviceProfile, chunk: int = 0) -> float:
    """Nanoseconds the copy of `chunk` takes with the link to itself.

    Pageable copies run at the staged rate (the driver copies through its own pinned buffer);
    a D2H into a never-touched buffer also pays the host's page faults. A staging ring's
    copies go from and to its pinned slots.
    """
    nbytes = config.chunk_bytes_of(chunk)
    memory = HostMemory.PINNED if config.uses_ring else config.memory
    ns = copy_ns(kind, memory, nbytes, profile)
    if config.fresh_output and kind is OpKind.D2H:
        ns += nbytes / profile.first_touch_gbps
    return ns


def copy_ns(kind: OpKind, memory: HostMemory, nbytes: int, profile: DeviceProfile) -> float:
    """Nanoseconds one copy of `nbytes` takes alone: the fixed cost plus bytes over the rate.

    Pinned and registered memory move at the link's rate, write-combined memory at its own
    measured rate, pageable memory at the staged rate.

    Raises
    ------
    ValueError
        `memory` is not copied (mapped, managed), or the profile has no rates for it.
    """
    h2d = kind is OpKind.H2D
    if memory is HostMemory.PAGEABLE:
        gbps = profile.pageable_h2d_gbps if h2d else profile.pageable_d2h_gbps
    elif memory is HostMemory.WRITE_COMBINED and profile.host_kinds is not None:
        gbps = profile.host_kinds.wc_h2d_gbps if h2d else profile.host_kinds.wc_d2h_gbps
    elif memory in (HostMemory.PINNED, HostMemory.REGISTERED):
        gbps = profile.h2d_gbps if h2d else profile.d2h_gbps
    elif memory is HostMemory.WRITE_COMBINED:
        raise ValueError(f"the {profile.key} profile has no copy rates for write-combined memory")
    else:  # mapped and managed memory are reached by the kernels; a ring's copies are pinned ones
        raise ValueError(f"{memory.value} memory has no copies of its own to measure; copy kinds: {COPY_KINDS_TEXT}")
    return profile.copy_latency_us * 1e3 + nbytes / gbps


def peer_copy_ns(peer_access: bool, nbytes: int, profile: DeviceProfile) -> float:
    """Nanoseconds a peer copy of `nbytes` from GPU 0 to GPU 1 takes alone.

    With peer access on it goes straight across: over the NVLink, or over PCIe (P2P) where the
    profile has no NVLink (`PeerLink.direct_gbps`); off, the driver stages it through
    a pinned host buffer: a D2H from GPU 0, then an H2D to GPU 1, one after the other, each at
    the pinned rate of its GPU's link with its fixed cost.

    Raises
    ------
    ValueError
        The profile has no [peer] section.
    """
    if profile.peer is None:
        raise ValueError(missing_peer_message(profile.key))
    if peer_access:
        return profile.peer.peer_latency_us * 1e3 + nbytes / profile.peer.direct_gbps
    staged = copy_ns(OpKind.D2H, HostMemory.PINNED, nbytes, profile)
    return staged + copy_ns(OpKind.H2D, HostMemory.PINNED, nbytes, profile)


def kernel_cost(config: PipelineConfig, profile: DeviceProfile, chunk: int = 0) -> tuple[float, float]:
    """(nanoseconds, occupancy) of the kernel on `chunk`.

    Its grid is the plan's (`overlapviz.core.config.pipeline_plan.kernel_blocks`), each thread
    striding over its elements. A kernel takes the longer of two bounds: the GPU's throughput
    (``n x cost per element`` with every SM busy) and one thread's dependent chain (its
    elements times ``iters`` FMA latencies), which is what limits a grid too small to fill the
    GPU. Its occupancy, the share of the GPU's threads it holds, decides what may run beside
    it. ``iters = 0`` launches a kernel with nothing to do.

    A kernel that reaches host memory itself pays for the bytes it moves across the link
    (`overlapviz.core.config.pipeline_plan.kernel_link_bytes`): on mapped memory the loads and stores
    overlap the arithmetic, so the kernel takes the longer of the two; on managed memory each
    fault stalls the threads that touched the page until it has migrated, so the migrations
    add to it.
    """
    ns, occupancy = _device_kernel_cost(config, profile, chunk)
    link_bytes = kernel_link_bytes(config, chunk)
    kinds = profile.host_kinds
    if not link_bytes or kinds is None:
        return ns, occupancy
    launch_ns = profile.kernel_launch_us * 1e3
    if config.memory is HostMemory.MAPPED:
        return launch_ns + max(ns - launch_ns, link_bytes / kinds.mapped_gbps), occupancy
    return ns + link_bytes / kinds.fault_gbps, occupancy


def _device_kernel_cost(config: PipelineConfig, profile: DeviceProfile, chunk: int) -> tuple[float, float]:
    """(nanoseconds, occupancy) of the kernel on `chunk` in device memory (see `kernel_cost`)."""
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

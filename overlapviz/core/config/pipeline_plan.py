"""The pipeline as every backend issues it: each op in the host's order, where it runs, how it is launched.

One description serves the model and the real GPU, so the two cannot drift apart: the order
of the ops (depth: chunk by chunk; breadth: stage by stage), the stream of each, the engine
that carries each copy, the bytes it moves, the name of each op and each kernel's grid. What
it depends on besides the `PipelineConfig` is two facts of the device: its copy engines and
its SMs.

Launch geometry, as ``kernels/pipeline.cu`` needs it (blocks of 256 threads):

- the FMA chain runs ``min(ceil(n / 256), 8 x SMs)`` blocks with a grid-stride loop, as in
  the H200 reference measurements: 8 blocks of 256 threads are all an SM of Volta to Hopper
  holds, so one launch fills every SM and no more;
- the sincos kernel runs ``ceil(n / 256)`` blocks, one thread per element, uncapped. It is
  the kernel of Harris (2012) as the post wrote it, without a grid-stride loop, so a capped
  grid would leave the elements past the cap unwritten. On an SM that holds 8 blocks or
  fewer the two grids fill the GPU from the same chunk size on; on one that holds more, only
  the uncapped grid can.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from overlapviz.core.config import (
    COPY_MEMORIES,
    IN_PLACE_MEMORIES,
    HostMemory,
    IssueOrder,
    KernelKind,
    PipelineConfig,
    StreamKind,
)
from overlapviz.core.trace.frozen_columns import freeze_columns
from overlapviz.core.trace.spans import MemoryKind, OpKind, Unit

THREADS_PER_BLOCK = 256
BLOCKS_PER_SM = 8  # 8 x 256 threads = 2048, the most an SM of Volta to Hopper holds at once
KERNEL_NAMES = {KernelKind.FMA: "fma_chain", KernelKind.SINCOS: "sincos_sqrt"}  # extern "C" in pipeline.cu
# as CUPTI and Nsight name them
COPY_NAMES = {OpKind.H2D: "memcpy HtoD", OpKind.D2H: "memcpy DtoH", OpKind.PEER: "memcpy PtoP"}
# The host span, after the final synchronize, of the host reading the whole output buffer where
# the kind of memory gives that read a cost of its own (write-combined, managed).
HOST_READ_NAME = "host read of output"


@dataclass(frozen=True, slots=True)
class Stage:
    """One kind of step a chunk goes through: what it is, its name, and which way it moves data."""

    kind: OpKind
    name: str  # the op's name in the trace (a kernel stage takes the plan's kernel name instead)
    direction: OpKind | None  # H2D or D2H for what runs on a copy engine; None for kernels and host copies


COPY_IN = Stage(OpKind.H2D, COPY_NAMES[OpKind.H2D], OpKind.H2D)
KERNEL = Stage(OpKind.KERNEL, "kernel", None)
COPY_OUT = Stage(OpKind.D2H, COPY_NAMES[OpKind.D2H], OpKind.D2H)
PREFETCH_IN = Stage(OpKind.PREFETCH, "prefetch to device", OpKind.H2D)  # cudaMemPrefetchAsync to the GPU
PREFETCH_OUT = Stage(OpKind.PREFETCH, "prefetch to host", OpKind.D2H)  # cudaMemPrefetchAsync to the CPU
RING_IN = Stage(OpKind.HOST_COPY, "memcpy pageable->pinned", None)  # the host fills a ring slot
RING_OUT = Stage(OpKind.HOST_COPY, "memcpy pinned->pageable", None)  # the host empties a ring slot
PEER_COPY = Stage(OpKind.PEER, COPY_NAMES[OpKind.PEER], None)  # cudaMemcpyPeerAsync from GPU 0 to GPU 1
# row `stage` of a plan indexes this
STAGES = (COPY_IN, KERNEL, COPY_OUT, PREFETCH_IN, PREFETCH_OUT, RING_IN, RING_OUT, PEER_COPY)
COPY_STAGES = (COPY_IN, KERNEL, COPY_OUT)  # a chunk's ops when the host buffers are copied, in dependency order
_COPY_STAGE_OF = {stage.kind: stage for stage in COPY_STAGES}
_CHUNK_STAGES: dict[HostMemory, tuple[Stage, ...]] = {
    **dict.fromkeys(COPY_MEMORIES, COPY_STAGES),
    **dict.fromkeys(IN_PLACE_MEMORIES, (KERNEL,)),  # the kernel reaches host memory itself
    HostMemory.MANAGED_PREFETCH: (PREFETCH_IN, KERNEL, PREFETCH_OUT),
}
_MEMORY_KINDS = {
    HostMemory.PINNED: MemoryKind.PINNED,
    HostMemory.PAGEABLE: MemoryKind.PAGEABLE,
    HostMemory.REGISTERED: MemoryKind.REGISTERED,
    HostMemory.WRITE_COMBINED: MemoryKind.WRITE_COMBINED,
    HostMemory.MAPPED: MemoryKind.MAPPED,
    HostMemory.MANAGED: MemoryKind.MANAGED,
    HostMemory.MANAGED_PREFETCH: MemoryKind.MANAGED,
    HostMemory.STAGED: MemoryKind.PINNED,  # the async copies go from and to the pinned ring slots
}
# Bytes a kernel moves across the link for each byte of its chunk. A mapped kernel reads its
# chunk from host memory and writes it back; a managed kernel's faults bring its chunk over
# once (it stays on the device afterwards).
_KERNEL_LINK_BYTES = {HostMemory.MAPPED: 2, HostMemory.MANAGED: 1}
# Enum members by value, for reading the columns back (calling the enum is slow at 10^5 rows).
_OP_KINDS = {int(kind): kind for kind in OpKind}
_UNITS = {int(unit): unit for unit in Unit}
_MEMORIES = {int(memory): memory for memory in MemoryKind}
PLAN_COLUMNS: dict[str, type] = {
    "kind": np.int8,  # OpKind
    "stage": np.int8,  # index into STAGES: which step of its chunk the op is
    "chunk": np.int32,
    "stream": np.int32,  # 0-based stream index (0 for everything on the legacy stream); -1 for host copies
    "unit": np.int8,  # Unit: the engine of a copy or prefetch, compute for a kernel, the host for a host copy
    "bytes": np.int64,  # bytes a copy, prefetch or host copy moves; bytes a kernel moves across the link (else 0)
    "memory": np.int8,  # MemoryKind: the host memory the op reaches; none for a kernel on device memory
    "blocks": np.int64,  # a kernel's grid, in blocks of THREADS_PER_BLOCK; 0 for the others
    "slot": np.int32,  # the staging ring slot the op uses; -1 without a ring
    "waits_for": np.int32,  # the row the host waits for (an event) before this op; -1 for none
    "device": np.int16,  # the GPU that runs the op (a peer copy: the GPU it copies from); 0 for host copies
    "after": np.int32,  # the row in another stream this op waits for (cudaStreamWaitEvent); -1 for none
}
# With two GPUs in a chain, a chunk's steps and the GPU of each: in on GPU 0, computed there,
# sent across, computed on GPU 1, out from GPU 1. Split, a chunk has one GPU's steps, on its own GPU.
CHAIN_STEPS: tuple[tuple[Stage, int], ...] = ((COPY_IN, 0), (KERNEL, 0), (PEER_COPY, 0), (KERNEL, 1), (COPY_OUT, 1))


def memory_kind(memory: HostMemory) -> MemoryKind:
    """What a trace calls the host memory of a copy from or into `memory`."""
    return _MEMORY_KINDS[memory]


def chunk_stages(memory: HostMemory, *, kernel_work: bool = True) -> tuple[Stage, ...]:
    """The device ops of one chunk with `memory`, in the order they depend on each other.

    A staged chunk has the copy stages between the host's copy into its slot and out of it.
    Without `kernel_work` (the FMA chain with no iterations) nothing is launched: the chunk
    has no kernel, and on memory the kernel reaches in place, no op at all.
    """
    stages = COPY_STAGES if memory is HostMemory.STAGED else _CHUNK_STAGES[memory]
    return stages if kernel_work else tuple(s for s in stages if s is not KERNEL)


def unit_of(kind: OpKind, copy_engines: int) -> Unit:
    """The hardware unit that runs an op: one copy engine per direction when there are two or more.

    `kind` is a copy's direction (H2D or D2H) or KERNEL; a prefetch runs where a copy of its
    direction would (see `stage_unit`), a host copy on the host thread.
    """
    if kind is OpKind.KERNEL:
        return Unit.COMPUTE
    if kind is OpKind.HOST_COPY:
        return Unit.HOST
    if kind is OpKind.PEER:
        return Unit.DEVICE_COPY
    if copy_engines < 2:
        return Unit.COPY_ENGINE
    return Unit.H2D_ENGINE if kind is OpKind.H2D else Unit.D2H_ENGINE


def stage_unit(stage: Stage, copy_engines: int) -> Unit:
    """The unit that runs the ops of `stage`."""
    return unit_of(stage.kind if stage.direction is None else stage.direction, copy_engines)


def fma_blocks(elements: int, sm_count: int) -> int:
    """Grid of the FMA chain: ``min(ceil(n / 256), 8 x SMs)`` blocks (grid-stride beyond that)."""
    return max(1, min(math.ceil(elements / THREADS_PER_BLOCK), BLOCKS_PER_SM * sm_count))


def sincos_blocks(elements: int) -> int:
    """Grid of the sincos kernel: one thread per element, uncapped (see the module docstring)."""
    return max(1, math.ceil(elements / THREADS_PER_BLOCK))


def kernel_link_bytes(config: PipelineConfig, chunk: int = 0) -> int:
    """Bytes the kernel of `chunk` moves across the link: 0 unless it reaches host memory itself."""
    return _KERNEL_LINK_BYTES.get(config.memory, 0) * config.chunk_bytes_of(chunk)


def kernel_blocks(config: PipelineConfig, sm_count: int, chunk: int = 0) -> int:
    """Blocks of the kernel of `chunk` (every chunk but the last has the same grid)."""
    elements = config.chunk_elements_of(chunk)
    if config.kernel is KernelKind.SINCOS:
        return sincos_blocks(elements)
    return fma_blocks(elements, sm_count)


@dataclass(frozen=True, slots=True)
class PlannedOp:
    """One op of the pipeline: a row of its plan (see `PipelinePlan.ops`)."""

    index: int  # position in issue order: row `index` of the run's trace
    kind: OpKind
    chunk: int
    stream: int  # -1 for a host copy, which runs on the host thread
    unit: Unit
    nbytes: int
    memory: MemoryKind
    name: str
    blocks: int  # a kernel's grid; 0 for the others
    slot: int  # the staging ring slot; -1 without a ring
    waits_for: int  # the op the host waits for before this one; -1 for none
    stage: Stage
    device: int  # the GPU that runs it (a peer copy: the GPU it copies from)
    after: int  # the op of another stream it waits for (an event); -1 for none

    @property
    def label(self) -> str:
        """Short name for NVTX ranges and messages, e.g. ``h2d c3 s1``."""
        where = "host" if self.stream < 0 else f"s{self.stream}"
        return f"{self.kind.label} c{self.chunk} {where}"

    @property
    def on_host(self) -> bool:
        """Whether the host thread runs it itself (a host copy) instead of issuing it to a stream."""
        return self.kind is OpKind.HOST_COPY


@dataclass(frozen=True, eq=False)
class PipelinePlan:
    """Every op of one pipeline on one kind of device, in issue order, as read-only numpy columns.

    Row ``i`` is the ``i``-th op the host issues or runs (`PLAN_COLUMNS` names the columns);
    what is the same for every op of a stage (its name, the block size) is a property.
    """

    config: PipelineConfig
    copy_engines: int
    sm_count: int
    columns: dict[str, npt.NDArray[Any]]

    def __post_init__(self) -> None:
        freeze_columns(self.columns, PLAN_COLUMNS, "plan")

    def __len__(self) -> int:
        return len(self.columns["kind"])

    def __getitem__(self, name: str) -> npt.NDArray[Any]:
        return self.columns[name]

    @property
    def kernel_name(self) -> str:
        """The name of the chunk kernel, as CUPTI and the timeline show it."""
        return KERNEL_NAMES[self.config.kernel]

    @property
    def threads_per_block(self) -> int:
        """Threads in each block of every kernel of the plan."""
        return THREADS_PER_BLOCK

    def name_of(self, kind: OpKind | Stage) -> str:
        """The name of every op of a stage (or of a copy or kernel kind)."""
        stage = kind if isinstance(kind, Stage) else _COPY_STAGE_OF[kind]
        return self.kernel_name if stage is KERNEL else stage.name

    def names(self) -> list[str]:
        """Each op's name, in issue order."""
        names = [self.name_of(stage) for stage in STAGES]
        return [names[s] for s in self.columns["stage"].tolist()]

    def stages(self) -> list[Stage]:
        """Each op's stage, in issue order."""
        return [STAGES[s] for s in self.columns["stage"].tolist()]

    def grids(self) -> list[int]:
        """Each chunk's kernel grid in blocks, by chunk."""
        kernels = self.columns["kind"] == OpKind.KERNEL
        grids = np.zeros(self.config.chunks, dtype=np.int64)
        grids[self.columns["chunk"][kernels]] = self.columns["blocks"][kernels]
        return [int(b) for b in grids]

    def kinds(self) -> list[OpKind]:
        """Each op's kind, in issue order."""
        return [_OP_KINDS[k] for k in self.columns["kind"].tolist()]

    def units(self) -> list[Unit]:
        """Each op's unit, in issue order."""
        return [_UNITS[u] for u in self.columns["unit"].tolist()]

    def memories(self) -> list[MemoryKind]:
        """Each op's host memory, in issue order."""
        return [_MEMORIES[m] for m in self.columns["memory"].tolist()]

    @property
    def device_rows(self) -> npt.NDArray[np.bool_]:
        """Rows the device runs (everything but the host's own copies)."""
        rows: npt.NDArray[np.bool_] = self.columns["kind"] != OpKind.HOST_COPY
        return rows

    def ops(self) -> list[PlannedOp]:
        """The ops as rows, in issue order."""
        c = self.columns
        rows = zip(self.kinds(), c["chunk"].tolist(), c["stream"].tolist(), self.units(), c["bytes"].tolist(),
                   self.memories(), self.names(), c["blocks"].tolist(), c["slot"].tolist(), c["waits_for"].tolist(),
                   self.stages(), c["device"].tolist(), c["after"].tolist(), strict=True)  # fmt: skip
        return [PlannedOp(i, *row) for i, row in enumerate(rows)]


def pipeline_plan(config: PipelineConfig, *, copy_engines: int, sm_count: int) -> PipelinePlan:
    """The ops of `config` in issue order on devices with `copy_engines` and `sm_count` SMs each."""
    steps = _chunk_steps(config)
    if config.uses_ring:
        stage, chunk, slot, waits_for = _ring_order(config, tuple(s for s, _ in steps))
        device = np.zeros_like(chunk)
    else:
        stage, chunk, device = _chunk_order(config, steps)
        slot = waits_for = np.full(len(chunk), -1, dtype=np.int64)
    if config.is_split:  # every step of a chunk on the chunk's own GPU (`PipelineConfig.gpu_of`)
        device = chunk % config.gpus
    stage_kind = np.array([s.kind for s in STAGES], dtype=np.int8)[stage]
    kernel, host, peer = stage_kind == OpKind.KERNEL, stage_kind == OpKind.HOST_COPY, stage_kind == OpKind.PEER
    last = config.chunks - 1
    chunk_bytes = _per_chunk(config.chunks, config.chunk_bytes, config.chunk_bytes_of(last))
    kernel_bytes = _per_chunk(config.chunks, kernel_link_bytes(config), kernel_link_bytes(config, last))
    grid = _per_chunk(config.chunks, kernel_blocks(config, sm_count), kernel_blocks(config, sm_count, last))
    stream = _stream_column(config, chunk, device)
    memory = memory_kind(config.memory)
    kernel_memory = memory if config.memory in IN_PLACE_MEMORIES else MemoryKind.NONE
    columns: dict[str, npt.NDArray[Any]] = {
        "kind": stage_kind,
        "stage": stage,
        "chunk": chunk,
        "stream": np.where(host, -1, stream),
        "unit": np.array([stage_unit(s, copy_engines) for s in STAGES], dtype=np.int8)[stage],
        "bytes": np.where(kernel, kernel_bytes[chunk], chunk_bytes[chunk]),
        "memory": np.where(
            kernel, kernel_memory, np.where(host, MemoryKind.PAGEABLE, np.where(peer, MemoryKind.NONE, memory))
        ),
        "blocks": np.where(kernel, grid[chunk], 0),
        "slot": np.where(kernel, -1, slot),
        "waits_for": waits_for,
        "device": device,
        "after": _after_peer_copy(stage, chunk, device, config.chunks),
    }
    return PipelinePlan(config, copy_engines, sm_count, columns)


Rows = npt.NDArray[np.int64]


def _stream_column(config: PipelineConfig, chunk: Rows, device: Rows) -> Rows:
    """`PipelineConfig.stream_of` of every row at once."""
    if config.stream_kind is StreamKind.LEGACY:
        return device
    turn = chunk // config.gpus if config.is_split else chunk  # split: the chunk's place among its GPU's chunks
    return device * config.streams + turn % config.streams


def _chunk_steps(config: PipelineConfig) -> tuple[tuple[Stage, int], ...]:
    """The steps of a chunk, each with its GPU; split, GPU 0 stands for the chunk's own GPU."""
    if config.gpus > 1 and not config.is_split:
        return tuple(step for step in CHAIN_STEPS if config.has_kernel_work or step[0] is not KERNEL)
    return tuple((s, 0) for s in chunk_stages(config.memory, kernel_work=config.has_kernel_work))


def _chunk_order(config: PipelineConfig, steps: tuple[tuple[Stage, int], ...]) -> tuple[Rows, Rows, Rows]:
    """(stage index, chunk, GPU) of every op in issue order: depth goes chunk by chunk, breadth step by step."""
    chunks = np.arange(config.chunks, dtype=np.int64)
    indices = np.array([STAGES.index(s) for s, _ in steps], dtype=np.int64)
    gpus = np.array([gpu for _, gpu in steps], dtype=np.int64)
    if config.order is IssueOrder.DEPTH:  # every step of chunk 0, then of chunk 1, ...
        return np.tile(indices, config.chunks), np.repeat(chunks, len(steps)), np.tile(gpus, config.chunks)
    # each step for every chunk in turn
    return np.repeat(indices, config.chunks), np.tile(chunks, len(steps)), np.repeat(gpus, config.chunks)


def _after_peer_copy(stage: Rows, chunk: Rows, device: Rows, chunks: int) -> Rows:
    """Per row: the chunk's peer copy for the first op of its chunk on GPU 1 (it waits for it), else -1.

    GPU 1's stream cannot see GPU 0's: the program records an event after the peer copy and
    has GPU 1's stream wait for it (``cudaStreamWaitEvent``).
    """
    after = np.full(len(stage), -1, dtype=np.int64)
    peer = np.flatnonzero(stage == STAGES.index(PEER_COPY))
    if not peer.size:
        return after
    peer_row = np.full(chunks, -1, dtype=np.int64)
    peer_row[chunk[peer]] = peer
    on_second = np.flatnonzero(device == 1)
    firsts = on_second[np.unique(chunk[on_second], return_index=True)[1]]  # issue order: the first row of each chunk
    after[firsts] = peer_row[chunk[firsts]]
    return after


def _ring_order(config: PipelineConfig, stages: tuple[Stage, ...]) -> tuple[Rows, Rows, Rows, Rows]:
    """(stage, chunk, slot, waits for) of every op of a pipeline staged through the ring, in issue order.

    Chunk ``c`` uses slot ``c % slots``. Before the host fills the slot again it waits (an
    event) for the D2H of the chunk that used the slot before, ``c - slots``, and copies that
    chunk's output out of the slot; the chunk's H2D came earlier in its stream, so the input
    slot is free too. After the last chunk the host empties the slots still full, oldest first.
    """
    ring_steps = (RING_OUT, RING_IN, *stages)  # per chunk: empty the slot's last chunk, fill it, copy, run, copy back
    slots, chunks = config.ring_slots_used, config.chunks
    steps = len(ring_steps)
    chunk_of_step = np.repeat(np.arange(chunks, dtype=np.int64), steps)
    step = np.tile(np.arange(steps, dtype=np.int64), chunks)
    chunk = np.where(step == 0, chunk_of_step - slots, chunk_of_step)  # step 0 empties the slot's last chunk
    keep = chunk >= 0  # the first `slots` chunks find their slot empty
    tail = np.arange(max(0, chunks - slots), chunks, dtype=np.int64)
    stage_of_step = np.array([STAGES.index(s) for s in ring_steps], dtype=np.int64)
    stage = np.concatenate([stage_of_step[step[keep]], np.full(len(tail), STAGES.index(RING_OUT))])
    chunk = np.concatenate([chunk[keep], tail])
    d2h_row = np.full(chunks, -1, dtype=np.int64)
    is_d2h = stage == STAGES.index(COPY_OUT)
    d2h_row[chunk[is_d2h]] = np.flatnonzero(is_d2h)
    waits_for = np.where(stage == STAGES.index(RING_OUT), d2h_row[chunk], -1)
    return stage, chunk, chunk % slots, waits_for


def _per_chunk(chunks: int, common: int, last: int) -> npt.NDArray[np.int64]:
    """A value per chunk: `common` for all but the last, which has its own."""
    values = np.full(chunks, common, dtype=np.int64)
    values[-1] = last
    return values

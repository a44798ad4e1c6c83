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

from overlapviz.core.columns import freeze_columns
from overlapviz.core.config import HostMemory, IssueOrder, KernelKind, PipelineConfig, StreamKind
from overlapviz.core.trace import MemoryKind, OpKind, Unit

THREADS_PER_BLOCK = 256
BLOCKS_PER_SM = 8  # 8 x 256 threads = 2048, the most an SM of Volta to Hopper holds at once
STAGES = (OpKind.H2D, OpKind.KERNEL, OpKind.D2H)  # the ops of one chunk, in the order they depend on each other
COPY_STAGES = (OpKind.H2D, OpKind.D2H)  # a chunk's ops when there is no kernel work: nothing is launched
KERNEL_NAMES = {KernelKind.FMA: "fma_chain", KernelKind.SINCOS: "sincos_sqrt"}  # extern "C" in pipeline.cu
COPY_NAMES = {OpKind.H2D: "memcpy HtoD", OpKind.D2H: "memcpy DtoH"}  # as CUPTI and Nsight name them
_MEMORY_KINDS = {
    HostMemory.PINNED: MemoryKind.PINNED,
    HostMemory.PAGEABLE: MemoryKind.PAGEABLE,
    HostMemory.REGISTERED: MemoryKind.REGISTERED,
}
# Enum members by value, for reading the columns back (calling the enum is slow at 10^5 rows).
_OP_KINDS = {int(kind): kind for kind in OpKind}
_UNITS = {int(unit): unit for unit in Unit}
_MEMORIES = {int(memory): memory for memory in MemoryKind}
PLAN_COLUMNS: dict[str, type] = {
    "kind": np.int8,  # OpKind
    "chunk": np.int32,
    "stream": np.int32,  # 0-based stream index (0 for everything on the legacy stream)
    "unit": np.int8,  # Unit: the engine of a copy, compute for a kernel
    "bytes": np.int64,  # bytes a copy moves; 0 for a kernel
    "memory": np.int8,  # MemoryKind: the host side of a copy; none for a kernel
    "blocks": np.int64,  # a kernel's grid, in blocks of THREADS_PER_BLOCK; 0 for a copy
}


def memory_kind(memory: HostMemory) -> MemoryKind:
    """What a trace calls the host memory of a copy from or into `memory`."""
    return _MEMORY_KINDS[memory]


def unit_of(kind: OpKind, copy_engines: int) -> Unit:
    """The hardware unit that runs an op: one copy engine per direction when there are two or more."""
    if kind is OpKind.KERNEL:
        return Unit.COMPUTE
    if copy_engines < 2:
        return Unit.COPY_ENGINE
    return Unit.H2D_ENGINE if kind is OpKind.H2D else Unit.D2H_ENGINE


def fma_blocks(elements: int, sm_count: int) -> int:
    """Grid of the FMA chain: ``min(ceil(n / 256), 8 x SMs)`` blocks (grid-stride beyond that)."""
    return max(1, min(math.ceil(elements / THREADS_PER_BLOCK), BLOCKS_PER_SM * sm_count))


def sincos_blocks(elements: int) -> int:
    """Grid of the sincos kernel: one thread per element, uncapped (see the module docstring)."""
    return max(1, math.ceil(elements / THREADS_PER_BLOCK))


def kernel_blocks(config: PipelineConfig, sm_count: int, chunk: int = 0) -> int:
    """Blocks of the kernel of `chunk` (every chunk but the last has the same grid)."""
    elements = config.chunk_elements_of(chunk)
    if config.kernel is KernelKind.SINCOS:
        return sincos_blocks(elements)
    return fma_blocks(elements, sm_count)


@dataclass(frozen=True, slots=True)
class PlannedOp:
    """One copy or kernel launch of the pipeline: a row of its plan (see `PipelinePlan.ops`)."""

    index: int  # position in issue order: row `index` of the run's trace
    kind: OpKind
    chunk: int
    stream: int
    unit: Unit
    nbytes: int
    memory: MemoryKind
    name: str
    blocks: int  # a kernel's grid; 0 for a copy

    @property
    def label(self) -> str:
        """Short name for NVTX ranges and messages, e.g. ``h2d c3 s1``."""
        return f"{self.kind.label} c{self.chunk} s{self.stream}"


@dataclass(frozen=True, eq=False)
class PipelinePlan:
    """Every op of one pipeline on one kind of device, in issue order, as read-only numpy columns.

    Row ``i`` is the ``i``-th op the host issues (`PLAN_COLUMNS` names the columns); what is
    the same for every op of a kind (the names, the block size) is a property.
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

    def name_of(self, kind: OpKind) -> str:
        """The name of every op of `kind`."""
        return self.kernel_name if kind is OpKind.KERNEL else COPY_NAMES[kind]

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

    def ops(self) -> list[PlannedOp]:
        """The ops as rows, in issue order."""
        c, names = self.columns, {kind: self.name_of(kind) for kind in STAGES}
        rows = zip(self.kinds(), c["chunk"].tolist(), c["stream"].tolist(), self.units(),
                   c["bytes"].tolist(), self.memories(), c["blocks"].tolist(), strict=True)  # fmt: skip
        return [
            PlannedOp(i, kind, chunk, stream, unit, nbytes, memory, names[kind], blocks)
            for i, (kind, chunk, stream, unit, nbytes, memory, blocks) in enumerate(rows)
        ]


def pipeline_plan(config: PipelineConfig, *, copy_engines: int, sm_count: int) -> PipelinePlan:
    """The ops of `config` in issue order on a device with `copy_engines` and `sm_count` SMs."""
    kinds = STAGES if config.has_kernel_work else COPY_STAGES
    chunks = np.arange(config.chunks, dtype=np.int64)
    stages = np.arange(len(kinds), dtype=np.int64)
    if config.order is IssueOrder.DEPTH:  # H2D, kernel, D2H of chunk 0, then of chunk 1, ...
        stage, chunk = np.tile(stages, config.chunks), np.repeat(chunks, len(kinds))
    else:  # every H2D, then every kernel, then every D2H
        stage, chunk = np.repeat(stages, config.chunks), np.tile(chunks, len(kinds))
    kind = np.array(kinds, dtype=np.int8)[stage]
    kernel = kind == OpKind.KERNEL
    last = config.chunks - 1
    chunk_bytes = _per_chunk(config.chunks, config.chunk_bytes, config.chunk_bytes_of(last))
    grid = _per_chunk(config.chunks, kernel_blocks(config, sm_count), kernel_blocks(config, sm_count, last))
    columns: dict[str, npt.NDArray[Any]] = {
        "kind": kind,
        "chunk": chunk,
        "stream": np.zeros_like(chunk) if config.stream_kind is StreamKind.LEGACY else chunk % config.streams,
        "unit": np.array([unit_of(k, copy_engines) for k in kinds], dtype=np.int8)[stage],
        "bytes": np.where(kernel, 0, chunk_bytes[chunk]),
        "memory": np.where(kernel, MemoryKind.NONE, memory_kind(config.memory)),
        "blocks": np.where(kernel, grid[chunk], 0),
    }
    return PipelinePlan(config, copy_engines, sm_count, columns)


def _per_chunk(chunks: int, common: int, last: int) -> npt.NDArray[np.int64]:
    """A value per chunk: `common` for all but the last, which has its own."""
    values = np.full(chunks, common, dtype=np.int64)
    values[-1] = last
    return values

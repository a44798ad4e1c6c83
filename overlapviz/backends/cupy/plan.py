"""The ops a pipeline issues, in the order the host issues them (pure: no CUDA here).

Both timing paths and the trace conversion walk this list, so the trace's rows come out in
issue order: row ``i`` of a trace is ``issue_plan(config)[i]``.
"""

from __future__ import annotations

from dataclasses import dataclass

from overlapviz.core.config import FLOAT32_BYTES, IssueOrder, PipelineConfig
from overlapviz.core.trace import OpKind, Unit


@dataclass(frozen=True, slots=True)
class PlannedOp:
    """One copy or kernel launch of the pipeline."""

    index: int  # position in issue order
    kind: OpKind
    chunk: int
    stream: int  # 0-based stream index (0 for everything on the legacy stream)

    @property
    def label(self) -> str:
        """Short name for NVTX ranges and messages, e.g. ``h2d c3 s1``."""
        return f"{self.kind.label} c{self.chunk} s{self.stream}"


@dataclass(frozen=True, slots=True)
class ChunkSlice:
    """Where one chunk lies in the host and device buffers, in float32 elements."""

    offset: int  # the chunk's first element
    elements: int

    @property
    def stop(self) -> int:
        """One past the chunk's last element."""
        return self.offset + self.elements

    @property
    def byte_offset(self) -> int:
        """Bytes from the start of a buffer to the chunk."""
        return self.offset * FLOAT32_BYTES

    @property
    def nbytes(self) -> int:
        """Bytes of the chunk, and so of each of its copies."""
        return self.elements * FLOAT32_BYTES


def chunk_slices(config: PipelineConfig) -> list[ChunkSlice]:
    """Every chunk's place in the buffers, as `PipelineConfig` sizes them (the last may be longer)."""
    return [ChunkSlice(config.chunk_offset_of(c), config.chunk_elements_of(c)) for c in range(config.chunks)]


_STAGES = (OpKind.H2D, OpKind.KERNEL, OpKind.D2H)


def issue_plan(config: PipelineConfig) -> list[PlannedOp]:
    """Every op of `config` in issue order (depth: per chunk; breadth: per stage); no launch without kernel work."""
    stages = _STAGES if config.has_kernel_work else (OpKind.H2D, OpKind.D2H)
    if config.order is IssueOrder.DEPTH:
        pairs = [(chunk, kind) for chunk in range(config.chunks) for kind in stages]
    else:
        pairs = [(chunk, kind) for kind in stages for chunk in range(config.chunks)]
    return [
        PlannedOp(index, kind, chunk, config.stream_of(chunk)) for index, (chunk, kind) in enumerate(pairs)
    ]


def unit_of(kind: OpKind, copy_engines: int) -> Unit:
    """The hardware unit that runs an op: one engine per direction when there are two or more."""
    if kind is OpKind.KERNEL:
        return Unit.COMPUTE
    if copy_engines < 2:
        return Unit.COPY_ENGINE
    return Unit.H2D_ENGINE if kind is OpKind.H2D else Unit.D2H_ENGINE

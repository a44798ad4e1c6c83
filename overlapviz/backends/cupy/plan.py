"""The ops a pipeline issues, in the order the host issues them (pure: no CUDA here).

Both timing paths and the trace conversion walk this list, so the trace's rows come out in
issue order: row ``i`` of a trace is ``issue_plan(config)[i]``.
"""

from __future__ import annotations

from dataclasses import dataclass

from overlapviz.core.config import IssueOrder, PipelineConfig
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


_STAGES = (OpKind.H2D, OpKind.KERNEL, OpKind.D2H)


def issue_plan(config: PipelineConfig) -> list[PlannedOp]:
    """Every op of `config` in issue order (depth: per chunk; breadth: per stage)."""
    if config.order is IssueOrder.DEPTH:
        pairs = [(chunk, kind) for chunk in range(config.chunks) for kind in _STAGES]
    else:
        pairs = [(chunk, kind) for kind in _STAGES for chunk in range(config.chunks)]
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

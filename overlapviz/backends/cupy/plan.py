"""The pipeline on one CUDA device: its plan from the device's facts, and where each chunk lies (pure: no CUDA here).

The ops, their order, units, names and grids are the pipeline's plan
(`overlapviz.core.config.pipeline_plan`), the one the model runs too. Both timing paths and the
trace conversion walk its rows, so the trace's rows come out in issue order: row ``i`` of a
trace is ``plan.ops()[i]``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from overlapviz.core.config import FLOAT32_BYTES, PipelineConfig
from overlapviz.core.config.pipeline_plan import PipelinePlan, pipeline_plan


def device_plan(config: PipelineConfig, facts: Mapping[str, Any]) -> PipelinePlan:
    """The plan of `config` on the device whose `device_facts` are `facts` (its copy engines and SMs)."""
    return pipeline_plan(config, copy_engines=int(facts["copy_engines"]), sm_count=int(facts["sm_count"]))


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

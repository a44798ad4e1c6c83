"""One plan made ready to issue on a device: what `PipelineRunner.prepare` hands the issue loops."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from overlapviz.backends.cupy import prefetch
from overlapviz.backends.cupy.buffers import HostBuffer
from overlapviz.backends.cupy.op_issue import Targets
from overlapviz.backends.cupy.plan import chunk_slices
from overlapviz.backends.cupy.staging_ring import StagingRing
from overlapviz.core.config import PipelineConfig
from overlapviz.core.config.pipeline_plan import PipelinePlan

Samples = tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]  # (inputs, outputs) at the sample


@dataclass
class Prepared:
    """One plan made ready to issue: pointers, arguments, streams, the output sample.

    With host buffers allocated per run, `host_in`/`host_out` and their pointers are set by
    `attach` inside each run and cleared by `detach`.
    """

    plan: PipelinePlan
    host_in: npt.NDArray[np.float32] | None
    host_out: npt.NDArray[np.float32] | None
    streams: list[Any]  # cupy.cuda.Stream per stream index
    stream_ptrs: list[int]
    in_ptrs: list[int]
    out_ptrs: list[int]
    dev_ptrs: list[int]
    kernel: Any  # cupy.cuda.function.Function of the chunk kernel
    grids: list[tuple[int]]  # per chunk
    block: tuple[int]
    args: list[tuple[Any, ...]]
    copy_bytes: list[int]  # per chunk: the last chunk may be longer than the others
    sample: npt.NDArray[np.int64]
    in_place: HostBuffer | None = None  # the host buffer the kernels work on in place (mapped, managed)
    ring: StagingRing | None = None
    to_device: prefetch.Prefetch | None = None
    to_host: prefetch.Prefetch | None = None
    done: dict[int, Any] | None = None  # plan row -> event recorded after it, for the ops that wait for it
    graph: CapturedGraph | None = None

    @property
    def config(self) -> PipelineConfig:
        """The pipeline of the plan."""
        return self.plan.config

    def targets(self) -> Targets:
        """Where this run's ops read and write (after `PipelineRunner.attach`)."""
        return Targets(
            streams=self.streams, stream_ptrs=self.stream_ptrs, dev_ptrs=self.dev_ptrs, in_ptrs=self.in_ptrs,
            out_ptrs=self.out_ptrs, nbytes=self.copy_bytes, slices=chunk_slices(self.config), kernel=self.kernel,
            grids=self.grids, block=self.block, args=self.args, ring=self.ring, host_in=self.host_in,
            host_out=self.host_out, to_device=self.to_device, to_host=self.to_host, done=self.done,
        )  # fmt: skip


@dataclass
class CapturedGraph:
    """The run's ops captured once into a CUDA Graph, with the events recorded inside it.

    Only an event after each op: every event is a node the launch pays for. When an op's
    stream reached it (its ``ready``) follows from the end of the op before it in its stream.
    `key` names the buffers and streams it was captured on: a graph holds their addresses.
    """

    key: tuple[Any, ...]
    graph: Any  # cupy.cuda.graph.Graph
    origin: Any
    after: list[Any]  # per plan row: an event recorded right after the op
    capture_ns: int

"""The combinations of settings the pipeline refuses, each with the setting it blames and why.

Checked in this order, after every value is in range (`PipelineConfig.__post_init__`): the
first that applies is the one reported.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from overlapviz.core.config.kinds import (
    GRAPH_MEMORIES,
    IN_PLACE_MEMORIES,
    MULTI_GPU_MEMORIES,
    PER_RUN_MEMORIES,
    GpuLayout,
    HostAlloc,
    HostMemory,
    IssueOrder,
    StreamKind,
    allowed_text,
)
from overlapviz.core.config.values import FLOAT32_BYTES, format_size

if TYPE_CHECKING:
    from overlapviz.core.config.pipeline import PipelineConfig


@dataclass(frozen=True, slots=True)
class Refusal:
    """A combination the pipeline cannot run, blamed on the setting `field`, with the reason."""

    field: str
    applies: Callable[[PipelineConfig], bool]
    reason: Callable[[PipelineConfig], str]


def _too_many_chunks(c: PipelineConfig) -> str:
    return (
        f"{c.chunks} chunks are more than the {c.elements} float32 elements of"
        f" {format_size(c.size_bytes)}; at most {c.elements}, one element per chunk"
    )


REFUSALS: tuple[Refusal, ...] = (
    # pinned and registered buffers are allocated (and so touched) once, before any run
    Refusal("fresh_output", lambda c: c.fresh_output and c.memory is not HostMemory.PAGEABLE,
            lambda c: "a fresh, never-touched output buffer needs pageable host memory"),
    Refusal("host_alloc", lambda c: c.host_alloc is HostAlloc.PER_RUN and c.memory not in PER_RUN_MEMORIES,
            lambda c: f"per-run host buffers are modelled and measured for {allowed_text(PER_RUN_MEMORIES)}"
            " memory only"),
    # every host copy would come first, and a slot's second chunk would wait for a copy out never issued
    Refusal("order", lambda c: c.memory is HostMemory.STAGED and c.order is IssueOrder.BREADTH,
            lambda c: "a staging ring issues chunk by chunk: use depth order with staged memory"),
    # the kernel is the only op on memory it reaches in place, and a kernel without work is never launched
    Refusal("iters", lambda c: c.memory in IN_PLACE_MEMORIES and not c.has_kernel_work,
            lambda c: f"on {c.memory.value} memory the kernel is the only op: with no iterations nothing runs"),
    Refusal("graph", lambda c: c.graph and c.memory not in GRAPH_MEMORIES,
            lambda c: "a CUDA Graph holds only asynchronous copies and kernels:"
            f" use {allowed_text(GRAPH_MEMORIES)} memory"),
    Refusal("graph", lambda c: c.graph and c.stream_kind is StreamKind.LEGACY,
            lambda c: "the legacy default stream cannot be captured into a CUDA Graph"),
    # with one GPU: the settings that only two GPUs have, set away from their one-GPU values
    Refusal("peer_access", lambda c: c.gpus == 1 and not c.peer_access,
            lambda c: "peer access is between GPUs: it needs gpus = 2"),
    Refusal("gpu_layout", lambda c: c.gpus == 1 and c.gpu_layout is not GpuLayout.CHAIN,
            lambda c: "the split layout shares the chunks between GPUs: it needs gpus = 2"),
    # split, no chunk leaves its GPU: "off" would change nothing while seeming to
    Refusal("peer_access", lambda c: c.gpus > 1 and c.gpu_layout is GpuLayout.SPLIT and not c.peer_access,
            lambda c: "the split layout makes no peer copies: peer access off needs the chain layout"),
    Refusal("gpus", lambda c: c.gpus > 1 and c.memory not in MULTI_GPU_MEMORIES,
            lambda c: f"the two-GPU pipeline copies host buffers: use {allowed_text(MULTI_GPU_MEMORIES)} memory,"
            f" not {c.memory.value}"),
    # the measured launch costs are of a graph on one GPU
    Refusal("gpus", lambda c: c.gpus > 1 and c.graph,
            lambda c: "a CUDA Graph over two GPUs is not modelled: run two GPUs without --graph"),
    Refusal("size_bytes", lambda c: c.size_bytes % FLOAT32_BYTES != 0,
            lambda c: "must be a whole number of float32 values (4 bytes)"),
    Refusal("chunks", lambda c: c.chunks > c.elements, _too_many_chunks),
)  # fmt: skip


def refusals_of(name: str) -> tuple[Refusal, ...]:
    """The refusals that blame the setting `name`."""
    return tuple(refusal for refusal in REFUSALS if refusal.field == name)


def first_refusal(config: PipelineConfig) -> Refusal | None:
    """The first refusal that applies to `config`, or None: the pipeline can run."""
    return next((refusal for refusal in REFUSALS if refusal.applies(config)), None)

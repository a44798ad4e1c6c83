"""The pipeline a user asks for: what is copied, how it is split, how it is issued.

The pipeline is the one measured in ``shared/reference/h200/README.md``: a float32 host buffer
of ``size_bytes`` split into ``chunks`` chunks; chunk ``c`` runs on stream ``c % streams``;
per chunk an H2D copy, the FMA-chain kernel on the chunk and a D2H copy into a second host
buffer.

With ``gpus = 2`` the ``gpu_layout`` says how the two GPUs share the work. In a chain each
chunk goes H2D to GPU 0, through the kernel there, by a peer copy to GPU 1, through the kernel
there and D2H from GPU 1 back to the host. Split, the chunks take turns: chunk ``c`` runs H2D,
kernel and D2H on GPU ``c % 2``, both GPUs reading the one input buffer and writing the one
output buffer. Either way each GPU has ``streams`` streams of its own (see
`PipelineConfig.stream_of`).

Any chunk count from 1 to the number of elements is allowed. Every chunk holds
``elements // chunks`` elements, chunk ``c`` starting at element ``c * (elements // chunks)``,
except the last, which also takes the ``elements % chunks`` left over. That always makes
exactly ``chunks`` chunks of at least one element each; a rule of equal chunks rounded up
with a shorter last one cannot promise that (10 elements in 6 chunks of 2 leave nothing for
the sixth).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from overlapviz.core.config import settings as declared
from overlapviz.core.config.kind_words import memory_words, order_words
from overlapviz.core.config.kinds import (
    GRAPH_MEMORIES,
    IN_PLACE_MEMORIES,
    MULTI_GPU_MEMORIES,
    PER_RUN_MEMORIES,
    GpuLayout,
    HostAlloc,
    HostMemory,
    IssueOrder,
    KernelKind,
    StreamKind,
    allowed_text,
)
from overlapviz.core.config.settings import MULTI_GPU_DEFAULTS, checking_order
from overlapviz.core.config.values import FLOAT32_BYTES, ConfigError, format_size, parse_size
from overlapviz.core.i18n import _, ncount


@dataclass(frozen=True, slots=True)
class PipelineConfig:
    """A copy + compute pipeline, validated on construction.

    Each field's type, range, default and help are declared once in `settings`; a test keeps
    these fields and those declarations the same.
    """

    size_bytes: int = declared.SIZE_BYTES.default
    chunks: int = declared.CHUNKS.default
    streams: int = declared.STREAMS.default
    memory: HostMemory = declared.MEMORY.default
    order: IssueOrder = declared.ORDER.default
    stream_kind: StreamKind = declared.STREAM_KIND.default
    iters: int = declared.ITERS.default
    kernel: KernelKind = declared.KERNEL.default
    fresh_output: bool = declared.FRESH_OUTPUT.default  # D2H into a never-touched pageable buffer each run
    host_alloc: HostAlloc = declared.HOST_ALLOC.default
    ring_slots: int = declared.RING_SLOTS.default  # pinned slots of the staging ring (used only with staged memory)
    graph: bool = declared.GRAPH.default  # issue the pipeline as one captured CUDA Graph per run
    gpus: int = declared.GPUS.default  # 2: two GPUs of one host, sharing the work as `gpu_layout` says
    peer_access: bool = declared.PEER_ACCESS.default  # with 2 GPUs in a chain; off: peer copies staged by the host
    gpu_layout: GpuLayout = declared.GPU_LAYOUT.default  # with 2 GPUs: each chunk through both, or shared out

    def __post_init__(self) -> None:
        for setting in checking_order():
            object.__setattr__(self, setting.name, setting.checked(getattr(self, setting.name)))
        refusal = first_refusal(self)
        if refusal is not None:
            raise ConfigError(refusal.field, refusal.reason(self))

    @property
    def uses_ring(self) -> bool:
        """Whether the pipeline stages its pageable data through the ring of pinned slots."""
        return self.memory is HostMemory.STAGED

    @property
    def ring_slots_used(self) -> int:
        """Slots the staging ring allocates: a ring larger than the chunk count never fills; 0 without a ring."""
        return min(self.ring_slots, self.chunks) if self.uses_ring else 0

    @property
    def elements(self) -> int:
        """Number of float32 values in the host buffer."""
        return self.size_bytes // FLOAT32_BYTES

    @property
    def chunk_elements(self) -> int:
        """Number of float32 values in every chunk but the last (see `chunk_elements_of`)."""
        return self.elements // self.chunks

    @property
    def chunk_bytes(self) -> int:
        """Bytes of every chunk but the last, and so of their copies."""
        return self.chunk_elements * FLOAT32_BYTES

    @property
    def last_chunk_elements(self) -> int:
        """Number of float32 values in the last chunk: a common chunk plus the remainder."""
        return self.chunk_elements + self.elements % self.chunks

    def chunk_offset_of(self, chunk: int) -> int:
        """The first element of `chunk` in the host and device buffers."""
        self._check_chunk(chunk)
        return chunk * self.chunk_elements

    def chunk_elements_of(self, chunk: int) -> int:
        """Number of float32 values in `chunk` (the last one also holds the remainder)."""
        self._check_chunk(chunk)
        return self.last_chunk_elements if chunk == self.chunks - 1 else self.chunk_elements

    def chunk_bytes_of(self, chunk: int) -> int:
        """Bytes of `chunk`, and so of each of its two copies."""
        return self.chunk_elements_of(chunk) * FLOAT32_BYTES

    def _check_chunk(self, chunk: int) -> None:
        if not 0 <= chunk < self.chunks:
            raise IndexError(f"chunk {chunk} is not one of the pipeline's {self.chunks} chunks")

    @property
    def is_split(self) -> bool:
        """Whether the chunks are shared out between two GPUs (see `gpu_of`) instead of chained through both."""
        return self.gpus > 1 and self.gpu_layout is GpuLayout.SPLIT

    def gpu_of(self, chunk: int) -> int:
        """The GPU that copies `chunk` in: its own GPU when split, GPU 0 (the chain's start) otherwise."""
        return chunk % self.gpus if self.is_split else 0

    def stream_of(self, chunk: int, gpu: int = 0) -> int:
        """The stream (0-based) that carries `chunk` on `gpu`.

        Each GPU has streams of its own, numbered on from the last GPU's: with 4 streams, GPU 1
        has streams 4 to 7 (its legacy default stream is stream 1). Split, a GPU's chunks take
        its streams in turn (its ``k``-th chunk, ``c // 2``, on its stream ``k % streams``), so
        that every stream of each GPU carries work, as with one GPU.
        """
        if self.stream_kind is StreamKind.LEGACY:
            return gpu
        turn = chunk // self.gpus if self.is_split else chunk
        return gpu * self.streams + turn % self.streams

    def replace(self, **changes: Any) -> PipelineConfig:
        """A copy with some fields changed, validated again."""
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready values (enums as their names)."""
        return {
            f.name: _plain(getattr(self, f.name))
            for f in dataclasses.fields(self)
            if f.name not in MULTI_GPU_DEFAULTS or getattr(self, f.name) != MULTI_GPU_DEFAULTS[f.name]
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PipelineConfig:
        """Build from `to_dict` output (or a preset); unknown keys are an error, a size may be text."""
        unknown = sorted(set(data) - set(declared.BY_NAME))
        if unknown:
            known = ", ".join(sorted(declared.BY_NAME))
            raise ConfigError(unknown[0], _("unknown setting; known: {settings}").format(settings=known))
        values = dict(data)
        for setting in declared.SETTINGS:
            if setting.is_size and isinstance(values.get(setting.name), str):
                values[setting.name] = parse_size(values[setting.name])
        return cls(**values)

    @property
    def has_kernel_work(self) -> bool:
        """Whether a kernel runs on each chunk: the FMA chain with no iterations is copies only, no launch."""
        return self.kernel is not KernelKind.FMA or self.iters > 0

    def describe(self) -> str:
        """One line for captions and summaries."""
        legacy = self.stream_kind is StreamKind.LEGACY
        streams = _("legacy stream") if legacy else ncount("{count} stream", "{count} streams", self.streams)
        work = f"{self.kernel.value} x{self.iters}" if self.kernel is KernelKind.FMA else self.kernel.value
        work = _("kernel {work}").format(work=work) if self.has_kernel_work else _("copies only")
        extras = _(", fresh output buffer") * self.fresh_output
        extras += _(", host buffers allocated per run") * (self.host_alloc is HostAlloc.PER_RUN)
        if self.uses_ring:
            extras += ncount(", ring of {count} slot", ", ring of {count} slots", self.ring_slots)
        extras += _(", one CUDA Graph") * self.graph
        if self.is_split:
            extras += _(", {gpus} GPUs, split layout").format(gpus=self.gpus)
        elif self.gpus > 1:
            chain = _(", {gpus} GPUs, chain layout, peer access on") if self.peer_access else _(
                ", {gpus} GPUs, chain layout, peer access off"
            )
            extras += chain.format(gpus=self.gpus)
        return _("{size}, {streams} x {chunks}, {memory}, {order}, {work}{extras}").format(
            size=format_size(self.size_bytes), streams=streams,
            chunks=ncount("{count} chunk", "{count} chunks", self.chunks), memory=memory_words(self.memory),
            order=order_words(self.order), work=work, extras=extras,
        )  # fmt: skip


def _plain(value: object) -> object:
    return value.value if isinstance(value, StrEnum) else value


# --- the combinations the pipeline refuses, checked in this order after every value is in range:
# the first that applies is the one reported -------------------------------------------------


@dataclass(frozen=True, slots=True)
class Refusal:
    """A combination the pipeline cannot run, blamed on the setting `field`, with the reason."""

    field: str
    applies: Callable[[PipelineConfig], bool]
    reason: Callable[[PipelineConfig], str]


def _too_many_chunks(c: PipelineConfig) -> str:
    return _(
        "{chunks} chunks are more than the {elements} float32 elements of {size}; at most {elements}, one element"
        " per chunk"
    ).format(chunks=c.chunks, elements=c.elements, size=format_size(c.size_bytes))


REFUSALS: tuple[Refusal, ...] = (
    # pinned and registered buffers are allocated (and so touched) once, before any run
    Refusal("fresh_output", lambda c: c.fresh_output and c.memory is not HostMemory.PAGEABLE,
            lambda c: _("a fresh, never-touched output buffer needs pageable host memory")),
    Refusal("host_alloc", lambda c: c.host_alloc is HostAlloc.PER_RUN and c.memory not in PER_RUN_MEMORIES,
            lambda c: _("per-run host buffers are modelled and measured for {memories} memory only").format(
                memories=allowed_text(PER_RUN_MEMORIES))),
    # every host copy would come first, and a slot's second chunk would wait for a copy out never issued
    Refusal("order", lambda c: c.memory is HostMemory.STAGED and c.order is IssueOrder.BREADTH,
            lambda c: _("a staging ring issues chunk by chunk: use depth order with staged memory")),
    # the kernel is the only op on memory it reaches in place, and a kernel without work is never launched
    Refusal("iters", lambda c: c.memory in IN_PLACE_MEMORIES and not c.has_kernel_work,
            lambda c: _("on {memory} memory the kernel is the only op: with no iterations nothing runs").format(
                memory=c.memory.value)),
    Refusal("graph", lambda c: c.graph and c.memory not in GRAPH_MEMORIES,
            lambda c: _("a CUDA Graph holds only asynchronous copies and kernels: use {memories} memory").format(
                memories=allowed_text(GRAPH_MEMORIES))),
    Refusal("graph", lambda c: c.graph and c.stream_kind is StreamKind.LEGACY,
            lambda c: _("the legacy default stream cannot be captured into a CUDA Graph")),
    # with one GPU: the settings that only two GPUs have, set away from their one-GPU values
    Refusal("peer_access", lambda c: c.gpus == 1 and not c.peer_access,
            lambda c: _("peer access is between GPUs: it needs gpus = 2")),
    Refusal("gpu_layout", lambda c: c.gpus == 1 and c.gpu_layout is not GpuLayout.CHAIN,
            lambda c: _("the split layout shares the chunks between GPUs: it needs gpus = 2")),
    # split, no chunk leaves its GPU: "off" would change nothing while seeming to
    Refusal("peer_access", lambda c: c.gpus > 1 and c.gpu_layout is GpuLayout.SPLIT and not c.peer_access,
            lambda c: _("the split layout makes no peer copies: peer access off needs the chain layout")),
    Refusal("gpus", lambda c: c.gpus > 1 and c.memory not in MULTI_GPU_MEMORIES,
            lambda c: _("the two-GPU pipeline copies host buffers: use {memories} memory, not {memory}").format(
                memories=allowed_text(MULTI_GPU_MEMORIES), memory=c.memory.value)),
    # the measured launch costs are of a graph on one GPU
    Refusal("gpus", lambda c: c.gpus > 1 and c.graph,
            lambda c: _("a CUDA Graph over two GPUs is not modelled: run two GPUs without --graph")),
    Refusal("size_bytes", lambda c: c.size_bytes % FLOAT32_BYTES != 0,
            lambda c: _("must be a whole number of float32 values (4 bytes)")),
    Refusal("chunks", lambda c: c.chunks > c.elements, _too_many_chunks),
)  # fmt: skip


def refusals_of(name: str) -> tuple[Refusal, ...]:
    """The refusals that blame the setting `name`."""
    return tuple(refusal for refusal in REFUSALS if refusal.field == name)


def first_refusal(config: PipelineConfig) -> Refusal | None:
    """The first refusal that applies to `config`, or None: the pipeline can run."""
    return next((refusal for refusal in REFUSALS if refusal.applies(config)), None)

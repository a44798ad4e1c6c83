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
import re
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any

from overlapviz.core.number_text import count_text

FLOAT32_BYTES = 4
KIB = 1024
MIB = 1024 * KIB
GIB = 1024 * MIB

MIN_SIZE_BYTES = 4 * KIB
MAX_SIZE_BYTES = 64 * GIB
MAX_CHUNKS = 65536
MAX_STREAMS = 128
MAX_ITERS = 1_000_000
MAX_RING_SLOTS = 64
MAX_GPUS = 2  # the peer stage sends each chunk from GPU 0 to GPU 1: no shape for more yet


class ConfigError(ValueError):
    """A pipeline value is out of range; the message names the field and what is allowed."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field


class HostMemory(StrEnum):
    """How the host buffers are allocated."""

    PINNED = "pinned"  # cudaMallocHost: page-locked, DMA straight from it
    PAGEABLE = "pageable"  # plain malloc/numpy: the driver stages through a pinned buffer
    REGISTERED = "registered"  # cudaHostRegister on existing memory: pinned after the fact
    WRITE_COMBINED = "write-combined"  # cudaHostAlloc(cudaHostAllocWriteCombined): pinned, uncached on the host
    MAPPED = "mapped"  # cudaHostAlloc(cudaHostAllocMapped): the kernel reads and writes host memory, no copies
    MANAGED = "managed"  # cudaMallocManaged: pages migrate on first touch, no prefetch
    MANAGED_PREFETCH = "managed-prefetch"  # managed, cudaMemPrefetchAsync to the device and back per chunk
    STAGED = "staged"  # pageable data copied by the host thread through a ring of pinned slots


# The kinds whose per-chunk copies are cudaMemcpyAsync calls straight from the host buffers.
COPY_MEMORIES = frozenset({HostMemory.PINNED, HostMemory.PAGEABLE, HostMemory.REGISTERED, HostMemory.WRITE_COMBINED})
COPY_KINDS_TEXT = ", ".join(sorted(m.value for m in COPY_MEMORIES))  # for messages naming them
# The kinds the pipeline's kernels reach in host memory themselves: no copies at all.
IN_PLACE_MEMORIES = frozenset({HostMemory.MAPPED, HostMemory.MANAGED})
# What per-run host allocation is modelled for (and measured on the H200): the others allocate once.
PER_RUN_MEMORIES = frozenset({HostMemory.PINNED, HostMemory.PAGEABLE, HostMemory.REGISTERED})
# What a CUDA Graph can hold: every op an asynchronous copy or kernel the host only issues.
# Pageable copies and the staging ring's host copies make the host work between ops.
GRAPH_MEMORIES = frozenset({
    HostMemory.PINNED, HostMemory.REGISTERED, HostMemory.WRITE_COMBINED, HostMemory.MAPPED, HostMemory.MANAGED,
})
# What the two-GPU pipeline copies from and to: host buffers the copy engines read and write
# straight (or, pageable, through the driver's staging). The kinds a kernel reaches in place,
# prefetched managed memory and the host's staging ring have no peer stage in the model.
MULTI_GPU_MEMORIES = COPY_MEMORIES


class IssueOrder(StrEnum):
    """In which order the host issues the per-chunk operations."""

    DEPTH = "depth"  # H2D, kernel, D2H for chunk 0, then for chunk 1, ...
    BREADTH = "breadth"  # every H2D, then every kernel, then every D2H


class StreamKind(StrEnum):
    """Which streams carry the work."""

    NONBLOCKING = "nonblocking"  # cudaStreamNonBlocking streams, one per `streams`
    LEGACY = "legacy"  # every op on the legacy default stream


class HostAlloc(StrEnum):
    """When the two host buffers are allocated: once before timing, or inside every run."""

    REUSE = "reuse"  # allocated (and touched or pinned) once, before the timed region
    PER_RUN = "per-run"  # each run allocates both buffers before issuing and frees them after


class GpuLayout(StrEnum):
    """How two GPUs share the pipeline's chunks."""

    CHAIN = "chain"  # every chunk through both: H2D to GPU 0, kernel, peer copy, kernel on GPU 1, D2H from GPU 1
    SPLIT = "split"  # chunk c on GPU c % 2 alone: H2D, kernel, D2H, both GPUs on one portable pinned buffer


class KernelKind(StrEnum):
    """Which kernel runs on each chunk."""

    FMA = "fma"  # v = v * 0.999f + 0.001f repeated `iters` times per element
    SINCOS = "sincos"  # a[i] += sqrt(sin(i)^2 + cos(i)^2), the kernel of Harris (2012)


# Settings that exist only with several GPUs: left out of `to_dict` at their one-GPU values, so
# that the files and traces of one-GPU runs read as they always have (and the layout at the
# chain, the only layout two-GPU files had before there was a choice).
MULTI_GPU_DEFAULTS: dict[str, object] = {"gpus": 1, "peer_access": True, "gpu_layout": GpuLayout.CHAIN}

DEFAULT_SIZE_BYTES = 256 * MIB
DEFAULT_CHUNKS = 16
DEFAULT_STREAMS = 4
DEFAULT_ITERS = 1860
DEFAULT_RING_SLOTS = 2


@dataclass(frozen=True, slots=True)
class PipelineConfig:
    """A copy + compute pipeline, validated on construction."""

    size_bytes: int = DEFAULT_SIZE_BYTES
    chunks: int = DEFAULT_CHUNKS
    streams: int = DEFAULT_STREAMS
    memory: HostMemory = HostMemory.PINNED
    order: IssueOrder = IssueOrder.DEPTH
    stream_kind: StreamKind = StreamKind.NONBLOCKING
    iters: int = DEFAULT_ITERS
    kernel: KernelKind = KernelKind.FMA
    fresh_output: bool = False  # D2H into a never-touched pageable buffer each run
    host_alloc: HostAlloc = HostAlloc.REUSE
    ring_slots: int = DEFAULT_RING_SLOTS  # pinned slots of the staging ring (used only with staged memory)
    graph: bool = False  # issue the pipeline as one captured CUDA Graph per run
    gpus: int = 1  # 2: two GPUs of one host, sharing the work as `gpu_layout` says
    peer_access: bool = True  # with 2 GPUs in a chain, cudaDeviceEnablePeerAccess; off: peer copies staged by the host
    gpu_layout: GpuLayout = GpuLayout.CHAIN  # with 2 GPUs: each chunk through both (chain), or shared out (split)

    def __post_init__(self) -> None:
        for name, enum in _ENUM_FIELDS.items():
            object.__setattr__(self, name, _coerce_enum(name, enum, getattr(self, name)))
        _check_int("size_bytes", self.size_bytes, MIN_SIZE_BYTES, MAX_SIZE_BYTES, format_size)
        _check_int("chunks", self.chunks, 1, MAX_CHUNKS)
        _check_int("streams", self.streams, 1, MAX_STREAMS)
        _check_int("iters", self.iters, 0, MAX_ITERS)
        _check_int("ring_slots", self.ring_slots, 1, MAX_RING_SLOTS)
        _check_int("gpus", self.gpus, 1, MAX_GPUS)
        for name in ("fresh_output", "graph", "peer_access"):
            if not isinstance(getattr(self, name), bool):
                raise ConfigError(name, "must be true or false")
        if self.fresh_output and self.memory is not HostMemory.PAGEABLE:
            # pinned and registered buffers are allocated (and so touched) once, before any run
            raise ConfigError("fresh_output", "a fresh, never-touched output buffer needs pageable host memory")
        self._check_kind_combinations()
        if self.size_bytes % FLOAT32_BYTES:
            raise ConfigError("size_bytes", "must be a whole number of float32 values (4 bytes)")
        if self.chunks > self.elements:
            raise ConfigError(
                "chunks",
                f"{self.chunks} chunks are more than the {self.elements} float32 elements of"
                f" {format_size(self.size_bytes)}; at most {self.elements}, one element per chunk",
            )

    def _check_kind_combinations(self) -> None:
        """Refuse settings a memory kind cannot honour, each with the reason."""
        if self.host_alloc is HostAlloc.PER_RUN and self.memory not in PER_RUN_MEMORIES:
            allowed = ", ".join(sorted(m.value for m in PER_RUN_MEMORIES))
            raise ConfigError("host_alloc", f"per-run host buffers are modelled and measured for {allowed} memory only")
        if self.memory is HostMemory.STAGED and self.order is IssueOrder.BREADTH:
            # every host copy would come first, and a slot's second chunk would wait for a copy out never issued
            raise ConfigError("order", "a staging ring issues chunk by chunk: use depth order with staged memory")
        if self.memory in IN_PLACE_MEMORIES and not self.has_kernel_work:
            # the kernel is the only op on memory it reaches in place, and a kernel without work is never launched
            raise ConfigError(
                "iters", f"on {self.memory.value} memory the kernel is the only op: with no iterations nothing runs"
            )
        if self.graph and self.memory not in GRAPH_MEMORIES:
            allowed = ", ".join(sorted(m.value for m in GRAPH_MEMORIES))
            raise ConfigError("graph", f"a CUDA Graph holds only asynchronous copies and kernels: use {allowed} memory")
        if self.graph and self.stream_kind is StreamKind.LEGACY:
            raise ConfigError("graph", "the legacy default stream cannot be captured into a CUDA Graph")
        self._check_gpus()

    def _check_gpus(self) -> None:
        """Refuse what the two-GPU pipeline cannot do, each with the reason."""
        if self.gpus == 1:
            self._check_one_gpu()
            return
        if self.gpu_layout is GpuLayout.SPLIT and not self.peer_access:
            # no chunk leaves its GPU: "off" would change nothing while seeming to
            raise ConfigError(
                "peer_access", "the split layout makes no peer copies: peer access off needs the chain layout"
            )
        if self.memory not in MULTI_GPU_MEMORIES:
            allowed = ", ".join(sorted(m.value for m in MULTI_GPU_MEMORIES))
            raise ConfigError(
                "gpus", f"the two-GPU pipeline copies host buffers: use {allowed} memory, not {self.memory.value}"
            )
        if self.graph:
            # the measured launch costs are of a graph on one GPU
            raise ConfigError("gpus", "a CUDA Graph over two GPUs is not modelled: run two GPUs without --graph")

    def _check_one_gpu(self) -> None:
        """Refuse the settings that only two GPUs have, set away from their one-GPU values."""
        if not self.peer_access:
            raise ConfigError("peer_access", "peer access is between GPUs: it needs gpus = 2")
        if self.gpu_layout is not GpuLayout.CHAIN:
            raise ConfigError("gpu_layout", "the split layout shares the chunks between GPUs: it needs gpus = 2")

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
        """Build from `to_dict` output (or a preset); unknown keys are an error."""
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ConfigError(unknown[0], f"unknown setting; known: {', '.join(sorted(known))}")
        values = dict(data)
        if isinstance(values.get("size_bytes"), str):
            values["size_bytes"] = parse_size(values["size_bytes"])
        return cls(**values)

    @property
    def has_kernel_work(self) -> bool:
        """Whether a kernel runs on each chunk: the FMA chain with no iterations is copies only, no launch."""
        return self.kernel is not KernelKind.FMA or self.iters > 0

    def describe(self) -> str:
        """One line for captions and summaries."""
        streams = "legacy stream" if self.stream_kind is StreamKind.LEGACY else count_text(self.streams, "stream")
        work = f"{self.kernel.value} x{self.iters}" if self.kernel is KernelKind.FMA else self.kernel.value
        work = f"kernel {work}" if self.has_kernel_work else "copies only"
        extras = ", fresh output buffer" * self.fresh_output
        extras += ", host buffers allocated per run" * (self.host_alloc is HostAlloc.PER_RUN)
        extras += f", ring of {count_text(self.ring_slots, 'slot')}" * self.uses_ring
        extras += ", one CUDA Graph" * self.graph
        if self.is_split:
            extras += f", {self.gpus} GPUs, split layout"
        elif self.gpus > 1:
            extras += f", {self.gpus} GPUs, chain layout, peer access {'on' if self.peer_access else 'off'}"
        return (
            f"{format_size(self.size_bytes)}, {streams} x {count_text(self.chunks, 'chunk')}, {self.memory.value},"
            f" {self.order.value}, {work}{extras}"
        )


_ENUM_FIELDS: dict[str, type[StrEnum]] = {
    "memory": HostMemory,
    "order": IssueOrder,
    "stream_kind": StreamKind,
    "kernel": KernelKind,
    "host_alloc": HostAlloc,
    "gpu_layout": GpuLayout,
}


def _coerce_enum(name: str, enum: type[StrEnum], value: object) -> StrEnum:
    try:
        return enum(str(value)) if not isinstance(value, enum) else value
    except ValueError:
        allowed = ", ".join(member.value for member in enum)
        raise ConfigError(name, f"{value!r} is not one of: {allowed}") from None


def _check_int(name: str, value: object, low: int, high: int, show: Any = str) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(name, f"must be a whole number, got {value!r}")
    if not low <= value <= high:
        shown = show(value) if abs(value) <= 2**63 else _shown(value)  # no float overflow, no 400-digit line
        raise ConfigError(name, f"{shown} is out of range; allowed {show(low)} to {show(high)}")


def _plain(value: object) -> object:
    return value.value if isinstance(value, StrEnum) else value


_SIZE_UNITS = {
    "": 1, "b": 1,
    "k": KIB, "kb": 1000, "kib": KIB,
    "m": MIB, "mb": 1000**2, "mib": MIB,
    "g": GIB, "gb": 1000**3, "gib": GIB,
}
# ASCII digits only: Python's \d and int() also take other scripts' digits ("１６", "٣٤").
_SIZE_PATTERN = re.compile(r"^\s*([0-9]+(?:\.[0-9]+)?)\s*([a-zA-Z]{0,3})\s*$", re.ASCII)
_MAX_COUNT_DIGITS = 18  # any count past this is far out of every range, and stays an int64
_MAX_SIZE_DIGITS = 30  # far past any size allowed: the range check then speaks of bytes, not digits


def parse_size(text: str) -> int:
    """Parse ``256MiB``, ``1GiB``, ``64k`` or a plain byte count into bytes.

    The arithmetic is exact (fractions, not floats), so ``1.0000000000000001GiB`` is refused
    as not a whole number of bytes instead of being read as 1 GiB, and no value, however
    long, overflows.
    """
    match = _SIZE_PATTERN.match(str(text))
    unit = match.group(2).lower() if match else ""
    if not match or unit not in _SIZE_UNITS:
        raise ConfigError("size", f"{_shown(text)} is not a size; write e.g. 256MiB, 1GiB or 1048576")
    if len(match.group(1)) > _MAX_SIZE_DIGITS:
        raise ConfigError("size", f"{_shown(text)} is far too large; at most {format_size(MAX_SIZE_BYTES)}")
    value = Fraction(match.group(1)) * _SIZE_UNITS[unit]
    if value.denominator != 1:
        raise ConfigError("size", f"{_shown(text)} is not a whole number of bytes")
    return int(value)


def parse_count(text: str, field: str) -> int:
    """A whole number written in ASCII digits (an optional sign), as the CLI and presets take counts."""
    match = re.fullmatch(r"\s*([-+]?)([0-9]+)\s*", str(text), re.ASCII)
    if not match:
        raise ConfigError(field, f"{_shown(text)} is not a whole number")
    if len(match.group(2).lstrip("0")) > _MAX_COUNT_DIGITS:
        raise ConfigError(field, f"{_shown(text)} is far too large")
    return int(match.group(1) + match.group(2))


def _shown(text: object, limit: int = 40) -> str:
    """`text` quoted for a message, cut short: a message stays one readable line."""
    if isinstance(text, int) and text.bit_length() > 128:  # str() of a huge int is slow, or refused
        return f"a number of about {int(text.bit_length() * 0.30103)} digits"
    shown = repr(str(text))
    return shown if len(shown) <= limit else shown[: limit - 4] + "...'"


def format_size(n_bytes: object) -> str:
    """``268435456`` -> ``256 MiB``; exact binary units where they fit."""
    if not isinstance(n_bytes, int):
        return str(n_bytes)
    for unit, scale in (("GiB", GIB), ("MiB", MIB), ("KiB", KIB)):
        if n_bytes >= scale:
            value = n_bytes / scale
            return f"{value:g} {unit}" if value == int(value) else f"{value:.3g} {unit}"
    return f"{n_bytes} B"

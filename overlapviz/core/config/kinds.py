"""The named choices of a pipeline setting, and which host memory kinds allow what."""

from __future__ import annotations

from enum import StrEnum


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


def allowed_text(kinds: frozenset[HostMemory]) -> str:
    """The memory kinds of `kinds` as a message lists them: sorted, comma-separated."""
    return ", ".join(sorted(m.value for m in kinds))

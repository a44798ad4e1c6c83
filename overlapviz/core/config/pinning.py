"""The guard against pinning too much host memory, shared by every backend.

Pinned (page-locked) pages stay in RAM until they are freed: the operating system can
neither swap them out nor move them. Pin most of the RAM and the system, and every other
program on it, runs out of memory it can reclaim. So a request that would pin more than a
share of the RAM is refused, with a message that says why. The share is 50% unless the
environment variable ``OVERLAPVIZ_PINNED_SHARE`` gives another (a number above 0, at most 1).
"""

from __future__ import annotations

import os

from overlapviz.core.config import GIB, HostMemory, PipelineConfig
from overlapviz.core.i18n import _

DEFAULT_PINNED_SHARE = 0.5
PINNED_SHARE_ENV = "OVERLAPVIZ_PINNED_SHARE"
HOST_BUFFERS = ("input", "output")  # the pipeline's two host buffers, each `size_bytes`
# Kinds whose two host buffers are page-locked: allocated pinned (cudaMallocHost, or
# cudaHostAlloc with the write-combined or mapped flag) or pinned after the fact
# (cudaHostRegister). Managed memory is not: the driver migrates its pages.
PINNED_BUFFER_MEMORIES = frozenset({
    HostMemory.PINNED, HostMemory.REGISTERED, HostMemory.WRITE_COMBINED, HostMemory.MAPPED,
})


class PinnedMemoryRefused(ValueError):
    """A request to pin host memory was refused to protect the machine; the message says why."""


def configured_pinned_share() -> float:
    """Return the share of RAM that may be pinned: ``$OVERLAPVIZ_PINNED_SHARE``, else 0.5.

    Raises
    ------
    ValueError
        The variable is set to something that is not a number above 0 and at most 1.
    """
    text = os.environ.get(PINNED_SHARE_ENV, "").strip()
    if not text:
        return DEFAULT_PINNED_SHARE
    try:
        share = float(text)
    except ValueError:
        share = float("nan")
    if not 0.0 < share <= 1.0:  # also false for NaN
        message = _("{variable}={value} is not a number above 0 and at most 1 (e.g. 0.5)")
        raise ValueError(message.format(variable=PINNED_SHARE_ENV, value=repr(text)))
    return share


def pipeline_pinned_bytes(config: PipelineConfig) -> int:
    """Host bytes `config` keeps page-locked while it runs: what the guard counts, and the RAM-pinned metric.

    Both host buffers for the kinds that pin them (`PINNED_BUFFER_MEMORIES`); for a staging
    ring only its slots, each an input and an output buffer of the largest chunk; nothing for
    pageable and managed memory.
    """
    if config.memory in PINNED_BUFFER_MEMORIES:
        return len(HOST_BUFFERS) * config.size_bytes
    if config.uses_ring:
        return config.ring_slots_used * len(HOST_BUFFERS) * config.chunk_bytes_of(config.chunks - 1)
    return 0


def check_pinned_request(n_bytes: int, available_bytes: int, share: float | None = None) -> None:
    """Refuse to pin `n_bytes` when that is more than `share` of `available_bytes` of RAM.

    Parameters
    ----------
    n_bytes
        Everything the request would pin (all of its buffers together).
    available_bytes
        The RAM the request may draw on.
    share
        The largest share of `available_bytes` that may be pinned; None for
        `configured_pinned_share()`.

    Raises
    ------
    PinnedMemoryRefused
        The request is too large; the message gives both sizes in GiB, the share, and why.
    ValueError
        `share` is not above 0 and at most 1, or ``OVERLAPVIZ_PINNED_SHARE`` is malformed.
    """
    share = configured_pinned_share() if share is None else share
    if not 0.0 < share <= 1.0:
        raise ValueError(f"the pinned-memory share must be above 0 and at most 1, not {share}")
    limit = share * available_bytes
    if n_bytes <= limit:
        return
    message = _(
        "refusing to pin {size} of host memory: that is more than {share} of the {available} of RAM available"
        " (at most {limit}). Pinned pages cannot be swapped out, so pinning that much would starve the operating"
        " system and every other program of memory. Use a smaller size or pageable memory, or raise the share"
        " with {variable}."
    )
    raise PinnedMemoryRefused(
        message.format(
            size=gib(n_bytes), share=f"{share:.0%}", available=gib(available_bytes), limit=gib(limit),
            variable=PINNED_SHARE_ENV,
        )
    )  # fmt: skip


def gib(n_bytes: float) -> str:
    """Bytes in GiB with up to two decimals: ``64 GiB``, ``62.5 GiB``, ``0.25 GiB``."""
    text = f"{n_bytes / GIB:.2f}".rstrip("0").rstrip(".")
    return f"{text} GiB"

"""Refuse to pin more host memory than the machine can spare (the real GPU's side of it).

The rule and its message are `overlapviz.core.config.pinning`'s, shared with the model: a request
that would take the pinned total past a share of the RAM (by default half) is refused,
because pinned pages cannot be swapped out and pinning most of the RAM starves the system.
Here the RAM is what the system reports as available now, plus what this process already
pins (that memory is no longer "available", but it is ours to count).
"""

from __future__ import annotations

import os
from typing import Any

from overlapviz.core.config import format_size
from overlapviz.core.config.pinning import PINNED_SHARE_ENV, check_pinned_request, configured_pinned_share
from overlapviz.core.files import posix
from overlapviz.core.run_errors import BackendError
from overlapviz.core.system_memory import available_memory_bytes as available_ram
from overlapviz.core.system_memory import parse_meminfo

__all__ = [
    "PINNED_SHARE_ENV", "HostMemoryRefused", "PinRefused", "available_ram", "check_host_request",
    "check_pin_request", "parse_meminfo", "pin_share",
]  # fmt: skip
# Host memory a run may take of the RAM available: the rest is left to the system and the
# app, so that a huge pageable pipeline is refused instead of pushing the machine into swap.
HOST_SHARE = 0.9


class PinRefused(BackendError):
    """A pinned allocation was refused to protect the machine; the message says why."""


class HostMemoryRefused(BackendError):
    """A run's host buffers would not fit in the RAM available; the message says why."""


def pin_share(value: float | None = None) -> float:
    """The share of RAM that may be pinned: `value`, else $OVERLAPVIZ_PINNED_SHARE, else 0.5."""
    try:
        share = configured_pinned_share() if value is None else value
    except ValueError as error:
        raise BackendError(str(error)) from None
    if not 0.0 < share <= 1.0:
        raise BackendError(f"the pinned-memory share must be above 0 and at most 1, not {share}")
    return share


def check_pin_request(request: int, held: int, available: int | None, share: float) -> None:
    """Raise `PinRefused` if pinning `request` more bytes would exceed `share` of the RAM.

    `held` is what this process already pins; `available` is the RAM the system reports as
    available, or None when it cannot tell, in which case nothing is refused.
    """
    if available is None:
        return
    try:
        check_pinned_request(held + request, available + held, share)
    except ValueError as error:
        raise PinRefused(str(error)) from None


def check_host_request(request: int, replaced: int, available: int | None) -> None:
    """Raise `HostMemoryRefused` if `request` bytes of host memory would not fit in the RAM.

    `replaced` is what the buffers to be replaced hold now (freed before the new ones are
    allocated); `available` is the RAM the system reports as available, or None when it
    cannot tell, in which case nothing is refused.
    """
    if available is None:
        return
    limit = int(HOST_SHARE * (available + replaced))
    if request > limit:
        raise HostMemoryRefused(
            f"refusing to allocate {format_size(request)} of host memory for this run: only"
            f" {format_size(available + replaced)} of RAM is available, and a run may take at most"
            f" {HOST_SHARE:.0%} of it ({format_size(limit)}). Use a smaller size."
        )


def total_ram() -> int:
    """The RAM of the machine, in bytes; 0 when it cannot be read."""
    if posix.available():
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    psutil = _psutil()
    return 0 if psutil is None else int(psutil.virtual_memory().total)


def _psutil() -> Any:
    try:
        import psutil  # optional; Windows and macOS have no /proc, Windows no sysconf
    except ImportError:
        return None
    return psutil

"""Copy bandwidth by transfer size, as the model gives it.

Each point is one copy alone on an idle link, costed by the same function the model uses
for every copy of a pipeline (`overlapviz.backends.sim.ops.copy_ns`): a fixed cost per copy
plus the bytes at the link's rate (pinned, registered), at the driver's staged rate
(pageable) or at write-combined memory's own measured rates. So small copies lose to the
fixed cost, large pinned ones approach the rate the profile measured, and pageable ones
level off far below it. The link's theoretical limit is
profile data (`DeviceProfile.link_peak_gbps`).
"""

from __future__ import annotations

from collections.abc import Sequence

from overlapviz.backends.base import SWEEP_MEMORY_KINDS, SWEEP_SIZES, BandwidthPoint
from overlapviz.backends.sim.ops import copy_ns
from overlapviz.backends.sim.profile import DeviceProfile
from overlapviz.core.config import HostMemory
from overlapviz.core.trace.spans import OpKind

DIRECTIONS = {"h2d": OpKind.H2D, "d2h": OpKind.D2H}


def bandwidth_sweep(
    profile: DeviceProfile,
    sizes: Sequence[int] = SWEEP_SIZES,
    kinds: Sequence[str] | None = None,
) -> list[BandwidthPoint]:
    """Return the bandwidth of one H2D and one D2H copy of every size, for every memory kind.

    Points come per kind, then per size, H2D before D2H. Without `kinds`, the sweep's kinds
    the profile has rates for (`sweep_kinds`).

    Raises
    ------
    ValueError
        A size is not a positive whole number of bytes, or a kind is not a host-memory kind.
    """
    memories = [_memory(kind) for kind in (sweep_kinds(profile) if kinds is None else kinds)]
    for size in sizes:
        if isinstance(size, bool) or not isinstance(size, int) or size <= 0:
            raise ValueError(f"transfer size {size!r} is not a positive whole number of bytes")
    points: list[BandwidthPoint] = []
    for memory in memories:
        for size in sizes:
            for direction, kind in DIRECTIONS.items():
                ns = copy_ns(kind, memory, size, profile)
                points.append(BandwidthPoint(size=size, memory=memory.value, direction=direction,
                                             gbps=size / ns, seconds=ns / 1e9))
    return points


def sweep_kinds(profile: DeviceProfile) -> tuple[str, ...]:
    """`SWEEP_MEMORY_KINDS` less write-combined memory where the profile has no rates for it."""
    if profile.host_kinds is not None:
        return SWEEP_MEMORY_KINDS
    return tuple(kind for kind in SWEEP_MEMORY_KINDS if kind != HostMemory.WRITE_COMBINED.value)


def _memory(kind: str) -> HostMemory:
    try:
        return HostMemory(kind)
    except ValueError:
        allowed = ", ".join(m.value for m in HostMemory)
        raise ValueError(f"memory kind {kind!r} is not one of: {allowed}") from None

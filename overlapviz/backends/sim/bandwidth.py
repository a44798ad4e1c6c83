"""Copy bandwidth by transfer size, as the model gives it.

Each point is one copy alone on an idle link, costed by the same function the model uses
for every copy of a pipeline (`overlapviz.backends.sim.ops.copy_ns`): a fixed cost per copy
plus the bytes at the link's rate (pinned, registered) or at the driver's staged rate
(pageable). So small copies lose to the fixed cost, large pinned ones approach the rate the
profile measured, and pageable ones level off far below it. The link's theoretical limit is
profile data (`DeviceProfile.link_peak_gbps`).
"""

from __future__ import annotations

from collections.abc import Sequence

from overlapviz.backends.base import SWEEP_MEMORY_KINDS, SWEEP_SIZES, BandwidthPoint
from overlapviz.backends.sim.ops import copy_ns
from overlapviz.backends.sim.profile import DeviceProfile
from overlapviz.core.config import HostMemory
from overlapviz.core.trace import OpKind

DIRECTIONS = {"h2d": OpKind.H2D, "d2h": OpKind.D2H}


def bandwidth_sweep(
    profile: DeviceProfile,
    sizes: Sequence[int] = SWEEP_SIZES,
    kinds: Sequence[str] = SWEEP_MEMORY_KINDS,
) -> list[BandwidthPoint]:
    """Return the bandwidth of one H2D and one D2H copy of every size, for every memory kind.

    Points come per kind, then per size, H2D before D2H.

    Raises
    ------
    ValueError
        A size is not a positive whole number of bytes, or a kind is not a host-memory kind.
    """
    memories = [_memory(kind) for kind in kinds]
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


def _memory(kind: str) -> HostMemory:
    try:
        return HostMemory(kind)
    except ValueError:
        allowed = ", ".join(m.value for m in HostMemory)
        raise ValueError(f"memory kind {kind!r} is not one of: {allowed}") from None

"""A rank's run in coarse time buckets, by what ran: compute, communication, copies, idle.

What the rank overview draws, one row per rank: a few hundred numbers instead of the
rank's spans. Each bucket holds the share of its time that the union of each kind's spans
covers (two kernels side by side count once); idle is the share no device op covers.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from overlapviz.core.analysis.intervals import covered_ns, union_intervals
from overlapviz.core.trace.spans import OpKind, Trace

BUCKETS = 256
BUCKET_KINDS: dict[str, tuple[OpKind, ...]] = {
    "compute": (OpKind.KERNEL, OpKind.MEMSET),
    "communication": (OpKind.COMMUNICATION,),
    "copies": (OpKind.H2D, OpKind.D2H, OpKind.D2D, OpKind.PEER, OpKind.PREFETCH, OpKind.MIGRATION),
}


@dataclass(frozen=True, slots=True, eq=False)
class TimeBuckets:
    """Equal buckets from `start_ns` (on the file's clock), each `bucket_ns` long."""

    start_ns: int
    bucket_ns: int
    shares: dict[str, npt.NDArray[np.float32]]  # kind -> the share of each bucket covered; "idle" too

    @property
    def end_ns(self) -> int:
        """Where the last bucket ends, on the file's clock."""
        return self.start_ns + self.bucket_ns * len(next(iter(self.shares.values())))


def device_span(trace: Trace) -> tuple[int, int]:
    """The first device op's start and the last one's end, in the trace's times; (0, 0) without device ops.

    The first op, not the trace's time 0: a profiler writes host events long before any GPU
    work, and the job's span and the overview start where the GPUs do.
    """
    device = trace.device_mask
    if not device.any():
        return 0, 0
    return int(trace["start_ns"][device].min()), int(trace["end_ns"][device].max())


def time_buckets(trace: Trace, origin_ns: int, count: int = BUCKETS) -> TimeBuckets:
    """`count` buckets over the device's time of `trace` (whose time 0 was `origin_ns`)."""
    device = trace.device_mask
    first, last = device_span(trace)
    last = max(last, first + 1)
    width = max(1, -(-(last - first) // count))
    edges = first + width * np.arange(count + 1, dtype=np.int64)
    shares = {kind: _shares(trace, trace.mask(*kinds), edges) for kind, kinds in BUCKET_KINDS.items()}
    shares["idle"] = (1.0 - _shares(trace, device, edges)).astype(np.float32)
    return TimeBuckets(first + origin_ns, width, shares)


def _shares(trace: Trace, rows: npt.NDArray[np.bool_], edges: npt.NDArray[np.int64]) -> npt.NDArray[np.float32]:
    union_s, union_e = union_intervals(trace["start_ns"][rows], trace["end_ns"][rows])
    covered = covered_ns(union_s, union_e, edges[:-1], edges[1:])
    return (covered / np.diff(edges)).astype(np.float32)

"""The numbers of one run, computed from its trace alone.

All times are integer nanoseconds; `Metrics.to_dict` gives milliseconds.

- makespan: from the first device op's start to the last device op's end.
- serial: the sum of the device ops' durations, i.e. the run with nothing overlapped.
- busy per kind (``h2d``, ``kernel``, ``d2h``): the summed durations of that kind's ops.
- utilisation per kind: the share of the makespan during which at least one op of that kind
  ran. It equals busy / makespan whenever a kind's ops never overlap each other (copies on an
  engine never do); kernels running side by side count once, so it never exceeds 1.
- speedup: serial / makespan.
- bandwidth per direction: the direction's bytes over its busy time (GB/s, 1e9 bytes/s).
- ideal: a lower bound on the makespan for these ops. A pipeline cannot finish before its
  busiest stage has done all its work, and that stage cannot start before the shortest op of
  every earlier stage has run (fill) nor finish before the shortest op of every later stage
  has run after it (drain). With two or more copy engines, for each stage s of
  (H2D, kernel, D2H)::

      bound(s) = sum(durations of s) + sum over the other stages t of min(durations of t)
      ideal    = max over s of bound(s)

  With one copy engine, H2D and D2H copies share it::

      ideal = max(sum(H2D) + sum(D2H), sum(kernel) + min(H2D) + min(D2H))

  A stage with no ops adds nothing. The ideal never exceeds serial; with one chunk it
  equals serial.
- overlap achieved: (serial - makespan) / (serial - ideal) * 100, the share of the possible
  saving that the run realised; None when serial == ideal (nothing could overlap, e.g. one
  chunk). Nothing is clamped: it is negative when the device sat idle so long that the run
  took longer than its ops back to back, and it can exceed 100 when the run beat the bound
  (kernels of different streams sharing the SMs run faster together than their summed
  durations suggest).
- host blocked: for every host API call that issued a device op, the part of the call during
  which its own op was already running on the device, ``max(0, end - max(start, op.start))``:
  the host waited for the device. Summed over the calls.
- host issue: the host's time spent issuing work: each issuing call and the caller's own code
  up to the next issuing call, less the part of the call spent blocked. Calls that copy
  pageable memory are left out: they wait for their stream and their copy, which is the host
  blocked, not the cost of issuing.
- wall: from the first span's start to the last span's end, host calls included: with a host
  lane, from the program's first call (an allocation, when it allocates inside the run) to
  the end of its final synchronize or free, i.e. what the user's program waits for. Without
  host spans it equals the makespan.
- host alloc: the time the host thread spent getting and giving back host memory: in the
  calls named in `ALLOCATION_CALLS` (``cudaMallocHost``, ``cudaFreeHost``,
  ``cudaHostRegister``, ``malloc``, the first touch of fresh pages, ``free``, ...; CUPTI's
  ``_v3020``-style suffixes are ignored). Nested calls (a runtime call and the driver call
  inside it) count once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from overlapviz.core.trace import DEVICE_KINDS, MemoryKind, OpKind, Trace

STAGE_KEYS: dict[OpKind, str] = {OpKind.H2D: "h2d", OpKind.KERNEL: "kernel", OpKind.D2H: "d2h"}
COPY_KINDS = (OpKind.H2D, OpKind.D2H)
NS_PER_MS = 1_000_000
# Host spans that get or give back host memory. "first touch" is the host writing to fresh
# pageable pages, which is when the OS actually hands them over (malloc only reserves them).
ALLOCATION_CALLS = frozenset({
    "cudaMallocHost", "cudaHostAlloc", "cudaFreeHost", "cudaHostRegister", "cudaHostUnregister",
    "cuMemAllocHost", "cuMemHostAlloc", "cuMemFreeHost", "cuMemHostRegister", "cuMemHostUnregister",
    "malloc", "free", "first touch",
})
_API_VERSION_SUFFIX = re.compile(r"_v\d+$")  # CUPTI names calls like cudaMallocHost_v3020

IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True, slots=True)
class Metrics:
    """The headline numbers of one run (times in integer ns)."""

    makespan_ns: int
    serial_ns: int
    ideal_ns: int
    overlap_pct: float | None
    speedup: float
    busy_ns: dict[str, int]
    utilisation: dict[str, float]
    host_blocked_ns: int
    bandwidth_gbps: dict[str, float | None]
    host_issue_ns: int
    wall_ns: int
    host_alloc_ns: int

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready values, times in milliseconds."""
        return {
            "makespan_ms": ns_to_ms(self.makespan_ns),
            "serial_ms": ns_to_ms(self.serial_ns),
            "ideal_ms": ns_to_ms(self.ideal_ns),
            "overlap_pct": self.overlap_pct,
            "speedup": self.speedup,
            "host_blocked_ms": ns_to_ms(self.host_blocked_ns),
            "busy_ms": {key: ns_to_ms(value) for key, value in self.busy_ns.items()},
            "utilisation": dict(self.utilisation),
            "bandwidth_gbps": dict(self.bandwidth_gbps),
            "host_issue_ms": ns_to_ms(self.host_issue_ns),
            "wall_ms": ns_to_ms(self.wall_ns),
            "host_alloc_ms": ns_to_ms(self.host_alloc_ns),
        }


def ns_to_ms(ns: int) -> float:
    """Nanoseconds as milliseconds (rounded to the nanosecond to drop float noise)."""
    return round(ns / NS_PER_MS, 6)


def compute_metrics(trace: Trace) -> Metrics:
    """Compute every metric of `trace` (see the module docstring for the definitions)."""
    makespan = makespan_ns(trace)
    serial = int(trace.duration_ns[trace.device_mask].sum())
    ideal = ideal_bound_ns(trace)
    busy = {key: busy_ns(trace, kind) for kind, key in STAGE_KEYS.items()}
    blocked = host_blocked_per_row(trace)
    issuing = issuing_calls(trace)
    return Metrics(
        makespan_ns=makespan,
        serial_ns=serial,
        ideal_ns=ideal,
        overlap_pct=None if serial == ideal else (serial - makespan) / (serial - ideal) * 100,
        speedup=serial / makespan if makespan > 0 else 1.0,
        busy_ns=busy,
        utilisation={key: _share(covered_total_ns(trace, k), makespan) for k, key in STAGE_KEYS.items()},
        host_blocked_ns=int(blocked.sum()),
        bandwidth_gbps={STAGE_KEYS[kind]: direction_bandwidth_gbps(trace, kind) for kind in COPY_KINDS},
        host_issue_ns=host_issue_ns(trace, np.flatnonzero(issuing & ~pageable_copy_calls(trace))),
        wall_ns=wall_ns(trace),
        host_alloc_ns=host_alloc_ns(trace),
    )


def makespan_ns(trace: Trace) -> int:
    """First device op's start to last device op's end; 0 with no device ops."""
    device = trace.device_mask
    if not device.any():
        return 0
    return int(trace["end_ns"][device].max() - trace["start_ns"][device].min())


def wall_ns(trace: Trace) -> int:
    """First span's start to last span's end, host spans included; 0 for an empty trace."""
    if len(trace) == 0:
        return 0
    return int(trace["end_ns"].max() - trace["start_ns"].min())


def allocation_calls(trace: Trace) -> npt.NDArray[np.bool_]:
    """Host spans that get or give back host memory (see `ALLOCATION_CALLS`)."""
    is_alloc = np.array([_API_VERSION_SUFFIX.sub("", name) in ALLOCATION_CALLS for name in trace.names], dtype=bool)
    if is_alloc.size == 0:
        return np.zeros(len(trace), dtype=bool)
    calls: npt.NDArray[np.bool_] = (trace["kind"] == OpKind.API) & is_alloc[trace["name"]]
    return calls


def host_alloc_ns(trace: Trace) -> int:
    """Time the host spent in allocation and free calls (nested calls count once)."""
    rows = allocation_calls(trace)
    starts, ends = union_intervals(trace["start_ns"][rows], trace["end_ns"][rows])
    return int((ends - starts).sum())


def busy_ns(trace: Trace, kind: OpKind) -> int:
    """Sum the durations of the ops of `kind`."""
    return int(trace.duration_ns[trace.mask(kind)].sum())


def covered_total_ns(trace: Trace, *kinds: OpKind) -> int:
    """Time during which at least one op of `kinds` ran (overlapping ops count once)."""
    rows = trace.mask(*kinds)
    starts, ends = union_intervals(trace["start_ns"][rows], trace["end_ns"][rows])
    return int((ends - starts).sum())


def ideal_bound_ns(trace: Trace) -> int:
    """Compute the lower bound on the makespan described in the module docstring."""
    durations = trace.duration_ns
    per_stage = [durations[trace.mask(kind)] for kind in STAGE_KEYS]
    sums = [int(d.sum()) for d in per_stage]
    mins = [int(d.min()) if d.size else 0 for d in per_stage]
    if trace.copy_engines < 2:
        h2d, kernel, d2h = 0, 1, 2
        return max(sums[h2d] + sums[d2h], sums[kernel] + mins[h2d] + mins[d2h])
    return max(sums[s] + sum(mins) - mins[s] for s in range(len(per_stage)))


def issuing_calls(trace: Trace) -> npt.NDArray[np.bool_]:
    """Host API spans that issued a device op (their `op` points at a copy or kernel row)."""
    op = trace["op"]
    linked = (trace["kind"] == OpKind.API) & (op >= 0) & (op < len(trace))
    target = np.where(linked, op, 0)
    issued: npt.NDArray[np.bool_] = linked & np.isin(trace["kind"][target], [int(k) for k in DEVICE_KINDS])
    return issued


def pageable_copy_calls(trace: Trace) -> npt.NDArray[np.bool_]:
    """Issuing calls whose op is a copy from or to pageable host memory."""
    calls = issuing_calls(trace)
    target = np.where(calls, trace["op"], 0)
    pageable: npt.NDArray[np.bool_] = calls & (trace["memory"][target] == MemoryKind.PAGEABLE)
    return pageable


def host_issue_ns(trace: Trace, calls: npt.NDArray[np.intp]) -> int:
    """Host time spent issuing `calls`: each call and the caller's own code up to the next issuing call.

    The time a call spent blocked (its op already running) is not issuing; nor is the time
    after the last issuing call.
    """
    if calls.size == 0:
        return 0
    every = np.flatnonzero(issuing_calls(trace))
    every = every[np.argsort(trace["start_ns"][every], kind="stable")]
    next_start = np.empty(len(trace), dtype=np.int64)
    next_start[every[:-1]] = trace["start_ns"][every[1:]]
    next_start[every[-1:]] = trace["end_ns"][every[-1:]]
    spent = next_start[calls] - trace["start_ns"][calls] - host_blocked_per_row(trace)[calls]
    return int(np.maximum(spent, 0).sum())


def host_blocked_per_row(trace: Trace) -> IntArray:
    """Per row: how long an issuing call waited while its own op ran; 0 for other rows."""
    blocked = np.zeros(len(trace), dtype=np.int64)
    calls = np.flatnonzero(issuing_calls(trace))
    op_start = trace["start_ns"][trace["op"][calls]]
    since = np.maximum(trace["start_ns"][calls], op_start)
    blocked[calls] = np.maximum(0, trace["end_ns"][calls] - since)
    return blocked


def direction_bandwidth_gbps(trace: Trace, kind: OpKind) -> float | None:
    """Bytes of the copies of `kind` over their busy time, in GB/s; None with no copy time."""
    rows = trace.mask(kind)
    busy = int(trace.duration_ns[rows].sum())
    if busy <= 0:
        return None
    return float(trace["bytes"][rows].sum()) / busy  # bytes per ns is GB/s


def copy_bandwidth_gbps(trace: Trace) -> npt.NDArray[np.float64]:
    """Each row's copy bandwidth in GB/s; NaN for kernels, host spans and instant copies."""
    bandwidth = np.full(len(trace), np.nan)
    durations = trace.duration_ns
    copies = trace.mask(*COPY_KINDS) & (durations > 0)
    bandwidth[copies] = trace["bytes"][copies] / durations[copies]
    return bandwidth


def union_intervals(starts: npt.ArrayLike, ends: npt.ArrayLike) -> tuple[IntArray, IntArray]:
    """Merge intervals into sorted, disjoint ones (touching intervals join)."""
    s = np.asarray(starts, dtype=np.int64)
    e = np.asarray(ends, dtype=np.int64)
    if s.size == 0:
        return s.copy(), e.copy()
    order = np.argsort(s, kind="stable")
    s, e = s[order], e[order]
    reach = np.maximum.accumulate(e)
    # an interval opens a new piece when it starts after everything before it has ended
    opens = np.concatenate(([True], s[1:] > reach[:-1]))
    first = np.flatnonzero(opens)
    last = np.concatenate((first[1:] - 1, [s.size - 1]))
    return s[first], reach[last]


def covered_ns(union_starts: IntArray, union_ends: IntArray, a: npt.ArrayLike, b: npt.ArrayLike) -> IntArray:
    """For each window [a, b], how much of it the disjoint sorted union covers."""
    return _covered_until(union_starts, union_ends, b) - _covered_until(union_starts, union_ends, a)


def _covered_until(union_starts: IntArray, union_ends: IntArray, t: npt.ArrayLike) -> IntArray:
    """Covered time before each instant `t` (vectorised over `t`)."""
    t = np.asarray(t, dtype=np.int64)
    if union_starts.size == 0:
        return np.zeros(t.shape, dtype=np.int64)
    before = np.concatenate(([0], np.cumsum(union_ends - union_starts)))
    k = np.searchsorted(union_starts, t, side="right")  # pieces that start at or before t
    inside = np.where(k > 0, np.minimum(t, union_ends[k - 1]) - union_starts[k - 1], 0)
    covered: IntArray = before[np.maximum(k - 1, 0)] + np.maximum(inside, 0)
    return covered


def _share(part: int, whole: int) -> float:
    return part / whole if whole > 0 else 0.0

"""The numbers of one run, computed from its trace alone.

All times are integer nanoseconds; `Metrics.to_dict` gives milliseconds. docs/metrics.md
explains each with a worked example; `METRIC_DEFINITIONS` holds the one-line definitions that
tooltips and ``--help`` show.

- makespan: from the first device op's start to the last device op's end.
- serial: the sum of the device ops' durations, i.e. the run with nothing overlapped.
- busy per kind (``h2d``, ``kernel``, ``d2h``, and ``communication`` in a trace that has
  any): the summed durations of that kind's ops.
- utilisation per kind: the share of the makespan during which at least one op of that kind
  ran (kernels running side by side count once, so it never exceeds 1).
- copy time hidden: of all the time copies ran, the share during which some compute kernel
  ran too (against the union of the kernel intervals; NCCL's kernels are communication, not
  compute). What overlap is for: a copy under a kernel costs nothing. None without copies.
- communication hidden: of the time communication ran (the union of its spans), the share
  during which some compute kernel ran too: what HTA calls computation-communication overlap.
  None without communication.
- engines busy together: the share of the makespan during which two or more engines were
  busy at once, of the H2D engine, the compute unit, the D2H engine and, in a trace that has
  any, communication (one copy engine carrying both directions counts as one engine). A
  managed prefetch keeps the copy engine of its direction busy like a copy, but its bytes are
  never H2D or D2H copy bytes.
- lower bound: what any chunking and issue order of the same work could reach at best: the
  busiest engine's busy time (with one copy engine, the H2D and D2H copies add up).
- efficiency: lower bound / makespan, 0-100 %.
- time saved: serial - makespan (negative when the run took longer than its ops back to
  back); speedup: serial / makespan.
- best for this chunking: a tighter bound for these very ops, with the fill and drain that
  the chunking forces (see `chunking_bound_ns`); the too-few-chunks finding measures from it.
- bandwidth per direction: the direction's bytes over its busy time (GB/s, 1e9 bytes/s);
  None (unknown) where the trace records no bytes for that direction's copies.
- migrations per direction (``h2d``, ``d2h``): the unified-memory migrations the driver made,
  their count, summed time and bytes (`overlapviz.core.analysis.migrations`); transfers like the
  copies, but never counted as H2D or D2H copies.
- host blocked: for every host API call that issued a device op, the part of the call during
  which its own op was already running on the device, ``max(0, end - max(start, op.start))``:
  the host waited for the device. Summed over the calls.
- host issue: the host's time spent issuing work: each issuing call and the caller's own code
  up to the next issuing call, less the part of the call spent blocked, and less the host's
  own copies (a staging ring's) and the calls that issue nothing (an event synchronize)
  in between. Calls that copy
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
- RAM pinned: the host bytes the run kept page-locked (`overlapviz.core.config.pinning.
  pipeline_pinned_bytes` of the trace's config): both host buffers when they are pinned, a
  staging ring's slots only; None for a trace without a pipeline config (an imported one).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from overlapviz.core.analysis.busy_unions import COPY_KINDS as COPY_KINDS  # the findings read it from here
from overlapviz.core.analysis.busy_unions import engine_unions, kinds_union, union_length
from overlapviz.core.analysis.intervals import IntArray, at_least_two_ns, covered_ns, covered_sum_ns, union_ns
from overlapviz.core.analysis.issuing import host_blocked_ns, unpaged_issue_ns
from overlapviz.core.analysis.issuing import host_blocked_per_row as host_blocked_per_row  # read from here too
from overlapviz.core.analysis.issuing import host_issue_ns as host_issue_ns
from overlapviz.core.analysis.issuing import issuing_calls as issuing_calls
from overlapviz.core.analysis.issuing import pageable_copy_calls as pageable_copy_calls
from overlapviz.core.analysis.migrations import Moved, migrations_by_direction
from overlapviz.core.config import ConfigError, PipelineConfig
from overlapviz.core.config.pinning import pipeline_pinned_bytes
from overlapviz.core.i18n import N_, TranslatedTable
from overlapviz.core.trace.answer_cache import kept_per_trace, kept_per_trace_and_key, once_per_trace
from overlapviz.core.trace.spans import DEVICE_KINDS, OpKind, Trace

STAGE_KEYS: dict[OpKind, str] = {OpKind.H2D: "h2d", OpKind.KERNEL: "kernel", OpKind.D2H: "d2h"}
COMMUNICATION_KEY = "communication"  # busy and utilisation have it only where the trace has communication
NS_PER_MS = 1_000_000
# Host spans that get or give back host memory. "first touch" is the host writing to fresh
# pageable pages, which is when the OS actually hands them over (malloc only reserves them).
ALLOCATION_CALLS = frozenset({
    "cudaMallocHost", "cudaHostAlloc", "cudaFreeHost", "cudaHostRegister", "cudaHostUnregister",
    "cuMemAllocHost", "cuMemHostAlloc", "cuMemFreeHost", "cuMemHostRegister", "cuMemHostUnregister",
    "malloc", "free", "first touch",
})
_API_VERSION_SUFFIX = re.compile(r"_v\d+$")  # CUPTI names calls like cudaMallocHost_v3020

# One line per headline figure: the tooltips, `overlapviz run --help` and docs/metrics.md say these.
METRIC_DEFINITIONS = TranslatedTable({
    "copy_hidden": N_("share of all copy time during which some compute kernel ran too: copy time that cost nothing"),
    "comm_hidden": N_("share of the time communication (NCCL) ran during which some compute kernel ran too"),
    "engines_together": N_("share of the makespan with two or more of the H2D engine, compute and D2H engine busy"),
    "efficiency": N_(
        "lower bound / makespan: how close the run came to what any chunking and issue order could reach"
    ),
    "lower_bound": N_("the busiest engine's busy time (one copy engine: H2D and D2H add up): no schedule beats it"),
    "time_saved": N_("serial - makespan: what overlapping saved against running every op back to back"),
    "wall": N_("first host call to last, allocation included: what the program waited for"),
    "best_for_chunking": N_("the fill and drain bound of these very ops: the best this chunking allows"),
    "pinned": N_("host RAM the run kept page-locked: both buffers when pinned, only the slots of a staging ring"),
})
# Each defined figure's name, as docs/metrics.md, the panel's rows and the glossary write it.
FIGURE_NAMES = TranslatedTable({
    "copy_hidden": N_("copy time hidden"),
    "comm_hidden": N_("communication hidden"),
    "engines_together": N_("engines busy together"),
    "efficiency": N_("efficiency"),
    "lower_bound": N_("lower bound"),
    "time_saved": N_("time saved"),
    "wall": N_("wall"),
    "best_for_chunking": N_("best for this chunking"),
    "pinned": N_("RAM pinned"),
})


@dataclass(frozen=True, slots=True)
class Metrics:
    """The headline numbers of one run (times in integer ns; shares in percent, 0 to 100)."""

    makespan_ns: int
    serial_ns: int
    lower_bound_ns: int
    chunking_bound_ns: int
    copy_hidden_pct: float | None  # None without copies
    engines_together_pct: float
    efficiency_pct: float | None  # None without device ops
    speedup: float
    busy_ns: dict[str, int]  # summed durations per kind (side by side count twice); time covered is `utilisation`
    utilisation: dict[str, float]
    host_blocked_ns: int
    bandwidth_gbps: dict[str, float | None]
    host_issue_ns: int
    wall_ns: int
    host_alloc_ns: int
    pinned_bytes: int | None = None  # None without a pipeline config (an imported trace)
    comm_hidden_pct: float | None = None  # None without communication
    migrations: dict[str, Moved] = field(default_factory=dict)  # unified-memory migrations by direction

    @property
    def time_saved_ns(self) -> int:
        """Serial minus makespan: negative when the run took longer than its ops back to back."""
        return self.serial_ns - self.makespan_ns

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready values, times in milliseconds."""
        return {
            "makespan_ms": ns_to_ms(self.makespan_ns),
            "serial_ms": ns_to_ms(self.serial_ns),
            "lower_bound_ms": ns_to_ms(self.lower_bound_ns),
            "best_for_chunking_ms": ns_to_ms(self.chunking_bound_ns),
            "copy_hidden_pct": _rounded(self.copy_hidden_pct),
            "comm_hidden_pct": _rounded(self.comm_hidden_pct),
            "engines_together_pct": _rounded(self.engines_together_pct),
            "efficiency_pct": _rounded(self.efficiency_pct),
            "time_saved_ms": ns_to_ms(self.time_saved_ns),
            "speedup": self.speedup,
            "host_blocked_ms": ns_to_ms(self.host_blocked_ns),
            "busy_ms": {key: ns_to_ms(value) for key, value in self.busy_ns.items()},
            "utilisation": dict(self.utilisation),
            "bandwidth_gbps": dict(self.bandwidth_gbps),
            "host_issue_ms": ns_to_ms(self.host_issue_ns),
            "wall_ms": ns_to_ms(self.wall_ns),
            "host_alloc_ms": ns_to_ms(self.host_alloc_ns),
            "pinned_bytes": self.pinned_bytes,
            "migrations": {key: moved.to_dict() for key, moved in self.migrations.items()},
        }


def ns_to_ms(ns: int) -> float:
    """Nanoseconds as milliseconds (rounded to the nanosecond to drop float noise)."""
    return round(ns / NS_PER_MS, 6)


def compute_metrics(trace: Trace) -> Metrics:
    """Compute every metric of `trace` (see the module docstring for the definitions)."""
    makespan = makespan_ns(trace)
    serial = sum(summed_ns(trace, kind) for kind in DEVICE_KINDS)  # each kind's durations are kept: no pass of all
    lower = lower_bound_ns(trace)
    kinds = busy_keys(trace)
    summed = {key: summed_ns(trace, kind) for kind, key in kinds.items()}
    return Metrics(
        makespan_ns=makespan,
        serial_ns=serial,
        lower_bound_ns=lower,
        chunking_bound_ns=chunking_bound_ns(trace),
        copy_hidden_pct=copy_hidden_pct(trace),
        engines_together_pct=100 * _share(engines_together_ns(trace), makespan),
        efficiency_pct=100 * min(1.0, lower / makespan) if makespan > 0 else None,
        speedup=serial / makespan if makespan > 0 else 1.0,
        busy_ns=summed,
        utilisation={key: _share(covered_total_ns(trace, k), makespan) for k, key in kinds.items()},
        host_blocked_ns=host_blocked_ns(trace),
        bandwidth_gbps={STAGE_KEYS[kind]: direction_bandwidth_gbps(trace, kind) for kind in COPY_KINDS},
        host_issue_ns=unpaged_issue_ns(trace),
        wall_ns=wall_ns(trace),
        host_alloc_ns=host_alloc_ns(trace),
        pinned_bytes=pinned_bytes(trace),
        comm_hidden_pct=comm_hidden_pct(trace),
        migrations=migrations_by_direction(trace),
    )


def busy_keys(trace: Trace) -> dict[OpKind, str]:
    """The kinds whose busy time and utilisation are given: the stages, and communication where there is any.

    Communication is left out of traces without it, so that their figures keep the keys they always had.
    """
    if not trace.mask(OpKind.COMMUNICATION).any():
        return STAGE_KEYS
    return {**STAGE_KEYS, OpKind.COMMUNICATION: COMMUNICATION_KEY}


def pinned_bytes(trace: Trace) -> int | None:
    """Host bytes the run kept page-locked, from its pipeline config; None without a valid one."""
    config = trace.meta.config
    if config is None:
        return None
    try:
        return pipeline_pinned_bytes(PipelineConfig.from_dict(dict(config)))
    except (ConfigError, TypeError, ValueError):
        return None


def copy_hidden_pct(trace: Trace) -> float | None:
    """Percent of the copies' summed duration during which at least one kernel ran; None without copies."""
    total = sum(summed_ns(trace, kind) for kind in COPY_KINDS)
    if total <= 0:
        return None
    copies = [trace.rows(kind) for kind in COPY_KINDS]
    hidden = covered_sum_ns(*compute_union(trace), [(trace["start_ns"][c], trace["end_ns"][c]) for c in copies])
    return 100 * hidden / total


def comm_hidden_pct(trace: Trace) -> float | None:
    """Percent of the time communication ran (its spans' union) during which a compute kernel ran; None without."""
    total, hidden = comm_time_ns(trace)
    return 100 * hidden / total if total > 0 else None


@kept_per_trace  # the metric, the finding and its callout each read it
def comm_time_ns(trace: Trace) -> tuple[int, int]:
    """The time communication ran (its spans' union), and how much of it some compute kernel ran under."""
    comm_s, comm_e = kinds_union(trace, OpKind.COMMUNICATION)
    union_s, union_e = compute_union(trace)
    return int((comm_e - comm_s).sum()), int(covered_ns(union_s, union_e, comm_s, comm_e).sum())


def compute_union(trace: Trace) -> tuple[IntArray, IntArray]:
    """When at least one compute kernel ran, as disjoint sorted intervals, read-only (communication is no compute)."""
    return kinds_union(trace, OpKind.KERNEL)


def engines_together_ns(trace: Trace) -> int:
    """Time during which two or more engines (see `busy_unions.engine_unions`) were busy at once."""
    return at_least_two_ns(list(engine_unions(trace)))


def lower_bound_ns(trace: Trace) -> int:
    """The busiest engine's busy time: no chunking or issue order of this work can finish sooner."""
    return max((union_length(union) for union in engine_unions(trace)), default=0)


def makespan_ns(trace: Trace) -> int:
    """First device op's start to last device op's end; 0 with no device ops."""
    ran_s, ran_e = kinds_union(trace, *DEVICE_KINDS)  # the findings read this union too
    return int(ran_e[-1] - ran_s[0]) if ran_s.size else 0


def wall_ns(trace: Trace) -> int:
    """First span's start to last span's end, host calls included; 0 for an empty trace.

    Annotation ranges are marks a program put around its work, not work: they do not count.
    """
    spans = ~trace.mask(OpKind.ANNOTATION)
    if not spans.any():
        return 0
    # reduced where the mask says, rather than over a copy of nearly every row
    last = trace["end_ns"].max(where=spans, initial=np.iinfo(np.int64).min)
    first = trace["start_ns"].min(where=spans, initial=np.iinfo(np.int64).max)
    return int(last - first)


@once_per_trace
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
    return union_ns(trace["start_ns"][rows], trace["end_ns"][rows])


def summed_ns(trace: Trace, kind: OpKind) -> int:
    """Sum the durations of the ops of `kind`."""
    return int(kind_durations(trace, kind).sum())


@kept_per_trace_and_key  # the busy times, the chunking bound and the bandwidths each read a stage's
def kind_durations(trace: Trace, kind: OpKind) -> IntArray:
    """The durations of the ops of `kind`, in row order (read-only)."""
    durations = trace.durations_of(trace.rows(kind))
    durations.flags.writeable = False
    return durations


def covered_total_ns(trace: Trace, *kinds: OpKind) -> int:
    """Time during which at least one op of `kinds` ran (overlapping ops count once)."""
    return union_length(kinds_union(trace, *kinds))


def covered_rows_ns(trace: Trace, rows: npt.NDArray[np.bool_]) -> int:
    """Time during which at least one of `rows` ran (overlapping spans count once)."""
    return union_ns(trace["start_ns"][rows], trace["end_ns"][rows])


def chunking_bound_ns(trace: Trace) -> int:
    """The best this chunking allows: the busiest stage plus the fill and drain it cannot avoid.

    A pipeline cannot finish before its busiest stage has done all its work, and that stage
    cannot start before the shortest op of every earlier stage has run (fill) nor finish before
    the shortest op of every later stage has run after it (drain). With two or more copy
    engines, for each stage s of (H2D, kernel, D2H)::

        bound(s) = sum(durations of s) + sum over the other stages t of min(durations of t)
        bound    = max over s of bound(s)

    With one copy engine, H2D and D2H copies share it::

        bound = max(sum(H2D) + sum(D2H), sum(kernel) + min(H2D) + min(D2H))

    A stage with no ops adds nothing. It never exceeds serial; with one chunk it equals serial.
    """
    per_stage = [kind_durations(trace, kind) for kind in STAGE_KEYS]
    sums = [int(d.sum()) for d in per_stage]
    mins = [int(d.min()) if d.size else 0 for d in per_stage]
    if trace.copy_engines < 2:
        h2d, kernel, d2h = 0, 1, 2
        return max(sums[h2d] + sums[d2h], sums[kernel] + mins[h2d] + mins[d2h])
    return max(sums[s] + sum(mins) - mins[s] for s in range(len(per_stage)))


def direction_bandwidth_gbps(trace: Trace, kind: OpKind) -> float | None:
    """Bytes of the copies of `kind` over their busy time, in GB/s.

    None with no copy time, and where the trace records no bytes for them (a ROCm trace may
    not): the rate is then unknown, not zero.
    """
    summed = int(kind_durations(trace, kind).sum())
    moved = float(trace["bytes"][trace.rows(kind)].sum())
    if summed <= 0 or moved <= 0:
        return None
    return moved / summed  # bytes per ns is GB/s


def copy_bandwidth_gbps(trace: Trace) -> npt.NDArray[np.float64]:
    """Each row's copy bandwidth in GB/s; NaN for kernels, host spans, instant copies and copies without bytes."""
    bandwidth = np.full(len(trace), np.nan)
    copies = np.flatnonzero(trace.mask(*COPY_KINDS))  # the durations of the copies only: they are few
    durations, moved = trace.durations_of(copies), trace["bytes"][copies]
    timed = (durations > 0) & (moved > 0)
    bandwidth[copies[timed]] = moved[timed] / durations[timed]
    return bandwidth


def _share(part: int, whole: int) -> float:
    return part / whole if whole > 0 else 0.0


def _rounded(pct: float | None) -> float | None:
    return None if pct is None else round(pct, 3)

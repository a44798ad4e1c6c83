"""Explanations on the timeline: each finding as a short callout on the spans it points at.

A callout is a few words (derived per finding code from the finding's spans and the run's
metrics, never the finding's whole sentence), the lane it sits above, and the time ranges
it brackets. The timeline gives each callout a row of its own just above its lane, so it
never covers the spans it explains. Pure: no Qt here.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from overlapviz.core.comm_findings import exposed_comm_ns
from overlapviz.core.config import format_size
from overlapviz.core.finding import pct_text
from overlapviz.core.findings import Finding
from overlapviz.core.intervals import union_intervals
from overlapviz.core.lanes import LaneGroup
from overlapviz.core.metrics import Metrics, covered_total_ns, direction_bandwidth_gbps, host_issue_ns
from overlapviz.core.number_text import count_text
from overlapviz.core.trace import OpKind, Trace
from overlapviz.core.trace_facts import bottleneck_stage, chunk_count, copy_engine_waits, idle_unit_waits
from overlapviz.view.formatting import format_bandwidth, format_duration
from overlapviz.view.lane_rows import LaneRows

MERGE_SHARE = 0.02  # brackets closer than this share of the run read as one
MAX_GENERIC_CHARS = 60
_GPU_PREFIX = re.compile(r"^GPU \d+: ")  # how a trace of several GPUs leads each GPU's finding
_API_VERSION_SUFFIX = re.compile(r"_v\d+$")  # CUPTI names calls like cudaMemcpyAsync_v3020
_DIRECTIONS = {OpKind.H2D: "H2D", OpKind.D2H: "D2H"}

Segments = tuple[tuple[int, int], ...]
Rows = npt.NDArray[np.intp]


@dataclass(frozen=True, slots=True)
class Callout:
    """A few words above one lane, bracketing the time ranges (ns) they talk about."""

    code: str
    lane_key: str
    segments: Segments
    text: str


@dataclass(frozen=True, slots=True)
class _Context:
    trace: Trace
    metrics: Metrics
    lanes: Sequence[LaneRows]
    blocked_ns: npt.NDArray[np.int64]
    merge_gap_ns: float


def callouts_for(
    trace: Trace,
    metrics: Metrics,
    findings: Sequence[Finding],
    lanes: Sequence[LaneRows],
    blocked_ns: npt.NDArray[np.int64],
) -> list[Callout]:
    """The callouts of `findings`, in finding order (a finding may give two, or none).

    `lanes` are the trace's lanes with their rows, `blocked_ns` the host time blocked per row
    (`core.metrics.host_blocked_per_row`): both found once per trace, with the rest of it.
    """
    merge_gap_ns = MERGE_SHARE * max(metrics.wall_ns, metrics.makespan_ns, 1)
    context = _Context(trace, metrics, lanes, blocked_ns, merge_gap_ns)
    found: list[Callout] = []
    for finding in findings:
        if not len(finding.rows):
            continue
        build = _BUILDERS.get(finding.code, _generic)
        found.extend(build(context, finding, finding.rows))
    return found


def rows_per_lane(callouts: Sequence[Callout]) -> dict[str, int]:
    """How many callout rows each lane needs (one per callout above it)."""
    counts: dict[str, int] = {}
    for callout in callouts:
        counts[callout.lane_key] = counts.get(callout.lane_key, 0) + 1
    return counts


# --- one builder per finding code ------------------------------------------------------------


def _host_blocked(c: _Context, finding: Finding, rows: Rows) -> list[Callout]:
    calls = _of_kind(c.trace, rows, OpKind.API)
    if calls.size == 0:  # a trace without host calls: the copies themselves
        took = format_duration(_busy_ns(c.trace, rows))
        return [_spanning(c, finding, rows, LaneGroup.HARDWARE, f"pageable copies: {took}, staged by the driver")]
    blocked = c.blocked_ns[calls]
    names = " and ".join(sorted({_api_name(c.trace, int(row)) for row in calls}))
    ends = c.trace["end_ns"][calls]
    text = f"host blocked {format_duration(int(blocked.sum()))} in {names}: the host buffer is pageable"
    return [_callout(c, finding, "host", ends - blocked, ends, text)]


def _single_stream(c: _Context, finding: Finding, rows: Rows) -> list[Callout]:
    legacy = (c.trace.meta.config or {}).get("stream_kind") == "legacy"
    where = "legacy default stream" if legacy else "one stream"
    lane = _busiest_lane(c, rows, LaneGroup.STREAMS)
    text = f"{where}: every op waits for the one before it, nothing overlaps"
    return [_callout(c, finding, lane, c.trace["start_ns"][rows], c.trace["end_ns"][rows], text)]


def _copy_queue(c: _Context, finding: Finding, rows: Rows) -> list[Callout]:
    ready, start = c.trace["ready_ns"][rows], c.trace["start_ns"][rows]
    lane_key = _busiest_lane(c, rows, LaneGroup.HARDWARE)
    direction = _DIRECTIONS.get(OpKind(int(c.trace["kind"][rows[0]])), "")
    engine = _lane_title(c, lane_key)
    waited = format_duration(int(copy_engine_waits(c.trace)[rows].sum()))  # the finding's own measure
    text = f"{count_text(rows.size, f'{direction} copy')} queued {waited} in all: the {engine} runs one copy at a time"
    return [_callout(c, finding, lane_key, ready, start, text)]


def _false_dependency(c: _Context, finding: Finding, rows: Rows) -> list[Callout]:
    waited = format_duration(int(idle_unit_waits(c.trace)[rows].sum()))
    lane_key = _busiest_lane(c, rows, LaneGroup.STREAMS)
    text = f"{count_text(rows.size, 'op')} waited {waited} with their engine idle: held back by the GPU's scheduling"
    return [_callout(c, finding, lane_key, c.trace["ready_ns"][rows], c.trace["start_ns"][rows], text)]


def _kernel_bound(c: _Context, finding: Finding, rows: Rows) -> list[Callout]:
    share = _share(covered_total_ns(c.trace, OpKind.KERNEL), c.metrics.makespan_ns)
    text = f"kernel-bound: compute busy {share} of the run; faster copies would not help"
    return [_spanning(c, finding, rows, LaneGroup.HARDWARE, text)]


def _copy_bound(c: _Context, finding: Finding, rows: Rows) -> list[Callout]:
    kinds = sorted({OpKind(int(k)) for k in c.trace["kind"][rows]})
    share = _share(covered_total_ns(c.trace, *kinds), c.metrics.makespan_ns)
    lane_key = _busiest_lane(c, rows, LaneGroup.HARDWARE)
    text = f"copy-bound: {_lane_title(c, lane_key)} busy {share} of the run; faster kernels would not help"
    return [_spanning(c, finding, rows, LaneGroup.HARDWARE, text)]


def _too_few_chunks(c: _Context, finding: Finding, rows: Rows) -> list[Callout]:
    by_start = rows[np.argsort(c.trace["start_ns"][rows], kind="stable")]
    first, last = int(by_start[0]), int(by_start[-1])
    _stage, busiest = bottleneck_stage(c.trace, c.metrics)
    fill_drain = max(c.metrics.chunking_bound_ns - busiest, 0)
    chunks = chunk_count(c.trace)
    callouts = [_one_span(c, finding, first, f"fill: nothing else can run yet ({count_text(chunks, 'chunk')})")]
    if last != first:
        drain = f"drain: nothing else is left; fill + drain \u2265 {format_duration(fill_drain)}"
        callouts.append(_one_span(c, finding, last, drain))
    return callouts


def _too_many_chunks(c: _Context, finding: Finding, rows: Rows) -> list[Callout]:
    calls = _of_kind(c.trace, rows, OpKind.API)
    per_call = host_issue_ns(c.trace, calls) / max(calls.size, 1)
    calls_text = count_text(calls.size, "API call", thousands=True)
    text = f"host-bound: {calls_text}, about {format_duration(per_call)} each, feed the GPU too slowly"
    return [_callout(c, finding, "host", c.trace["start_ns"][calls], c.trace["end_ns"][calls], text)]


def _alloc_per_run(c: _Context, finding: Finding, rows: Rows) -> list[Callout]:
    calls = _of_kind(c.trace, rows, OpKind.API)
    names = {_api_name(c.trace, int(row)) for row in calls}
    why = ": cudaMallocHost pins every page" if names & {"cudaMallocHost", "cudaHostAlloc"} else ""
    alloc, wall = c.metrics.host_alloc_ns, c.metrics.wall_ns
    text = f"allocating and freeing host memory: {format_duration(alloc)}, {_share(alloc, wall)} of the wait{why}"
    return [_callout(c, finding, "host", c.trace["start_ns"][calls], c.trace["end_ns"][calls], text)]


def _mapped_memory(c: _Context, finding: Finding, rows: Rows) -> list[Callout]:
    kernels = _of_kind(c.trace, rows, OpKind.KERNEL)
    moved = format_size(int(c.trace["bytes"][kernels].sum()))
    text = f"zero-copy: the kernels move {moved} across the link themselves; no copies, the copy engines idle"
    return [_spanning(c, finding, kernels, LaneGroup.HARDWARE, text)]


def _graph_launch(c: _Context, finding: Finding, rows: Rows) -> list[Callout]:
    ops = int(c.trace.device_mask.sum())
    took = format_duration(_busy_ns(c.trace, rows))
    text = f"one CUDA Graph: {took} in cudaGraphLaunch for {count_text(ops, 'op', thousands=True)}"
    return [_callout(c, finding, "host", c.trace["start_ns"][rows], c.trace["end_ns"][rows], text)]


def _managed_faults(c: _Context, finding: Finding, rows: Rows) -> list[Callout]:
    kernels = _of_kind(c.trace, rows, OpKind.KERNEL)
    busy = format_duration(_busy_ns(c.trace, kernels))
    text = f"page faults inside the kernels: {count_text(kernels.size, 'kernel')}, {busy}, migrating on first touch"
    return [_spanning(c, finding, kernels, LaneGroup.HARDWARE, text)]


def _prefetch_bound(c: _Context, finding: Finding, rows: Rows) -> list[Callout]:
    covered = covered_total_ns(c.trace, OpKind.PREFETCH)
    text = f"prefetches set the pace: {format_duration(covered)}, {_share(covered, c.metrics.makespan_ns)} of the run"
    return [_spanning(c, finding, rows, LaneGroup.HARDWARE, text)]


def _staging_host_bound(c: _Context, finding: Finding, rows: Rows) -> list[Callout]:
    copying = _busy_ns(c.trace, rows)
    share = _share(copying, c.metrics.wall_ns)
    text = f"the host copies through the ring: {format_duration(copying)}, {share} of the wall time"
    return [_callout(c, finding, "host", c.trace["start_ns"][rows], c.trace["end_ns"][rows], text)]


def _write_combined_read(c: _Context, finding: Finding, rows: Rows) -> list[Callout]:
    text = f"the host reads the write-combined output back uncached: {format_duration(_busy_ns(c.trace, rows))}"
    return [_callout(c, finding, "host", c.trace["start_ns"][rows], c.trace["end_ns"][rows], text)]


def _peer_bound(c: _Context, finding: Finding, rows: Rows) -> list[Callout]:
    covered = covered_total_ns(c.trace, OpKind.PEER)
    rate = direction_bandwidth_gbps(c.trace, OpKind.PEER) or 0.0
    share = _share(covered, c.metrics.makespan_ns)
    text = f"peer-bound: copies between the GPUs ran {share} of the run, at {format_bandwidth(rate)}"
    return [_spanning(c, finding, rows, LaneGroup.HARDWARE, text)]


def _page_fault_migrations(c: _Context, finding: Finding, rows: Rows) -> list[Callout]:
    covered = covered_total_ns(c.trace, OpKind.MIGRATION)
    share = _share(covered, c.metrics.makespan_ns)
    migrations = count_text(rows.size, "page-fault migration", thousands=True)
    text = f"{migrations}: {format_duration(covered)}, {share} of the run"
    return [_spanning(c, finding, rows, LaneGroup.HARDWARE, text)]


def _exposed_communication(c: _Context, finding: Finding, rows: Rows) -> list[Callout]:
    exposed = exposed_comm_ns(c.trace)
    share = _share(exposed, c.metrics.makespan_ns)
    text = f"exposed communication: {format_duration(exposed)}, {share} of the run, with no kernel computing beside it"
    return [_spanning(c, finding, rows, LaneGroup.HARDWARE, text)]


def _gpu_idle(c: _Context, finding: Finding, rows: Rows) -> list[Callout]:
    # The brackets mark the gaps, where the GPU stood idle, on the compute lane: bracketing the
    # busy spans of the lane with the most ops (often the migrations) read as blaming them.
    starts, ends = union_intervals(c.trace["start_ns"][rows], c.trace["end_ns"][rows])
    idle = c.metrics.makespan_ns - int((ends - starts).sum())
    wide = (starts[1:] - ends[:-1]) >= c.merge_gap_ns  # gaps too short to bracket are left out
    gaps = tuple(zip(ends[:-1][wide].tolist(), starts[1:][wide].tolist(), strict=True))
    kernels = rows[c.trace["kind"][rows] == OpKind.KERNEL]
    lane_key = _busiest_lane(c, kernels if kernels.size else rows, LaneGroup.HARDWARE)
    text = f"GPU idle {format_duration(idle)}, {_share(idle, c.metrics.makespan_ns)} of the run, between its ops"
    return [Callout(finding.code, lane_key, gaps, text)]


def _generic(c: _Context, finding: Finding, rows: Rows) -> list[Callout]:
    # a clause ends at punctuation before a space or the end: "95.0 ms" is one number, not two clauses;
    # the lane already says which GPU, so a finding's leading "GPU 1: " is no clause of its own
    message = _GPU_PREFIX.sub("", finding.message, count=1)
    first_clause = re.split(r"[:;.](?=\s|$)", message, maxsplit=1)[0].strip()
    text = first_clause if len(first_clause) <= MAX_GENERIC_CHARS else first_clause[: MAX_GENERIC_CHARS - 1] + "\u2026"
    lane_key = _busiest_lane(c, rows, None)
    return [_callout(c, finding, lane_key, c.trace["start_ns"][rows], c.trace["end_ns"][rows], text)]


_BUILDERS: dict[str, Callable[[_Context, Finding, Rows], list[Callout]]] = {
    "host-blocked-pageable": _host_blocked,
    "single-stream": _single_stream,
    "copy-queue": _copy_queue,
    "false-dependency": _false_dependency,
    "kernel-bound": _kernel_bound,
    "copy-bound": _copy_bound,
    "peer-bound": _peer_bound,
    "page-fault-migrations": _page_fault_migrations,
    "exposed-communication": _exposed_communication,
    "gpu-idle": _gpu_idle,
    "too-few-chunks": _too_few_chunks,
    "too-many-chunks": _too_many_chunks,
    "alloc-per-run": _alloc_per_run,
    "mapped-memory": _mapped_memory,
    "graph-launch": _graph_launch,
    "managed-faults": _managed_faults,
    "prefetch-bound": _prefetch_bound,
    "staging-host-bound": _staging_host_bound,
    "write-combined-read": _write_combined_read,
}


# --- helpers -----------------------------------------------------------------------------------


def _callout(
    c: _Context, finding: Finding, lane_key: str, starts: npt.ArrayLike, ends: npt.ArrayLike, text: str
) -> Callout:
    return Callout(finding.code, lane_key, merged_segments(starts, ends, c.merge_gap_ns), text)


def _spanning(c: _Context, finding: Finding, rows: Rows, group: LaneGroup, text: str) -> Callout:
    lane_key = _busiest_lane(c, rows, group)
    return _callout(c, finding, lane_key, c.trace["start_ns"][rows], c.trace["end_ns"][rows], text)


def _one_span(c: _Context, finding: Finding, row: int, text: str) -> Callout:
    lane_key = _busiest_lane(c, np.asarray([row], dtype=np.intp), LaneGroup.HARDWARE)
    segment = ((int(c.trace["start_ns"][row]), int(c.trace["end_ns"][row])),)
    return Callout(finding.code, lane_key, segment, text)


def merged_segments(starts: npt.ArrayLike, ends: npt.ArrayLike, gap_ns: float) -> Segments:
    """The union of [start, end] intervals, with gaps shorter than `gap_ns` closed."""
    union_s, union_e = union_intervals(starts, ends, join_below=gap_ns)
    return tuple(zip(union_s.tolist(), union_e.tolist(), strict=True))


def _busiest_lane(c: _Context, rows: npt.NDArray[np.intp], group: LaneGroup | None) -> str:
    """The lane of `group` (any lane when None) that shows the most of `rows`."""
    candidates = [lane for lane in c.lanes if group is None or lane.lane.group is group] or list(c.lanes)
    counts = [int(np.isin(lane.rows, rows).sum()) for lane in candidates]
    return candidates[int(np.argmax(counts))].key


def _lane_title(c: _Context, lane_key: str) -> str:
    title = next((lane.lane.title for lane in c.lanes if lane.key == lane_key), "engine")
    gpu, colon, unit = title.partition(": ")  # "GPU 0: H2D engine" on a trace of several GPUs
    if not colon:
        gpu, unit = "", title
    unit = unit if unit.startswith(("H2D", "D2H")) else unit.lower()
    return f"{gpu} {unit}" if gpu else unit


def _of_kind(trace: Trace, rows: Rows, kind: OpKind) -> Rows:
    picked: Rows = rows[trace["kind"][rows] == kind]
    return picked


def _api_name(trace: Trace, row: int) -> str:
    return _API_VERSION_SUFFIX.sub("", trace.name_of(row))


def _busy_ns(trace: Trace, rows: Rows) -> int:
    """The durations of `rows` added up, as the memory findings count them."""
    return int(trace.duration_ns[rows].sum())


def _share(part: float, whole: float) -> str:
    return pct_text(part, whole)

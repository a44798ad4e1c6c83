"""Findings about how a real program issues its work: the legacy default stream, many small copies, staged peer copies.

overlapviz's own pipeline never does these things; other people's programs often do. The
thresholds are round on purpose, as in `overlapviz.core.findings.streams`.
"""

from __future__ import annotations

from functools import reduce

import numpy as np
import numpy.typing as npt

from overlapviz.core.analysis.intervals import covered_ns, union_intervals
from overlapviz.core.analysis.metrics import Metrics, covered_rows_ns, covered_total_ns
from overlapviz.core.analysis.migrations import migrations_by_direction
from overlapviz.core.analysis.program_kind import Advice
from overlapviz.core.config import format_size
from overlapviz.core.findings.callout import (
    Callout,
    CalloutContext,
    Rows,
    first_clause_callout,
    share,
    spanning,
)
from overlapviz.core.findings.finding import Finding, api_names, ms_text, pct_text, rows_of
from overlapviz.core.findings.host import synchronizes
from overlapviz.core.findings.rule import Rule, Scope
from overlapviz.core.i18n import N_, _, decimal_text, grouped, ncount, pgettext
from overlapviz.core.number_text import duration_text
from overlapviz.core.trace.frozen_columns import few_distinct
from overlapviz.core.trace.lanes import LaneGroup, is_legacy_stream
from overlapviz.core.trace.spans import OpKind, Trace

# Ops that waited a tenth of the run for work of another stream, on hardware that was free for
# them: the legacy stream's implicit synchronisation, not the GPU, held them back.
LEGACY_WAIT_SHARE = 0.10
# A copy under 64 KiB moves its bytes in a few microseconds at PCIe speed, about what the call
# and the copy cost whatever their size; sixteen of them are a habit, not an accident.
SMALL_COPY_BYTES = 64 * 1024
MANY_SMALL_COPIES = 16
# The fixed cost (the cheapest copy's, paid by every one) makes at least half their time...
FIXED_COST_SHARE = 0.5
# ...and they take a fiftieth of what the program waited for: batching them is then worth doing.
SMALL_COPIES_SHARE = 0.02
# Copies staged through the host that take a tenth of the run are plain to see on the lanes.
STAGED_SHARE = 0.10
_DIRECTIONS = {OpKind.H2D: "H2D", OpKind.D2H: "D2H"}
# Migrations during a tenth of the run are plain to see on the unified-memory lane, and each
# was a stall: the GPU or the host waited on a page fault for the page to arrive.
MIGRATION_SHARE = 0.10


def legacy_default_stream(trace: Trace, metrics: Metrics) -> list[Finding]:
    """Find ops kept waiting by the legacy default stream's implicit synchronisation with the other streams."""
    if not trace.meta.legacy_streams and (trace.meta.config or {}).get("stream_kind") != "legacy":
        return []  # no stream is the legacy one: nothing to look for in the columns
    device = trace.device_mask & (trace["stream"] >= 0)
    streams = few_distinct(trace["stream"][device])
    legacy = np.array([is_legacy_stream(trace.meta, int(s)) for s in streams], dtype=bool)
    if not legacy.any() or legacy.all():
        return []  # all on the legacy stream is single-stream's to explain
    on_legacy = device & np.isin(trace["stream"], streams[legacy])
    waits = _waits_for(trace, device & ~on_legacy, on_legacy) + _waits_for(trace, on_legacy, device & ~on_legacy)
    waited = np.flatnonzero(waits > 0)
    total = int(waits.sum())
    if total < LEGACY_WAIT_SHARE * metrics.makespan_ns:
        return []
    message = ncount(
        "{count} device op waited {waited} in all (the run took {makespan}) for work on another stream while the"
        " hardware they needed was free: {ops} ran on the legacy default stream, which waits for everything issued"
        " before it to the other (blocking) streams, and they wait for it, so its copies and kernels could not"
        " overlap theirs. {advice}",
        "{count} device ops waited {waited} in all (the run took {makespan}) for work on another stream while the"
        " hardware they needed was free: {ops} ran on the legacy default stream, which waits for everything issued"
        " before it to the other (blocking) streams, and they wait for it, so its copies and kernels could not"
        " overlap theirs. {advice}",
        waited.size, waited=ms_text(total), makespan=ms_text(metrics.makespan_ns), advice=_LEGACY_ADVICE.words(trace),
        ops=ncount("{count} op", "{count} ops", int(on_legacy.sum())),
    )  # fmt: skip
    return [Finding("legacy-default-stream", message, rows_of(waited))]


def _waits_for(trace: Trace, waiting: npt.NDArray[np.bool_], others: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
    """Per row of `waiting`: its wait (ready to start) during which `others` ran on another unit than its own."""
    waits = np.zeros(len(trace), dtype=np.int64)
    ready, start, unit = trace["ready_ns"], trace["start_ns"], trace["unit"]
    for value in np.unique(unit[waiting]):
        rows = np.flatnonzero(waiting & (unit == value) & (ready >= 0) & (start > ready))
        elsewhere = others & (unit != value)
        elsewhere_s, elsewhere_e = union_intervals(start[elsewhere], trace["end_ns"][elsewhere])
        waits[rows] = covered_ns(elsewhere_s, elsewhere_e, ready[rows], start[rows])
    return waits


def small_copies(trace: Trace, metrics: Metrics) -> list[Finding]:
    """Find many copies under 64 KiB whose per-copy cost, not their bytes, sets their time."""
    found = []
    for kind, label in _DIRECTIONS.items():
        copies = np.flatnonzero(trace.mask(kind) & (trace["bytes"] < SMALL_COPY_BYTES))
        if copies.size < MANY_SMALL_COPIES:
            continue
        calls = np.flatnonzero((trace["kind"] == OpKind.API) & np.isin(trace["op"], copies))
        # each copy's cost as the program paid it: its call where one issued it, else the copy itself
        cost = trace.durations_of(copies).copy()
        call_of = np.full(len(trace), -1, dtype=np.int64)
        call_of[trace["op"][calls]] = calls
        issued = call_of[copies] >= 0
        cost[issued] = trace.durations_of(call_of[copies][issued])
        both = np.concatenate([copies, calls])
        starts, ends = union_intervals(trace["start_ns"][both], trace["end_ns"][both])
        taken = int((ends - starts).sum())
        fixed = int(cost.min())
        wall = metrics.wall_ns or metrics.makespan_ns
        if copies.size * fixed < FIXED_COST_SHARE * taken or taken < SMALL_COPIES_SHARE * wall:
            continue
        found.append(_small_copies_finding(trace, label, copies, calls, taken, fixed, wall))
    return found


def _small_copies_finding(
    trace: Trace,
    label: str,
    copies: npt.NDArray[np.intp],
    calls: npt.NDArray[np.intp],
    taken: int,
    fixed: int,
    wall: int,
) -> Finding:
    n = copies.size
    total_bytes = int(trace["bytes"][copies].sum())
    names = sorted(api_names(trace, calls))
    in_calls = _(" in {calls} and the copies").format(calls=reduce(_and, names)) if names else ""
    saved = (n - 1) * fixed
    message = ncount(
        "{count} {direction} copy of less than 64 KiB each ({total} in all, {average} on average) took {taken}"
        "{in_calls} ({share} of what the program waited for): each paid a fixed cost of at least {fixed} whatever"
        " its size, more than its bytes took. {advice}, they would pay it once: about {saved} less.",
        "{count} {direction} copies of less than 64 KiB each ({total} in all, {average} on average) took {taken}"
        "{in_calls} ({share} of what the program waited for): each paid a fixed cost of at least {fixed} whatever"
        " its size, more than its bytes took. {advice}, they would pay it once: about {saved} less.",
        n, direction=label, total=_kib(total_bytes), average=_kib(total_bytes / n), taken=ms_text(taken),
        in_calls=in_calls, share=pct_text(taken, wall), fixed=ms_text(fixed), advice=_BATCH_ADVICE.words(trace),
        saved=ms_text(saved),
    )  # fmt: skip
    return Finding("small-copies", message, rows_of(copies, calls))


def _kib(nbytes: float) -> str:
    return f"{decimal_text(f'{nbytes / 1024:.1f}')} KiB"


def _and(first: str, last: str) -> str:
    """``a and b``: two names of calls, as a sentence joins them."""
    return _("{first} and {last}").format(first=first, last=last)


def _megabytes(nbytes: int) -> str:
    """``1,234.5``: bytes in MB (10^6), the thousands grouped, one decimal."""
    whole, _point, tenth = f"{nbytes / 1e6:.1f}".partition(".")
    return f"{grouped(int(whole))}{decimal_text('.' + tenth)}"


def staged_peer_copy(trace: Trace, metrics: Metrics) -> list[Finding]:
    """Find data moved from one GPU to another through host memory: a D2H copy, then an H2D copy of the same bytes."""
    pairs = _staged_pairs(trace)
    if not pairs:
        return []
    rows = np.array([row for pair in pairs for row in pair], dtype=np.intp)
    copying = int(trace.durations_of(rows).sum())
    if copying < STAGED_SHARE * metrics.makespan_ns:
        return []
    total_bytes = int(sum(int(trace["bytes"][d2h]) for d2h, _h2d in pairs))
    routes = sorted({(int(trace["device"][d2h]), int(trace["device"][h2d])) for d2h, h2d in pairs})
    route = _("GPU {source} to GPU {target}")
    route_text = pgettext("list", ", ").join(route.format(source=a, target=b) for a, b in routes)
    times = _("once") if len(pairs) == 1 else ncount("{count} time", "{count} times", len(pairs))
    message = _(
        "Data went from one GPU to another through host memory {times} ({routes}): a D2H copy, then an H2D copy of"
        " the same bytes ({megabytes} MB in all; {copying} of copying, {share} of the run). The bytes crossed the host"
        " link twice and waited in between. {advice}"
    ).format(
        times=times, routes=route_text, megabytes=_megabytes(total_bytes), copying=ms_text(copying),
        share=pct_text(copying, metrics.makespan_ns), advice=_PEER_ADVICE.words(trace),
    )  # fmt: skip
    return [Finding("staged-peer-copy", message, rows_of(rows))]


def _staged_pairs(trace: Trace) -> list[tuple[int, int]]:
    """(D2H row, H2D row) pairs: the H2D copy to another GPU starts after the D2H copy of as many bytes ends.

    Each H2D copy is paired with the latest such D2H copy not yet paired. An H2D copy whose host
    call was made before the D2H copy ended sends other bytes: a pipeline that feeds one GPU
    while another drains copies chunks of one size both ways, and none of them is staging. Nor
    does one issued later, when the host never waited for the D2H copy (see `_waited_for`).
    """
    d2h = np.flatnonzero(trace.mask(OpKind.D2H) & (trace["bytes"] > 0))
    h2d = np.flatnonzero(trace.mask(OpKind.H2D) & (trace["bytes"] > 0))
    if d2h.size == 0 or h2d.size == 0 or np.unique(trace["device"][np.concatenate([d2h, h2d])]).size < 2:
        return []
    waiting: dict[int, list[int]] = {}
    waited = _waited_for(trace, d2h)
    ends = [(int(trace["end_ns"][r]), 0, int(r)) for r, held in zip(d2h, waited, strict=True) if held]
    # a D2H copy that ends as an H2D copy starts sorts first
    events = sorted(ends + [(int(trace["start_ns"][r]), 1, int(r)) for r in h2d])
    issued = _issue_times(trace)
    pairs = []
    for _time, is_h2d, row in events:
        nbytes = int(trace["bytes"][row])
        if not is_h2d:
            waiting.setdefault(nbytes, []).append(row)
            continue
        candidates = waiting.get(nbytes, [])
        other = next((c for c in reversed(candidates) if _can_carry(trace, issued, c, row)), None)
        if other is not None:
            candidates.remove(other)
            pairs.append((other, row))
    return pairs


def _waited_for(trace: Trace, d2h: npt.NDArray[np.intp]) -> npt.NDArray[np.bool_]:
    """Per D2H row: whether the host was waiting for it as it ended, so that it could send its bytes on.

    Waiting is being inside a synchronize, or inside the copy's own call (a blocking cudaMemcpy),
    when the copy ends. A trace without host calls cannot say: every copy counts as waited for.
    """
    calls = np.flatnonzero(trace["kind"] == OpKind.API)
    if calls.size == 0:
        return np.ones(d2h.size, dtype=bool)
    ends = trace["end_ns"][d2h]
    own_call = np.full(len(trace), -1, dtype=np.int64)
    linked = calls[trace["op"][calls] >= 0]
    own_call[trace["op"][linked]] = linked
    mine = own_call[d2h]
    in_own_call = (mine >= 0) & (trace["end_ns"][np.maximum(mine, 0)] >= ends)
    syncs = calls[synchronizes(trace, calls)]
    if syncs.size == 0:
        return in_own_call
    syncs = syncs[np.argsort(trace["start_ns"][syncs], kind="stable")]
    latest_end = np.maximum.accumulate(trace["end_ns"][syncs])  # of the synchronizes begun by then
    begun = np.searchsorted(trace["start_ns"][syncs], ends, side="right") - 1
    in_sync = (begun >= 0) & (latest_end[np.maximum(begun, 0)] >= ends)
    waited: npt.NDArray[np.bool_] = in_own_call | in_sync
    return waited


def _can_carry(trace: Trace, issued: npt.NDArray[np.int64], d2h: int, h2d: int) -> bool:
    """Whether the H2D copy can send on what the D2H copy brought out: another GPU, issued once it had."""
    return bool(trace["device"][d2h] != trace["device"][h2d] and issued[h2d] >= trace["end_ns"][d2h])


def _issue_times(trace: Trace) -> npt.NDArray[np.int64]:
    """Per row, when the host call that issued it started; the op's own start where no call did."""
    times = trace["start_ns"].astype(np.int64)
    calls = np.flatnonzero((trace["kind"] == OpKind.API) & (trace["op"] >= 0))
    times[trace["op"][calls]] = trace["start_ns"][calls]
    return times


def page_fault_migrations(trace: Trace, metrics: Metrics) -> list[Finding]:
    """Find unified-memory pages moved on demand by the driver for a tenth of the run or more."""
    rows = np.flatnonzero(trace.mask(OpKind.MIGRATION))
    covered = covered_rows_ns(trace, trace.mask(OpKind.MIGRATION))
    if rows.size == 0 or covered < MIGRATION_SHARE * metrics.makespan_ns:
        return []
    moved = migrations_by_direction(trace)
    each = pgettext("list", ", ").join(
        f"{key.upper()} {grouped(m.count)} ({format_size(m.bytes)}, {ms_text(m.busy_ns)})"
        for key, m in moved.items()
        if m.count
    )
    message = ncount(
        "The driver moved unified (managed) memory {count} time on page faults ({each}): migrations ran during"
        " {covered}, {share} of the run, and every fault stalled the GPU (or the host) until its page arrived, a few"
        " KiB at a time. {advice}",
        "The driver moved unified (managed) memory {count} times on page faults ({each}): migrations ran during"
        " {covered}, {share} of the run, and every fault stalled the GPU (or the host) until its page arrived, a few"
        " KiB at a time. {advice}",
        rows.size, each=each, covered=ms_text(covered), share=pct_text(covered, metrics.makespan_ns),
        advice=_MIGRATION_ADVICE.words(trace),
    )  # fmt: skip
    return [Finding("page-fault-migrations", message, rows_of(rows))]


_LEGACY_ADVICE = Advice(
    cuda=N_("Streams created with cudaStreamCreateWithFlags(cudaStreamNonBlocking), or the per-thread default stream"
    " (nvcc --default-stream per-thread), do not wait for it."),
    python=N_("In PyTorch, issue the work on torch.cuda.Stream()s of its own rather than the default stream."),
    overlapviz=N_("Streams created with cudaStreamNonBlocking, or the per-thread default stream (nvcc --default-stream"
    " per-thread), do not wait for it; in PyTorch, issue the work on torch.cuda.Stream()s."),
)
_BATCH_ADVICE = Advice(
    cuda=N_("Packed into one pinned buffer and copied with one cudaMemcpyAsync"),
    python=N_("Packed into one tensor (torch.cat, or a pinned staging tensor) and copied with one .to('cuda')"),
    overlapviz=N_("Packed into one buffer and copied at once"),
)
_PEER_ADVICE = Advice(
    cuda=N_("A peer copy (cudaMemcpyPeerAsync, after cudaDeviceEnablePeerAccess) moves them GPU to GPU once, over"
    " NVLink where the GPUs have it."),
    python=N_("In PyTorch, tensor.to('cuda:1') straight from the first GPU moves them GPU to GPU once, over NVLink"
    " where the GPUs have it."),
    overlapviz=N_("A peer copy (cudaMemcpyPeerAsync, after cudaDeviceEnablePeerAccess; in PyTorch,"
    " tensor.to('cuda:1')) moves them GPU to GPU once, over NVLink where the GPUs have it."),
)
_MIGRATION_ADVICE = Advice(
    cuda=N_("cudaMemPrefetchAsync moves a managed buffer to the GPU before its kernel runs (and back to the host"
    " before the host reads it), in large transfers at the link's rate; cudaMemAdvise"
    " (cudaMemAdviseSetPreferredLocation, cudaMemAdviseSetReadMostly) keeps pages where they are used."),
    python=N_("Keep the data in device memory (torch.empty(..., device='cuda')) and copy it with"
    " tensor.to('cuda', non_blocking=True) from pinned memory; where managed memory must stay, prefetch it to"
    " the GPU before the kernels touch it (cudaMemPrefetchAsync, e.g. cupy.cuda.runtime.memPrefetchAsync)."),
)


def page_fault_migrations_callout(c: CalloutContext, finding: Finding, rows: Rows) -> list[Callout]:
    """How many migrations ran and how much of the run, bracketing them."""
    covered = covered_total_ns(c.trace, OpKind.MIGRATION)
    of_run = share(covered, c.metrics.makespan_ns)
    text = ncount(
        "{count} page-fault migration: {covered}, {share} of the run",
        "{count} page-fault migrations: {covered}, {share} of the run",
        rows.size, covered=duration_text(covered), share=of_run,
    )  # fmt: skip
    return [spanning(c, finding, rows, LaneGroup.HARDWARE, text)]


LEGACY_DEFAULT_STREAM = Rule(
    code="legacy-default-stream",
    detect=legacy_default_stream,
    callout=first_clause_callout,
    fires_when=(
        "Some device ops ran on the legacy default stream (a file names it: Nsight Systems' stream tables) "
        "and others on other streams, and ops of either side, ready to run, waited for the other side's ops "
        "for a tenth of the makespan or more while those ran on another unit than their own (so not their "
        "engine, but the legacy stream's implicit synchronisation held them back). Streams created with "
        "`cudaStreamNonBlocking`, or the per-thread default stream, do not wait for it."
    ),
    points_at="the ops that waited",
)
SMALL_COPIES = Rule(
    code="small-copies",
    detect=small_copies,
    callout=first_clause_callout,
    fires_when=(
        "16 or more copies of one direction under 64 KiB each, whose fixed cost (the cheapest one's: its "
        "call, or the copy where no call is recorded) makes at least half the time they take (their calls and "
        "the copies together), and that time is 2% of the **wall** or more. The sentence gives the count, "
        "their bytes, the time they take and what one batch would save: the fixed cost, paid once instead of "
        "by each."
    ),
    points_at="the copies and their calls",
    scope=Scope.PROGRAM,
)
STAGED_PEER_COPY = Rule(
    code="staged-peer-copy",
    detect=staged_peer_copy,
    callout=first_clause_callout,
    fires_when=(
        "Data went from one GPU to another through host memory: a D2H copy on one GPU, then an H2D copy of as "
        "many bytes to another GPU that starts after it ends, the pairs' copying a tenth of the makespan or "
        "more. Where the trace has host calls, only a D2H copy the host waited for counts (it ended while the "
        "host sat in a synchronize, or in the copy's own blocking call): a host that issues on without "
        "waiting never held the bytes. A peer copy (`cudaMemcpyPeerAsync`; in PyTorch `tensor.to('cuda:1')`) "
        "crosses once."
    ),
    points_at="the paired copies",
    scope=Scope.PROGRAM,
)
PAGE_FAULT_MIGRATIONS = Rule(
    code="page-fault-migrations",
    detect=page_fault_migrations,
    callout=page_fault_migrations_callout,
    fires_when=(
        "Unified-memory migrations (the driver moving managed pages on page faults) ran during a tenth of the "
        "makespan or more. The sentence gives how many, by direction with their bytes and time, how long they "
        "ran and what share of the run, and advises prefetching (`cudaMemPrefetchAsync`) and placement hints "
        "(`cudaMemAdvise`); for a Python program, device tensors copied from pinned memory."
    ),
    points_at="the migrations",
)

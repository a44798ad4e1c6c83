"""The findings about the host thread: what it waited in, and what it did instead of feeding the GPU.

Copies from pageable memory, a synchronize after every copy, a GPU left idle by the host's own
work, and time spent getting and giving back host memory. The thresholds are round on
purpose, as in `overlapviz.core.findings.streams`.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from overlapviz.core.analysis.intervals import union_intervals
from overlapviz.core.analysis.issuing import api_by_start, pageable_blocked, pageable_copy_rows
from overlapviz.core.analysis.metrics import (
    Metrics,
    allocation_calls,
    covered_total_ns,
)
from overlapviz.core.analysis.program_kind import Advice, Program
from overlapviz.core.analysis.trace_facts import is_pipeline
from overlapviz.core.findings.callout import (
    Callout,
    CalloutContext,
    Rows,
    busiest_lane,
    callout,
    first_clause_callout,
    of_kind,
    share,
    spanning,
    summed_ns,
)
from overlapviz.core.findings.finding import Finding, api_name, api_names, ms_text, pct_text, plain_api_name, rows_of
from overlapviz.core.findings.rule import Rule, Scope
from overlapviz.core.i18n import N_, _, grouped, ncount
from overlapviz.core.number_text import duration_text, rate_text, series_text
from overlapviz.core.trace.lanes import LaneGroup
from overlapviz.core.trace.spans import DEVICE_KINDS, MemoryKind, OpKind, Trace

# Pageable copies that cost a hundredth of the run are worth pinning for: staged by the driver
# they run at a fraction of the link's rate and hold the host thread. Under that they are left
# alone, so a tiny one-off copy from malloc (well under a thousandth of the run) never is.
PAGEABLE_COST_SHARE = 0.01
# Half the copies followed by a synchronize is a habit, not a last wait for the results; a
# tenth of the run spent in those calls is where the host's stalls show on its lane.
SYNC_AFTER_COPY_SHARE = 0.5
SYNC_WAIT_SHARE = 0.10
SYNC_CALLS = frozenset({
    "cudaStreamSynchronize", "cudaDeviceSynchronize", "cudaEventSynchronize", "cudaThreadSynchronize",
    "cuStreamSynchronize", "cuCtxSynchronize", "cuEventSynchronize",
})
# A GPU busy less than a quarter of the run is idle most of the time: whatever else the program
# does, the GPU's work is not what it waits for.
GPU_BUSY_SHARE = 0.25
# A quarter of what the program waited for spent getting and giving back host memory: the
# allocation, not the pipeline, is then what a user would have to shorten first.
ALLOC_SHARE = 0.25
_PINNING_CALLS = frozenset({"cudaMallocHost", "cudaHostAlloc", "cuMemAllocHost", "cuMemHostAlloc"})


def synchronizes(trace: Trace, rows: npt.NDArray[np.intp]) -> npt.NDArray[np.bool_]:
    """Per row of `rows`: whether it is a call that waits for the device (`SYNC_CALLS`)."""
    names = np.array([plain_api_name(name) in SYNC_CALLS for name in trace.names], dtype=bool)
    found: npt.NDArray[np.bool_] = names[trace["name"][rows]] if names.size else np.zeros(rows.size, dtype=bool)
    return found


def pageable_copies(trace: Trace) -> npt.NDArray[np.intp]:
    """The H2D and D2H copies from or to pageable memory."""
    copies = trace.rows(OpKind.H2D, OpKind.D2H)
    pageable: npt.NDArray[np.intp] = copies[trace["memory"][copies] == MemoryKind.PAGEABLE]
    return pageable


def pageable_cost_ns(trace: Trace) -> int:
    """What the program paid for its pageable copies: for each, the host's time blocked in its call, or its own time.

    A pageable copy's call returns only once the data has moved, so the program waits at least
    as long as the copy ran: where the trace's host and device clocks disagree (an export made
    under WSL) or no call is recorded, the copy's own time is what it cost.
    """
    blocked = np.zeros(len(trace), dtype=np.int64)
    blocked[trace["op"][pageable_copy_rows(trace)]] = pageable_blocked(trace)
    copies = pageable_copies(trace)
    return int(np.maximum(blocked[copies], trace.durations_of(copies)).sum())


def host_blocked_pageable(trace: Trace, metrics: Metrics) -> list[Finding]:
    """Find copies from or to pageable memory that cost the run a hundredth of its time or more."""
    cost = pageable_cost_ns(trace)
    if cost <= 0 or cost < PAGEABLE_COST_SHARE * metrics.makespan_ns:
        return []
    calls = pageable_copy_rows(trace)
    copies = pageable_copies(trace)
    share = pct_text(cost, metrics.makespan_ns)
    if calls.size:
        names = series_text(sorted(api_names(trace, calls)))
        what = _("The host thread was blocked {blocked} ({share} of the run) inside {calls}").format(
            blocked=ms_text(cost), share=share, calls=names
        )
    else:
        what = ncount(
            "{count} copy from or to pageable memory took {took} ({share} of the run)",
            "{count} copies from or to pageable memory took {took} ({share} of the run)",
            copies.size, took=ms_text(cost), share=share,
        )
    message = _(
        "{what}: the host buffer is pageable, so the driver stages every copy through its own pinned buffer"
        " and the call returns only when the data has moved.{rate} {advice}"
    ).format(what=what, rate=_rate(trace, copies), advice=_PAGEABLE_ADVICE.words(trace))
    return [Finding("host-blocked-pageable", message, rows_of(calls, copies))]


def _rate(trace: Trace, copies: npt.NDArray[np.intp]) -> str:
    """`` The copies ran at 3.9 GB/s.``; nothing where the trace records no bytes, nor for overlapviz's own runs.

    overlapviz's own summary prints the bandwidths beside the finding; another program's reader
    learns here how far below the link's rate its copies ran.
    """
    if Program.of(trace.meta) is Program.OVERLAPVIZ:
        return ""
    moved, summed = int(trace["bytes"][copies].sum()), int(trace.durations_of(copies).sum())
    if moved <= 0 or summed <= 0:
        return ""
    return " " + _("The copies ran at {rate}.").format(rate=rate_text(moved / summed))


_PAGEABLE_ADVICE = Advice(
    overlapviz=N_("Pinned memory (cudaMallocHost) lets the call return at once."),
    cuda=N_("Pinned memory (cudaMallocHost or cudaHostAlloc, or cudaHostRegister on a buffer the program has)"
    " copies at the link's full rate, and cudaMemcpyAsync from it returns at once."),
    python=N_("Pinned memory (tensor.pin_memory(), or DataLoader(pin_memory=True)) copies at the link's full"
    " rate, and tensor.to('cuda', non_blocking=True) from it returns at once."),
)


def sync_after_copy(trace: Trace, metrics: Metrics) -> list[Finding]:
    """Find a synchronize right after most copies: each copy had to finish before the host went on."""
    calls = api_by_start(trace)
    is_sync = synchronizes(trace, calls)
    op = trace["op"][calls]
    linked = (op >= 0) & (op < len(trace))
    copy_call = linked & trace.mask(OpKind.H2D, OpKind.D2H)[np.where(linked, op, 0)]
    followed = np.flatnonzero(copy_call[:-1] & is_sync[1:])
    copies = int(copy_call.sum())
    syncs = calls[followed + 1]
    waited = int(trace.durations_of(syncs).sum())
    if followed.size < 2 or followed.size < SYNC_AFTER_COPY_SHARE * copies:
        return []
    if waited < SYNC_WAIT_SHARE * metrics.makespan_ns:
        return []
    message = _(
        "The host called {calls} right after {followed} of the {copies} copies and waited {waited} in those calls"
        " ({share} of the run): each copy had to finish before the program went on, so nothing it issued next"
        " could overlap with it. {advice}"
    ).format(
        calls=series_text(sorted(api_names(trace, syncs))), followed=grouped(followed.size), copies=grouped(copies),
        waited=ms_text(waited), share=pct_text(waited, metrics.makespan_ns), advice=_SYNC_ADVICE.words(trace),
    )
    return [Finding("sync-after-copy", message, rows_of(calls[followed], syncs, trace["op"][calls[followed]]))]


def gpu_idle(trace: Trace, metrics: Metrics) -> list[Finding]:
    """Find another program's GPU idle most of the run: the host's own work between launches sets the pace."""
    device = trace.device_mask
    if is_pipeline(trace) or int(device.sum()) < 2:
        return []  # overlapviz's pipeline issues nothing but its ops: too-many-chunks speaks for it
    covered = covered_total_ns(trace, *DEVICE_KINDS)  # migrations, memsets and communication keep the GPU busy too
    makespan = metrics.makespan_ns
    if covered >= GPU_BUSY_SHARE * makespan:
        return []
    message = _(
        "The GPU was busy only {busy} of the {makespan} between its first op and its last ({share}): {advice}"
    ).format(
        busy=ms_text(covered), makespan=ms_text(makespan), share=pct_text(covered, makespan),
        advice=_IDLE_ADVICE.words(trace),
    )
    return [Finding("gpu-idle", message, rows_of(np.flatnonzero(device)))]


def alloc_per_run(trace: Trace, metrics: Metrics) -> list[Finding]:
    """Find allocating and freeing host memory taking a large share of what the program waited."""
    alloc, wall = metrics.host_alloc_ns, metrics.wall_ns
    if wall <= 0 or alloc < ALLOC_SHARE * wall:
        return []
    rows = np.flatnonzero(allocation_calls(trace))
    per_call: dict[str, int] = {}
    for row in rows[np.argsort(trace["start_ns"][rows], kind="stable")]:
        name = api_name(trace, int(row))
        per_call[name] = per_call.get(name, 0) + int(trace.durations_of(row))
    calls = ", ".join(f"{name} {ms_text(ns)}" for name, ns in per_call.items())
    pinning = next((name for name in per_call if name in _PINNING_CALLS), None)
    why = (
        _("{call} pins every page of a buffer before it returns, which is why it is slow").format(call=pinning)
        if pinning
        else _("the OS hands fresh pages over only when the program first touches them")
    )
    message = _(
        "Getting and giving back host memory took {alloc}, {share} of the {wall} the program waited, against"
        " {makespan} for the copies and kernels ({calls}): {why}. {advice}"
    ).format(
        alloc=ms_text(alloc), share=pct_text(alloc, wall), wall=ms_text(wall), makespan=ms_text(metrics.makespan_ns),
        calls=calls, why=why, advice=_ALLOC_ADVICE.words(trace),
    )
    return [Finding("alloc-per-run", message, rows_of(rows))]


_SYNC_ADVICE = Advice(
    overlapviz=N_("Synchronize only where the data is needed; in PyTorch, tensor.to(device, non_blocking=True) from"
    " pinned memory (pin_memory()) lets the copy run while the host goes on."),
    cuda=N_("Synchronize only where the data is needed: cudaMemcpyAsync from pinned memory (cudaMallocHost) on a"
    " stream of its own returns at once, and one cudaStreamSynchronize (or cudaEventSynchronize on an event"
    " recorded after the copy) waits where the result is read."),
    python=N_("Synchronize only where the data is needed: tensor.to(device, non_blocking=True) from pinned memory"
    " (pin_memory()) lets the copy run while the host goes on; .item(), .cpu() and printing a CUDA tensor"
    " each wait for the GPU."),
)
_IDLE_ADVICE = Advice(
    cuda=N_("the host's own work between the launches (reading and preparing data, the program's own code) sets the"
    " pace, and no overlap of copies and kernels can win much here. Do that work beside the GPU's: kernels and"
    " cudaMemcpyAsync return at once, so the host can prepare the next batch (or another host thread can)"
    " while the GPU computes, with a synchronize only where the results are read."),
    python=N_("the host's own work between the launches (loading and preparing data, Python) sets the pace, and no"
    " overlap of copies and kernels can win much here. Do that work beside the GPU's: in PyTorch,"
    " DataLoader(num_workers=...) prepares the next batches in worker processes while the GPU computes."),
)
_ALLOC_ADVICE = Advice(
    overlapviz=N_("Allocate the host buffers once, before the work, and reuse them for every run; pinned ones with"
    " cudaMallocHost, freed with cudaFreeHost when the program is done."),
    cuda=N_("Allocate the host buffers once, before the work, and reuse them for every run; pinned ones with"
    " cudaMallocHost, freed with cudaFreeHost when the program is done."),
    python=N_("Allocate the host tensors once, before the loop, and reuse them (copy_() into them); pinned ones with"
    " torch.empty(..., pin_memory=True), which PyTorch's caching host allocator then keeps for reuse."),
)


def host_blocked_callout(c: CalloutContext, finding: Finding, rows: Rows) -> list[Callout]:
    """How long the host was blocked in its copy calls, bracketing the blocked ends of those calls."""
    calls = of_kind(c.trace, rows, OpKind.API)
    if calls.size == 0:  # a trace without host calls: the copies themselves
        took = duration_text(summed_ns(c.trace, rows))
        text = _("pageable copies: {took}, staged by the driver").format(took=took)
        return [spanning(c, finding, rows, LaneGroup.HARDWARE, text)]
    blocked = c.blocked_ns[calls]
    names = series_text(sorted(api_names(c.trace, calls)))
    ends = c.trace["end_ns"][calls]
    text = _("host blocked {blocked} in {calls}: the host buffer is pageable").format(
        blocked=duration_text(int(blocked.sum())), calls=names
    )
    return [callout(c, finding, "host", ends - blocked, ends, text)]


def gpu_idle_callout(c: CalloutContext, finding: Finding, rows: Rows) -> list[Callout]:
    """How long the GPU stood idle, bracketing the gaps between its ops."""
    # The brackets mark the gaps, where the GPU stood idle, on the compute lane: bracketing the
    # busy spans of the lane with the most ops (often the migrations) read as blaming them.
    starts, ends = union_intervals(c.trace["start_ns"][rows], c.trace["end_ns"][rows])
    idle = c.metrics.makespan_ns - int((ends - starts).sum())
    wide = (starts[1:] - ends[:-1]) >= c.merge_gap_ns  # gaps too short to bracket are left out
    gaps = tuple(zip(ends[:-1][wide].tolist(), starts[1:][wide].tolist(), strict=True))
    kernels = rows[c.trace["kind"][rows] == OpKind.KERNEL]
    lane_key = busiest_lane(c, kernels if kernels.size else rows, LaneGroup.HARDWARE)
    text = _("GPU idle {idle}, {share} of the run, between its ops").format(
        idle=duration_text(idle), share=share(idle, c.metrics.makespan_ns)
    )
    return [Callout(finding.code, lane_key, gaps, text)]


def alloc_per_run_callout(c: CalloutContext, finding: Finding, rows: Rows) -> list[Callout]:
    """How long getting and giving back host memory took, bracketing those calls."""
    calls = of_kind(c.trace, rows, OpKind.API)
    names = api_names(c.trace, calls)
    pins = bool(names & {"cudaMallocHost", "cudaHostAlloc"})
    alloc, wall = c.metrics.host_alloc_ns, c.metrics.wall_ns
    text = (
        _("allocating and freeing host memory: {took}, {share} of the wait: cudaMallocHost pins every page")
        if pins
        else _("allocating and freeing host memory: {took}, {share} of the wait")
    ).format(took=duration_text(alloc), share=share(alloc, wall))
    return [callout(c, finding, "host", c.trace["start_ns"][calls], c.trace["end_ns"][calls], text)]


HOST_BLOCKED_PAGEABLE = Rule(
    code="host-blocked-pageable",
    detect=host_blocked_pageable,
    callout=host_blocked_callout,
    fires_when=(
        "Copies from or to pageable memory cost 1% of the makespan or more, on any stream, the legacy default "
        "stream too. Each copy costs the time the host was blocked in the call that issued it, or its own "
        "time where that is longer: the call returns only once the data has moved, so a host and device clock "
        "that disagree (an export made under WSL) or a trace without host calls still counts the copy. Under "
        "1% the rule is quiet, so pageable copies under 0.1% of the run (a one-off copy from `malloc`) are "
        "never reported: no other rule advises pinning either. The driver stages a pageable copy through its "
        "own pinned buffer, so the call returns only when the data has moved; for another program's trace the "
        "sentence adds the copies' rate (`The copies ran at 7.2 GB/s.`). Pinned memory lets the call return "
        "at once."
    ),
    points_at="those calls and their copies",
    scope=Scope.PROGRAM,
)
SYNC_AFTER_COPY = Rule(
    code="sync-after-copy",
    detect=sync_after_copy,
    callout=first_clause_callout,
    fires_when=(
        "A synchronize call (`cudaStreamSynchronize`, `cudaDeviceSynchronize`, `cudaEventSynchronize`, or "
        "their driver calls) came right after at least half of the copies (and at least two), and the host "
        "waited in those calls for 10% of the makespan or more: each copy had to finish before the program "
        "went on. PyTorch's `non_blocking=False` does this."
    ),
    points_at="those copies, their calls and the synchronize calls",
    scope=Scope.PROGRAM,
)
GPU_IDLE = Rule(
    code="gpu-idle",
    detect=gpu_idle,
    callout=gpu_idle_callout,
    fires_when=(
        "Another program's trace: the GPU was busy (any device op running: copies, kernels, communication, "
        "memsets, unified-memory migrations) for less than a quarter of the makespan. The host's own work "
        "between launches sets the pace; no overlap of copies and kernels can win much. A GPU busy migrating "
        "pages is not idle."
    ),
    points_at="all device ops",
)
ALLOC_PER_RUN = Rule(
    code="alloc-per-run",
    detect=alloc_per_run,
    callout=alloc_per_run_callout,
    fires_when=(
        "Getting and giving back host memory (**host alloc**) took 25% of the **wall** time or more. The "
        "sentence lists each allocation call's total time and says why it is slow (`cudaMallocHost` pins "
        "every page before it returns; with pageable memory, the pages arrive at the first touch), then what "
        "to do: allocate the host buffers once, before the work, and reuse them; pinned ones with "
        "`cudaMallocHost`, freed with `cudaFreeHost` when the program is done."
    ),
    points_at="the allocation and free calls",
    scope=Scope.PROGRAM,
)

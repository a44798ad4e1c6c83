"""The findings about the host thread: what it waited in, and what it did instead of feeding the GPU.

Copies from pageable memory, a synchronize after every copy, a GPU left idle by the host's own
work, and time spent getting and giving back host memory. The thresholds are round on
purpose, as in `overlapviz.core.findings`.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from overlapviz.core.finding import Finding, api_name, ms_text, pct_text, plain_api_name, rows_of
from overlapviz.core.metrics import (
    Metrics,
    allocation_calls,
    covered_rows_ns,
    host_blocked_per_row,
    issuing_calls,
    pageable_copy_calls,
)
from overlapviz.core.number_text import count_text, rate_text
from overlapviz.core.program_kind import Advice, Program
from overlapviz.core.trace import MemoryKind, OpKind, Trace
from overlapviz.core.trace_facts import is_pipeline

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
    return np.flatnonzero(trace.mask(OpKind.H2D, OpKind.D2H) & (trace["memory"] == MemoryKind.PAGEABLE))


def pageable_cost_ns(trace: Trace) -> int:
    """What the program paid for its pageable copies: for each, the host's time blocked in its call, or its own time.

    A pageable copy's call returns only once the data has moved, so the program waits at least
    as long as the copy ran: where the trace's host and device clocks disagree (an export made
    under WSL) or no call is recorded, the copy's own time is what it cost.
    """
    calls = np.flatnonzero(pageable_copy_calls(trace))
    blocked = np.zeros(len(trace), dtype=np.int64)
    blocked[trace["op"][calls]] = host_blocked_per_row(trace)[calls]
    copies = pageable_copies(trace)
    return int(np.maximum(blocked[copies], trace.duration_ns[copies]).sum())


def host_blocked_pageable(trace: Trace, metrics: Metrics) -> list[Finding]:
    """Find copies from or to pageable memory that cost the run a hundredth of its time or more."""
    cost = pageable_cost_ns(trace)
    if cost <= 0 or cost < PAGEABLE_COST_SHARE * metrics.makespan_ns:
        return []
    calls = np.flatnonzero(pageable_copy_calls(trace))
    copies = pageable_copies(trace)
    share = pct_text(cost, metrics.makespan_ns)
    if calls.size:
        names = " and ".join(sorted({api_name(trace, int(r)) for r in calls}))
        what = f"The host thread was blocked {ms_text(cost)} ({share} of the run) inside {names}"
    else:
        what = f"{count_text(copies.size, 'copy')} from or to pageable memory took {ms_text(cost)} ({share} of the run)"
    message = (
        f"{what}: the host buffer is pageable, so the driver stages every copy through its own pinned buffer"
        f" and the call returns only when the data has moved.{_rate(trace, copies)} {_PAGEABLE_ADVICE.words(trace)}"
    )
    return [Finding("host-blocked-pageable", message, rows_of(calls, copies))]


def _rate(trace: Trace, copies: npt.NDArray[np.intp]) -> str:
    """`` The copies ran at 3.9 GB/s.``; nothing where the trace records no bytes, nor for overlapviz's own runs.

    overlapviz's own summary prints the bandwidths beside the finding; another program's reader
    learns here how far below the link's rate its copies ran.
    """
    if Program.of(trace.meta) is Program.OVERLAPVIZ:
        return ""
    moved, summed = int(trace["bytes"][copies].sum()), int(trace.duration_ns[copies].sum())
    return f" The copies ran at {rate_text(moved / summed)}." if moved > 0 and summed > 0 else ""


_PAGEABLE_ADVICE = Advice(
    overlapviz="Pinned memory (cudaMallocHost) lets the call return at once.",
    cuda="Pinned memory (cudaMallocHost or cudaHostAlloc, or cudaHostRegister on a buffer the program has)"
    " copies at the link's full rate, and cudaMemcpyAsync from it returns at once.",
    python="Pinned memory (tensor.pin_memory(), or DataLoader(pin_memory=True)) copies at the link's full"
    " rate, and tensor.to('cuda', non_blocking=True) from it returns at once.",
)


def sync_after_copy(trace: Trace, metrics: Metrics) -> list[Finding]:
    """Find a synchronize right after most copies: each copy had to finish before the host went on."""
    calls = np.flatnonzero(trace["kind"] == OpKind.API)
    calls = calls[np.argsort(trace["start_ns"][calls], kind="stable")]
    is_sync = synchronizes(trace, calls)
    issuing = issuing_calls(trace)[calls]
    copy_call = issuing & np.isin(trace["kind"][np.where(issuing, trace["op"][calls], 0)], [OpKind.H2D, OpKind.D2H])
    followed = np.flatnonzero(copy_call[:-1] & is_sync[1:])
    copies = int(copy_call.sum())
    syncs = calls[followed + 1]
    waited = int(trace.duration_ns[syncs].sum())
    if followed.size < 2 or followed.size < SYNC_AFTER_COPY_SHARE * copies:
        return []
    if waited < SYNC_WAIT_SHARE * metrics.makespan_ns:
        return []
    sync_names = " and ".join(sorted({api_name(trace, int(r)) for r in syncs}))
    message = (
        f"The host called {sync_names} right after {followed.size} of the {copies} copies and waited"
        f" {ms_text(waited)} in those calls ({pct_text(waited, metrics.makespan_ns)} of the run): each copy had to"
        " finish before the program went on, so nothing it issued next could overlap with it."
        f" {_SYNC_ADVICE.words(trace)}"
    )
    return [Finding("sync-after-copy", message, rows_of(calls[followed], syncs, trace["op"][calls[followed]]))]


def gpu_idle(trace: Trace, metrics: Metrics) -> list[Finding]:
    """Find another program's GPU idle most of the run: the host's own work between launches sets the pace."""
    device = trace.device_mask
    if is_pipeline(trace) or int(device.sum()) < 2:
        return []  # overlapviz's pipeline issues nothing but its ops: too-many-chunks speaks for it
    covered = covered_rows_ns(trace, device)  # migrations, memsets and communication keep the GPU busy too
    makespan = metrics.makespan_ns
    if covered >= GPU_BUSY_SHARE * makespan:
        return []
    message = (
        f"The GPU was busy only {ms_text(covered)} of the {ms_text(makespan)} between its first op and its last"
        f" ({pct_text(covered, makespan)}): {_IDLE_ADVICE.words(trace)}"
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
        per_call[name] = per_call.get(name, 0) + int(trace.duration_ns[row])
    calls = ", ".join(f"{name} {ms_text(ns)}" for name, ns in per_call.items())
    pinning = next((name for name in per_call if name in _PINNING_CALLS), None)
    why = (
        f"{pinning} pins every page of a buffer before it returns, which is why it is slow"
        if pinning
        else "the OS hands fresh pages over only when the program first touches them"
    )
    message = (
        f"Getting and giving back host memory took {ms_text(alloc)}, {pct_text(alloc, wall)} of the {ms_text(wall)} the"
        f" program waited, against {ms_text(metrics.makespan_ns)} for the copies and kernels ({calls}): {why}."
        f" {_ALLOC_ADVICE.words(trace)}"
    )
    return [Finding("alloc-per-run", message, rows_of(rows))]


_SYNC_ADVICE = Advice(
    overlapviz="Synchronize only where the data is needed; in PyTorch, tensor.to(device, non_blocking=True) from"
    " pinned memory (pin_memory()) lets the copy run while the host goes on.",
    cuda="Synchronize only where the data is needed: cudaMemcpyAsync from pinned memory (cudaMallocHost) on a"
    " stream of its own returns at once, and one cudaStreamSynchronize (or cudaEventSynchronize on an event"
    " recorded after the copy) waits where the result is read.",
    python="Synchronize only where the data is needed: tensor.to(device, non_blocking=True) from pinned memory"
    " (pin_memory()) lets the copy run while the host goes on; .item(), .cpu() and printing a CUDA tensor"
    " each wait for the GPU.",
)
_IDLE_ADVICE = Advice(
    cuda="the host's own work between the launches (reading and preparing data, the program's own code) sets the"
    " pace, and no overlap of copies and kernels can win much here. Do that work beside the GPU's: kernels and"
    " cudaMemcpyAsync return at once, so the host can prepare the next batch (or another host thread can)"
    " while the GPU computes, with a synchronize only where the results are read.",
    python="the host's own work between the launches (loading and preparing data, Python) sets the pace, and no"
    " overlap of copies and kernels can win much here. Do that work beside the GPU's: in PyTorch,"
    " DataLoader(num_workers=...) prepares the next batches in worker processes while the GPU computes.",
)
_ALLOC_ADVICE = Advice(
    overlapviz="Allocate the host buffers once, before the work, and reuse them for every run; pinned ones with"
    " cudaMallocHost, freed with cudaFreeHost when the program is done.",
    cuda="Allocate the host buffers once, before the work, and reuse them for every run; pinned ones with"
    " cudaMallocHost, freed with cudaFreeHost when the program is done.",
    python="Allocate the host tensors once, before the loop, and reuse them (copy_() into them); pinned ones with"
    " torch.empty(..., pin_memory=True), which PyTorch's caching host allocator then keeps for reuse.",
)

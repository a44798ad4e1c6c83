"""Findings: what the picture shows, explained in one plain sentence each.

Every rule reads the trace (and its metrics) alone, so it works the same for the model, a
real GPU and a loaded file. A finding names its numbers and points at the spans (trace rows)
it talks about, so the view can highlight them. The thresholds below are deliberately round:
a finding should fire when the effect is plain to see on the timeline, not when it is a
matter of a few percent.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from overlapviz.core.columns import distinct
from overlapviz.core.comm_findings import exposed_communication
from overlapviz.core.finding import Finding as Finding
from overlapviz.core.finding import ms_text, pct_text, rows_of, unit_text
from overlapviz.core.host_findings import alloc_per_run, gpu_idle, host_blocked_pageable, sync_after_copy
from overlapviz.core.lanes import is_legacy_stream
from overlapviz.core.memory_findings import memory_findings
from overlapviz.core.metrics import (
    COPY_KINDS,
    Metrics,
    compute_metrics,
    covered_total_ns,
    host_issue_ns,
    issuing_calls,
    pageable_copy_calls,
)
from overlapviz.core.number_text import count_text, plural, series_text
from overlapviz.core.peer_findings import peer_bound, peers_lead
from overlapviz.core.program_findings import (
    legacy_default_stream,
    page_fault_migrations,
    small_copies,
    staged_peer_copy,
)
from overlapviz.core.program_kind import Advice
from overlapviz.core.trace import OpKind, Trace, Unit
from overlapviz.core.trace_facts import (
    bottleneck_stage,
    chunk_count,
    copy_engine_waits,
    delays_kernel_signals,
    idle_unit_waits,
    idle_while_issuing_ns,
    is_pipeline,
    on_gpus_of_several_streams,
    streams_available,
)

# Queueing is normal in a busy pipeline; a tenth of the run is where it starts to show as
# visible waiting bars on the stream lanes.
COPY_QUEUE_SHARE = 0.10
# A run that realised 90% of the saving its chunking allows (serial down to the best for this
# chunking) lost nothing worth explaining by queueing.
COPY_QUEUE_SAVING_OK = 0.9
# Ops that wait with their engine idle for a tenth of the run: the scheduling, not the work,
# visibly stretched it.
FALSE_DEPENDENCY_SHARE = 0.10
# A stage limits the run when its busy time clearly exceeds the other's; within 20% the two
# are balanced and neither explanation would be honest.
BOUND_RATIO = 1.2
# Which stage limits only matters when stages overlapped at all: a run within 10% of the
# serial time is explained by whatever stopped the overlap, not by its slowest stage.
OVERLAP_GATE = 0.9
# Unavoidable fill and drain worth a quarter of the run: more chunks would visibly shorten it.
FILL_DRAIN_SHARE = 0.25
# Beyond 8 chunks fill and drain are short on their own; what remains is something else.
FEW_CHUNKS_MAX = 8
# The host spent half the run inside the calls that issue the work: it, not the device,
# sets the pace, or...
HOST_ISSUE_SHARE = 0.5
# A quarter of the run with the device idle while the host was still issuing: the device was
# starved by per-call cost...
IDLE_WHILE_ISSUING_SHARE = 0.25
# ...and either way that pace cost time: the run ends at least 10% after the best its chunking
# allows. A long issue loop that finishes while the device is still busy with earlier chunks
# costs nothing.
HOST_LOSS_RATIO = 1.1
# Streams are worth advising where host copies ran a hundredth of the run: below that there is
# nothing for a kernel to hide (kernels on one stream alone are how most programs run).
STREAM_COPY_SHARE = 0.01
_DIRECTION = {OpKind.H2D: "H2D", OpKind.D2H: "D2H"}
_KIND_NOUNS = {
    OpKind.H2D: "H2D copy", OpKind.KERNEL: "kernel", OpKind.D2H: "D2H copy", OpKind.MEMSET: "memset",
    OpKind.D2D: "D2D copy", OpKind.PEER: "peer copy", OpKind.MIGRATION: "unified-memory migration",
    OpKind.PREFETCH: "prefetch", OpKind.COMMUNICATION: "communication kernel",
}  # fmt: skip
_ENGINE = {
    Unit.H2D_ENGINE: "H2D engine",
    Unit.D2H_ENGINE: "D2H engine",
    Unit.COPY_ENGINE: "single copy engine",
}


Rule = Callable[[Trace, Metrics], list[Finding]]


def find_findings(trace: Trace, metrics: Metrics | None = None, rules: tuple[Rule, ...] | None = None) -> list[Finding]:
    """Every finding of `rules` (default: all, `RULES`) that applies to `trace`, in a fixed rule order."""
    return [found for by_rule in findings_by_rule(trace, metrics, rules) for found in by_rule]


def findings_by_rule(
    trace: Trace, metrics: Metrics | None = None, rules: tuple[Rule, ...] | None = None
) -> tuple[tuple[Finding, ...], ...]:
    """The findings of each rule of `rules` (default: all, `RULES`) on `trace`, one tuple per rule, in order."""
    metrics = compute_metrics(trace) if metrics is None else metrics
    rules = RULES if rules is None else rules
    if metrics.makespan_ns <= 0:
        return tuple(() for _ in rules)
    return tuple(tuple(rule(trace, metrics)) for rule in rules)


def single_stream(trace: Trace, metrics: Metrics) -> list[Finding]:
    """Find every device op on one stream, each waiting for the one before it."""
    device = np.flatnonzero(trace.device_mask & (trace["stream"] >= 0))  # migrations are on no stream
    chunks = chunk_count(trace)
    if len(distinct(trace["stream"][device])) != 1 or chunks < 2:
        return []
    if covered_total_ns(trace, *COPY_KINDS) < STREAM_COPY_SHARE * metrics.makespan_ns:
        return []  # no host copies worth hiding under the kernels
    of_what = f"of the {chunks} chunks " if is_pipeline(trace) else ""
    legacy = is_legacy_stream(trace.meta, int(trace["stream"][device[0]]))
    where = "the legacy default stream" if legacy else "one stream"
    which = "Non-blocking streams" if legacy else "Two or more streams"
    what = "one chunk's copies run beside another chunk's kernel" if is_pipeline(trace) else "copies run beside kernels"
    in_words = _LEGACY_STREAM_ADVICE if legacy else _STREAMS_ADVICE
    advice = dataclasses.replace(in_words, overlapviz=f"{which} let {what}.").words(trace)
    message = (
        f"All {device.size} device ops {of_what}ran on {where}: every op waited for the"
        f" one before it, so nothing overlapped and the run took {ms_text(metrics.makespan_ns)}"
        f" against {ms_text(metrics.serial_ns)} for its ops back to back. {advice}"
    )
    return [Finding("single-stream", message, rows_of(device))]


def copy_queue(trace: Trace, metrics: Metrics) -> list[Finding]:
    """Find copies of one direction waiting for their engine while it ran other copies."""
    possible = metrics.serial_ns - metrics.chunking_bound_ns
    if possible > 0 and metrics.time_saved_ns >= COPY_QUEUE_SAVING_OK * possible:
        return []  # copies queue in every busy pipeline; it only explains something when time was lost
    waits = copy_engine_waits(trace)
    found = []
    for kind, label in _DIRECTION.items():
        rows = np.flatnonzero(trace.mask(kind) & (waits > 0))
        total = int(waits[rows].sum())
        if rows.size == 0 or total < COPY_QUEUE_SHARE * metrics.makespan_ns:
            continue
        engines = {Unit(int(u)) for u in distinct(trace["unit"][rows])}
        noun = _ENGINE.get(next(iter(engines)), "copy engine") if len(engines) == 1 else "copy engine"
        engine, several = unit_text(trace, noun, rows)
        if len(engines) > 1 and not several:  # one GPU's engines of both kinds
            engine, several = engine.replace("copy engine", "copy engines", 1), True
        carries = "each carries" if several else "it carries"
        both_ways = f" ({carries} both directions)" if engines == {Unit.COPY_ENGINE} else ""
        # Waits of several copies run side by side, so their sum is set against the run's
        # length in words rather than as a share that could pass 100%.
        message = (
            f"{count_text(rows.size, f'{label} copy')}, ready to run, waited {ms_text(total)} in all (the run took"
            f" {ms_text(metrics.makespan_ns)}) while {engine}{both_ways} ran other copies: an engine"
            f" runs one copy at a time, so {label} copies issued on different streams queue behind"
            " each other instead of overlapping."
        )
        found.append(Finding("copy-queue", message, rows_of(rows)))
    return found


def false_dependency(trace: Trace, metrics: Metrics) -> list[Finding]:
    """Find ops that were ready but waited while the hardware they needed stood idle.

    Nothing in the op's own stream held it back, nor a wait the program recorded (its
    ``ready_ns`` says so), and its engine was free, so only the GPU's scheduling did: a hardware
    queue that hands ops over in issue order (an op of another stream, not ready yet, in front
    of it) or, on Fermi, a completion signal held back. A GPU of one stream has no other stream
    to put in front: its ops are left out.
    """
    waits = idle_unit_waits(trace)
    rows = np.flatnonzero((waits > 0) & on_gpus_of_several_streams(trace))
    total = int(waits[rows].sum())
    if rows.size == 0 or total < FALSE_DEPENDENCY_SHARE * metrics.makespan_ns:
        return []
    nouns = [_KIND_NOUNS[OpKind(int(k))] for k in distinct(trace["kind"][rows])]
    # one kind names itself; several are counted as ops, their kinds listed after
    what = plural(nouns[0], rows.size) if len(nouns) == 1 else f"ops ({series_text([plural(n, 2) for n in nouns])})"
    fermi = (
        " This GPU (Fermi) also holds back the completion of kernels issued back to back until the last"
        " one ends."
        if delays_kernel_signals(trace)
        else ""
    )
    message = (
        f"{rows.size} {what}, ready to run, waited {ms_text(total)} in all (the run took"
        f" {ms_text(metrics.makespan_ns)}) while the hardware they needed stood idle: not their streams but the"
        " GPU's scheduling held them back. Ops reach the engines through hardware queues in issue order,"
        " so one can sit behind an op of another stream that is not ready yet (a false dependency)."
        f"{fermi} Another issue order, or no more streams than the GPU has hardware queues, avoids it."
    )
    return [Finding("false-dependency", message, rows_of(rows))]


def stage_bound(trace: Trace, metrics: Metrics) -> list[Finding]:
    """Tell which stage limits an overlapping run: the kernels or the copies."""
    if chunk_count(trace) < 2 or metrics.makespan_ns >= OVERLAP_GATE * metrics.serial_ns:
        return []
    if host_bound(trace, metrics):
        return []  # the host, not a stage, sets the pace: too_many_chunks says so
    if not trace.mask(OpKind.H2D, OpKind.D2H).any():
        return []  # no copies to weigh the kernels against (mapped or managed memory)
    if peers_lead(trace, metrics):
        return []  # the copies between GPUs set the pace: peer_bound says so
    kernel = metrics.busy_ns["kernel"]
    h2d, d2h = metrics.busy_ns["h2d"], metrics.busy_ns["d2h"]
    shared_engine = trace.copy_engines < 2
    if shared_engine:
        copy_kinds: tuple[OpKind, ...] = (OpKind.H2D, OpKind.D2H)
    else:
        copy_kinds = (OpKind.H2D,) if h2d >= d2h else (OpKind.D2H,)
    copy_busy = h2d + d2h if shared_engine else max(h2d, d2h)
    makespan = metrics.makespan_ns
    if kernel > 0 and kernel >= BOUND_RATIO * copy_busy:
        busiest = _DIRECTION[copy_kinds[0]]
        other = "the copies together" if shared_engine else f"the busiest copy direction ({busiest})"
        share = pct_text(covered_total_ns(trace, OpKind.KERNEL), makespan)
        kernels = np.flatnonzero(trace.mask(OpKind.KERNEL))
        unit, several = unit_text(trace, "compute unit", kernels)
        message = (
            f"Kernels limit this run: {unit} {'were' if several else 'was'} busy {share} of it ({ms_text(kernel)} of"
            f" {ms_text(makespan)}) against {ms_text(copy_busy)} for {other};"
            " faster copies would not shorten it."
        )
        return [Finding("kernel-bound", message, rows_of(kernels))]
    if copy_busy > 0 and copy_busy >= BOUND_RATIO * kernel:
        direction = _DIRECTION[copy_kinds[0]]
        what = "Copies" if shared_engine else f"{direction} copies"
        copies = np.flatnonzero(trace.mask(*copy_kinds))
        engine, several = unit_text(trace, "single copy engine" if shared_engine else f"{direction} engine", copies)
        if shared_engine:
            engine += ", shared by both directions,"
        share = pct_text(covered_total_ns(trace, *copy_kinds), makespan)
        was = "were" if several else "was"
        message = (
            f"{what} limit this run: {engine} {was} busy {share} of it ({ms_text(copy_busy)} of"
            f" {ms_text(makespan)}) against {ms_text(kernel)} for the kernels;"
            " faster kernels would not shorten it, moving fewer bytes would."
        )
        return [Finding("copy-bound", message, rows_of(copies))]
    return []


def too_few_chunks(trace: Trace, metrics: Metrics) -> list[Finding]:
    """Find filling and draining the pipeline taking a large share of the run."""
    chunks = chunk_count(trace)
    if not is_pipeline(trace) or chunks > FEW_CHUNKS_MAX or streams_available(trace) < 2:
        return []  # another program's ops come in no chunks that it could split further
    stage, busiest = bottleneck_stage(trace, metrics)
    # The fill and drain this chunking cannot avoid: how far even a perfect schedule (the
    # bound for this chunking) runs past the busiest stage's own work. The measured makespan would also
    # count waiting with other causes (too few streams, issue order, pageable copies).
    fill_drain = metrics.chunking_bound_ns - busiest
    if fill_drain < FILL_DRAIN_SHARE * metrics.makespan_ns:
        return []
    first = _first_row(trace, OpKind.H2D, by_end=False)
    last_kind = OpKind.D2H if trace.mask(OpKind.D2H).any() else OpKind.KERNEL
    last = _first_row(trace, last_kind, by_end=True)
    ending = "D2H copy" if last_kind is OpKind.D2H else "kernel"
    message = (
        f"Filling and draining the pipeline cost at least {ms_text(fill_drain)}"
        f" ({pct_text(fill_drain, metrics.makespan_ns)} of the run): with only {count_text(chunks, 'chunk')},"
        f" the first H2D copy runs before any kernel can start and the last {ending} after everything else, so"
        " even a"
        f" perfect schedule needs {ms_text(metrics.chunking_bound_ns)} where the busiest stage ({stage}) works"
        f" {ms_text(busiest)}. More, smaller chunks shorten both ends."
    )
    return [Finding("too-few-chunks", message, rows_of([r for r in (first, last) if r >= 0]))]


def too_many_chunks(trace: Trace, metrics: Metrics) -> list[Finding]:
    """Find the host's per-call cost setting the pace: the device waited to be given work.

    Calls that issue pageable copies are left out: the time spent in them is the subject of
    `host_blocked_pageable`, not a per-call cost.
    """
    chunks = chunk_count(trace)
    calls = np.flatnonzero(issuing_calls(trace) & ~pageable_copy_calls(trace))
    if chunks < 2 or calls.size == 0 or not host_bound(trace, metrics, calls):
        return []
    makespan = metrics.makespan_ns
    issue = host_issue_ns(trace, calls)
    idle = idle_while_issuing_ns(trace, calls)
    starved = f"; the device sat idle {ms_text(idle)} ({pct_text(idle, makespan)}) between ops" if idle > 0 else ""
    each = f"about {ms_text(issue / calls.size)} each with the code between them"
    if not is_pipeline(trace):
        if idle < IDLE_WHILE_ISSUING_SHARE * makespan:
            return []  # with no chunking to compare against, only a starved GPU shows the launches cost
        message = (
            f"The host spent {ms_text(issue)} ({pct_text(issue, makespan)} of the run) issuing"
            f" {calls.size:,} API calls, {each}, so the GPU was fed slower than it worked{starved}: the run is"
            f" launch-bound. {_LAUNCH_ADVICE.words(trace)}"
        )
        return [Finding("launch-bound", message, rows_of(calls))]
    message = (
        f"The host spent {ms_text(issue)} ({pct_text(issue, makespan)} of the run) issuing {calls.size:,} API calls"
        f" for {chunks} chunks, {each}, so the device was fed slower"
        f" than it worked: the run took {ms_text(makespan)} where this chunking allows"
        f" {ms_text(metrics.chunking_bound_ns)}{starved}."
        " Fewer, larger chunks cut the calls."
    )
    return [Finding("too-many-chunks", message, rows_of(calls))]


def host_bound(trace: Trace, metrics: Metrics, calls: npt.NDArray[np.intp] | None = None) -> bool:
    """Whether issuing calls took the host most of the run and the run lost time for it."""
    if calls is None:
        calls = np.flatnonzero(issuing_calls(trace) & ~pageable_copy_calls(trace))
    if calls.size == 0:
        return False
    makespan = metrics.makespan_ns
    slow_host = (host_issue_ns(trace, calls) >= HOST_ISSUE_SHARE * makespan
                 or idle_while_issuing_ns(trace, calls) >= IDLE_WHILE_ISSUING_SHARE * makespan)
    return slow_host and makespan >= HOST_LOSS_RATIO * metrics.chunking_bound_ns


RULES: tuple[Rule, ...] = (
    host_blocked_pageable,
    sync_after_copy,
    single_stream,
    legacy_default_stream,
    copy_queue,
    small_copies,
    staged_peer_copy,
    page_fault_migrations,
    false_dependency,
    peer_bound,
    exposed_communication,
    stage_bound,
    too_few_chunks,
    too_many_chunks,
    gpu_idle,
    alloc_per_run,
    memory_findings,
)
# The rules about the program as a whole: its host thread, its allocations, data moving from
# one GPU to another. With several GPUs they read the whole trace, the others each GPU's part.
PROGRAM_RULES: tuple[Rule, ...] = (
    host_blocked_pageable, sync_after_copy, small_copies, staged_peer_copy, alloc_per_run,
)  # fmt: skip


_STREAMS_ADVICE = Advice(
    cuda="cudaMemcpyAsync from pinned memory (cudaMallocHost) on two or more streams (cudaStreamCreate), the"
    " data split in parts, lets one part's copies run beside another part's kernel.",
    python="Copies on a torch.cuda.Stream() of their own (with torch.cuda.stream(s): x.to('cuda',"
    " non_blocking=True) from pinned memory) run beside the kernels on the current stream.",
)
_LEGACY_STREAM_ADVICE = Advice(
    cuda="cudaMemcpyAsync from pinned memory (cudaMallocHost) on two or more streams created with"
    " cudaStreamCreateWithFlags(cudaStreamNonBlocking), the data split in parts, lets copies run beside"
    " kernels.",
    python="Copies on a torch.cuda.Stream() of their own (with torch.cuda.stream(s): x.to('cuda',"
    " non_blocking=True) from pinned memory) run beside the kernels on the current stream.",
)
_LAUNCH_ADVICE = Advice(
    cuda="Fewer, larger kernels and copies, or a CUDA Graph (stream capture, then cudaGraphLaunch) that launches"
    " them all at once, cut the calls.",
    python="Fewer, larger kernels and copies (batched tensors, fused operations: torch.compile), or a CUDA Graph"
    " (torch.cuda.CUDAGraph, torch.compile(mode='reduce-overhead')) that launches them all at once, cut the calls.",
)


def _first_row(trace: Trace, kind: OpKind, *, by_end: bool) -> int:
    """Return the earliest-starting row of `kind` (`by_end`: the latest-ending); -1 if none."""
    rows = np.flatnonzero(trace.mask(kind))
    if rows.size == 0:
        return -1
    if by_end:
        return int(rows[np.argmax(trace["end_ns"][rows])])
    return int(rows[np.argmin(trace["start_ns"][rows])])



"""The findings about a pipeline's pace: which stage limits it, and what its chunking costs.

The kernels or the copies limiting an overlapping run, too few chunks to hide the fill and
drain, and a host that issues its calls slower than the device works. The thresholds are
round on purpose, as in `overlapviz.core.findings.streams`.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from overlapviz.core.analysis.issuing import unpaged_issue_ns, unpaged_issuing_parts, unpaged_issuing_rows
from overlapviz.core.analysis.metrics import (
    Metrics,
    covered_total_ns,
    host_issue_ns,
)
from overlapviz.core.analysis.program_kind import Advice
from overlapviz.core.analysis.trace_facts import (
    bottleneck_stage,
    chunk_count,
    idle_while_ns,
    is_pipeline,
    streams_available,
)
from overlapviz.core.findings.callout import (
    Callout,
    CalloutContext,
    Rows,
    busiest_lane,
    callout,
    first_clause_callout,
    lane_title,
    of_kind,
    one_span,
    share,
    spanning,
)
from overlapviz.core.findings.finding import Finding, ms_text, pct_text, rows_of, unit_text
from overlapviz.core.findings.peers import peers_lead
from overlapviz.core.findings.rule import Rule
from overlapviz.core.findings.streams import DIRECTION
from overlapviz.core.i18n import N_, _, grouped, ncount
from overlapviz.core.number_text import duration_text
from overlapviz.core.trace.answer_cache import kept_per_trace
from overlapviz.core.trace.lanes import LaneGroup
from overlapviz.core.trace.spans import OpKind, Trace

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
    if kernel > 0 and kernel >= BOUND_RATIO * copy_busy:
        return _kernel_bound(trace, metrics, copy_kinds, copy_busy, shared_engine)
    if copy_busy > 0 and copy_busy >= BOUND_RATIO * kernel:
        return _copy_bound(trace, metrics, copy_kinds, copy_busy, shared_engine)
    return []


def _kernel_bound(
    trace: Trace, metrics: Metrics, copy_kinds: tuple[OpKind, ...], copy_busy: int, shared_engine: bool
) -> list[Finding]:
    """The kernel-bound finding: the compute units' busy time against the copies'."""
    kernel, makespan = metrics.busy_ns["kernel"], metrics.makespan_ns
    busiest = DIRECTION[copy_kinds[0]]
    other = (
        _("the copies together")
        if shared_engine
        else _("the busiest copy direction ({direction})").format(direction=busiest)
    )
    share = pct_text(covered_total_ns(trace, OpKind.KERNEL), makespan)
    kernels = trace.rows(OpKind.KERNEL)
    unit, several = unit_text(trace, "compute unit", kernels)
    sentence = (
        _(
            "Kernels limit this run: {unit} were busy {share} of it ({busy} of {makespan}) against {copies} for"
            " {other}; faster copies would not shorten it."
        )
        if several
        else _(
            "Kernels limit this run: {unit} was busy {share} of it ({busy} of {makespan}) against {copies} for"
            " {other}; faster copies would not shorten it."
        )
    )
    message = sentence.format(
        unit=unit,
        share=share,
        busy=ms_text(kernel),
        makespan=ms_text(makespan),
        copies=ms_text(copy_busy),
        other=other,
    )
    return [Finding("kernel-bound", message, rows_of(kernels))]


def _copy_bound(
    trace: Trace, metrics: Metrics, copy_kinds: tuple[OpKind, ...], copy_busy: int, shared_engine: bool
) -> list[Finding]:
    """The copy-bound finding: the limiting copy engine's busy time against the kernels'."""
    kernel, makespan = metrics.busy_ns["kernel"], metrics.makespan_ns
    direction = DIRECTION[copy_kinds[0]]
    what = _("Copies") if shared_engine else _("{direction} copies").format(direction=direction)
    copies = trace.rows(*copy_kinds)
    engine, several = unit_text(trace, "single copy engine" if shared_engine else f"{direction} engine", copies)
    if shared_engine:
        engine = _("{engine}, shared by both directions,").format(engine=engine)
    share = pct_text(covered_total_ns(trace, *copy_kinds), makespan)
    sentence = (
        _(
            "{what} limit this run: {engine} were busy {share} of it ({busy} of {makespan}) against {kernels} for"
            " the kernels; faster kernels would not shorten it, moving fewer bytes would."
        )
        if several
        else _(
            "{what} limit this run: {engine} was busy {share} of it ({busy} of {makespan}) against {kernels}"
            " for the kernels; faster kernels would not shorten it, moving fewer bytes would."
        )
    )
    message = sentence.format(
        what=what,
        engine=engine,
        share=share,
        busy=ms_text(copy_busy),
        makespan=ms_text(makespan),
        kernels=ms_text(kernel),
    )
    return [Finding("copy-bound", message, rows_of(copies))]


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
    ending = _("D2H copy") if last_kind is OpKind.D2H else _("kernel")
    message = _(
        "Filling and draining the pipeline cost at least {fill_drain} ({share} of the run): with only {chunks},"
        " the first H2D copy runs before any kernel can start and the last {ending} after everything else, so"
        " even a perfect schedule needs {bound} where the busiest stage ({stage}) works {busiest}. More, smaller"
        " chunks shorten both ends."
    ).format(
        fill_drain=ms_text(fill_drain),
        share=pct_text(fill_drain, metrics.makespan_ns),
        chunks=ncount("{count} chunk", "{count} chunks", chunks),
        ending=ending,
        bound=ms_text(metrics.chunking_bound_ns),
        stage=stage,
        busiest=ms_text(busiest),
    )
    return [Finding("too-few-chunks", message, rows_of([r for r in (first, last) if r >= 0]))]


def too_many_chunks(trace: Trace, metrics: Metrics) -> list[Finding]:
    """Find the host's per-call cost setting the pace: the device waited to be given work.

    Calls that issue pageable copies are left out: the time spent in them is the subject of
    `host_blocked_pageable`, not a per-call cost.
    """
    chunks = chunk_count(trace)
    calls = unpaged_calls(trace)
    if chunks < 2 or calls.size == 0 or not host_bound(trace, metrics):
        return []
    makespan = metrics.makespan_ns
    issue = unpaged_issue_ns(trace)
    idle = _unpaged_idle_ns(trace)
    starved = (
        _("; the device sat idle {idle} ({share}) between ops").format(
            idle=ms_text(idle), share=pct_text(idle, makespan)
        )
        if idle > 0
        else ""
    )
    values = {
        "issue": ms_text(issue), "share": pct_text(issue, makespan), "calls": grouped(calls.size),
        "each": ms_text(issue / calls.size), "starved": starved,
    }  # fmt: skip
    if not is_pipeline(trace):
        if idle < IDLE_WHILE_ISSUING_SHARE * makespan:
            return []  # with no chunking to compare against, only a starved GPU shows the launches cost
        message = _(
            "The host spent {issue} ({share} of the run) issuing {calls} API calls, about {each} each with the code"
            " between them, so the GPU was fed slower than it worked{starved}: the run is launch-bound. {advice}"
        ).format(**values, advice=_LAUNCH_ADVICE.words(trace))
        return [Finding("launch-bound", message, rows_of(calls))]
    message = _(
        "The host spent {issue} ({share} of the run) issuing {calls} API calls for {chunks} chunks, about {each}"
        " each with the code between them, so the device was fed slower than it worked: the run took {makespan}"
        " where this chunking allows {bound}{starved}. Fewer, larger chunks cut the calls."
    ).format(**values, chunks=grouped(chunks), makespan=ms_text(makespan), bound=ms_text(metrics.chunking_bound_ns))
    return [Finding("too-many-chunks", message, rows_of(calls))]


def host_bound(trace: Trace, metrics: Metrics) -> bool:
    """Whether issuing calls took the host most of the run and the run lost time for it."""
    if unpaged_calls(trace).size == 0:
        return False
    makespan = metrics.makespan_ns
    slow_host = (
        unpaged_issue_ns(trace) >= HOST_ISSUE_SHARE * makespan
        or _unpaged_idle_ns(trace) >= IDLE_WHILE_ISSUING_SHARE * makespan
    )
    return slow_host and makespan >= HOST_LOSS_RATIO * metrics.chunking_bound_ns


def unpaged_calls(trace: Trace) -> npt.NDArray[np.intp]:
    """The issuing calls, less those that copy pageable memory (the time in them is the host blocked)."""
    return unpaged_issuing_rows(trace)


@kept_per_trace
def _unpaged_idle_ns(trace: Trace) -> int:
    return idle_while_ns(trace, unpaged_issuing_parts(trace))


_LAUNCH_ADVICE = Advice(
    cuda=N_(
        "Fewer, larger kernels and copies, or a CUDA Graph (stream capture, then cudaGraphLaunch) that launches"
        " them all at once, cut the calls."
    ),
    python=N_(
        "Fewer, larger kernels and copies (batched tensors, fused operations: torch.compile), or a CUDA Graph"
        " (torch.cuda.CUDAGraph, torch.compile(mode='reduce-overhead')) that launches them all at once, cut the calls."
    ),
)


def _first_row(trace: Trace, kind: OpKind, *, by_end: bool) -> int:
    """Return the earliest-starting row of `kind` (`by_end`: the latest-ending); -1 if none."""
    rows = trace.rows(kind)
    if rows.size == 0:
        return -1
    if by_end:
        return int(rows[np.argmax(trace["end_ns"][rows])])
    return int(rows[np.argmin(trace["start_ns"][rows])])


def kernel_bound_callout(c: CalloutContext, finding: Finding, rows: Rows) -> list[Callout]:
    """How much of the run the compute units were busy, bracketing the kernels."""
    busy = share(covered_total_ns(c.trace, OpKind.KERNEL), c.metrics.makespan_ns)
    text = _("kernel-bound: compute busy {busy} of the run; faster copies would not help").format(busy=busy)
    return [spanning(c, finding, rows, LaneGroup.HARDWARE, text)]


def copy_bound_callout(c: CalloutContext, finding: Finding, rows: Rows) -> list[Callout]:
    """How much of the run the limiting copy engine was busy, bracketing its copies."""
    kinds = sorted({OpKind(int(k)) for k in c.trace["kind"][rows]})
    busy = share(covered_total_ns(c.trace, *kinds), c.metrics.makespan_ns)
    lane_key = busiest_lane(c, rows, LaneGroup.HARDWARE)
    text = _("copy-bound: {unit} busy {busy} of the run; faster kernels would not help").format(
        unit=lane_title(c, lane_key), busy=busy
    )
    return [spanning(c, finding, rows, LaneGroup.HARDWARE, text)]


def too_few_chunks_callout(c: CalloutContext, finding: Finding, rows: Rows) -> list[Callout]:
    """``fill`` over the first copy and ``drain`` over the last op, each bracketing that one span."""
    by_start = rows[np.argsort(c.trace["start_ns"][rows], kind="stable")]
    first, last = int(by_start[0]), int(by_start[-1])
    _stage, busiest = bottleneck_stage(c.trace, c.metrics)
    fill_drain = max(c.metrics.chunking_bound_ns - busiest, 0)
    chunks = chunk_count(c.trace)
    fill = _("fill: nothing else can run yet ({chunks})").format(
        chunks=ncount("{count} chunk", "{count} chunks", chunks)
    )
    callouts = [one_span(c, finding, first, fill)]
    if last != first:
        drain = _("drain: nothing else is left; fill + drain \u2265 {duration}").format(
            duration=duration_text(fill_drain)
        )
        callouts.append(one_span(c, finding, last, drain))
    return callouts


def too_many_chunks_callout(c: CalloutContext, finding: Finding, rows: Rows) -> list[Callout]:
    """How many calls fed the GPU, and their cost each, bracketing them on the host lane."""
    calls = of_kind(c.trace, rows, OpKind.API)
    per_call = host_issue_ns(c.trace, calls) / max(calls.size, 1)
    text = ncount(
        "host-bound: {count} API call, about {each} each, feed the GPU too slowly",
        "host-bound: {count} API calls, about {each} each, feed the GPU too slowly",
        calls.size,
        each=duration_text(per_call),
    )
    return [callout(c, finding, "host", c.trace["start_ns"][calls], c.trace["end_ns"][calls], text)]


KERNEL_BOUND = Rule(
    code="kernel-bound",
    detect=stage_bound,
    callout=kernel_bound_callout,
    fires_when=(
        "With more than one chunk, real overlap (makespan under 90% of serial) and a host that is not the "
        "bottleneck (see `too-many-chunks`), kernel busy time is at least 1.2× the busier copy direction "
        "(with one copy engine: 1.2× both directions together). Faster copies would not shorten the run."
    ),
    points_at="the kernels",
)
COPY_BOUND = Rule(
    code="copy-bound",
    detect=stage_bound,
    callout=copy_bound_callout,
    fires_when=(
        "Same conditions, the other way round: a copy direction (with one copy engine: the copies together) "
        "is busy at least 1.2× as long as the kernels. The finding names the direction."
    ),
    points_at="that direction's copies",
)
TOO_FEW_CHUNKS = Rule(
    code="too-few-chunks",
    detect=too_few_chunks,
    callout=too_few_chunks_callout,
    fires_when=(
        "At most 8 chunks, more than one stream available (from the run's configuration), and the fill and "
        "drain that this chunking cannot avoid (the best for this chunking minus the busiest stage's busy "
        "time) is 25% of the makespan or more. Measuring from that bound rather than the makespan keeps "
        "waiting with other causes (too few streams, issue order, pageable copies) from being blamed on the "
        "chunk count."
    ),
    points_at="the first H2D copy and the last D2H copy (or kernel)",
)
TOO_MANY_CHUNKS = Rule(
    code="too-many-chunks",
    detect=too_many_chunks,
    callout=too_many_chunks_callout,
    fires_when=(
        "More than one chunk, the host needed at least half the makespan to issue its calls (first call's "
        "start to the last issuing call's end), and the run ended at least 10% after the best for this "
        "chunking: the device was fed slower than it worked. A long issue loop that ends while the device is "
        "still busy with earlier chunks costs nothing and is not reported. Calls that copy pageable memory "
        "are left out: their time is the `host-blocked-pageable` story. Fewer, larger chunks cut the calls."
    ),
    points_at="the issuing API calls",
)
LAUNCH_BOUND = Rule(
    code="launch-bound",
    detect=too_many_chunks,
    callout=first_clause_callout,
    fires_when=(
        "Another program's trace (no pipeline settings): the host issued calls as `too-many-chunks` says, and "
        "the GPU sat idle between ops while the host was issuing for a quarter of the makespan or more. "
        "Fewer, larger kernels and copies, or a CUDA Graph, cut the calls."
    ),
    points_at="the issuing API calls",
)

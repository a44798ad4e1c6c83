"""The findings about streams: ops that waited for one another, or for their engine, instead of overlapping.

All device ops on one stream, copies of one direction queued behind each other on their
engine, and ops held back by the GPU's scheduling while the hardware they needed stood idle.
The thresholds are round on purpose: a finding should fire when the effect is plain to see on
the timeline, not when it is a matter of a few percent.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from overlapviz.core.analysis.issuing import rows_mask
from overlapviz.core.analysis.metrics import COPY_KINDS, Metrics, covered_total_ns
from overlapviz.core.analysis.program_kind import Advice
from overlapviz.core.analysis.trace_facts import (
    chunk_count,
    copy_engine_waits,
    delays_kernel_signals,
    idle_unit_waits,
    idle_waits_by_row,
    is_pipeline,
    on_gpus_of_several_streams,
)
from overlapviz.core.findings.callout import Callout, CalloutContext, Rows, busiest_lane, callout, lane_title
from overlapviz.core.findings.finding import Finding, ms_text, rows_of, unit_text
from overlapviz.core.findings.rule import Rule
from overlapviz.core.i18n import N_, _, grouped, ncount, ngettext
from overlapviz.core.number_text import duration_text, series_text
from overlapviz.core.trace.frozen_columns import distinct
from overlapviz.core.trace.lanes import LaneGroup, is_legacy_stream
from overlapviz.core.trace.spans import DEVICE_KINDS, OpKind, Trace, Unit

# Queueing is normal in a busy pipeline; a tenth of the run is where it starts to show as
# visible waiting bars on the stream lanes.
COPY_QUEUE_SHARE = 0.10
# A run that realised 90% of the saving its chunking allows (serial down to the best for this
# chunking) lost nothing worth explaining by queueing.
COPY_QUEUE_SAVING_OK = 0.9
# Ops that wait with their engine idle for a tenth of the run: the scheduling, not the work,
# visibly stretched it.
FALSE_DEPENDENCY_SHARE = 0.10
# Streams are worth advising where host copies ran a hundredth of the run: below that there is
# nothing for a kernel to hide (kernels on one stream alone are how most programs run).
STREAM_COPY_SHARE = 0.01
DIRECTION = {OpKind.H2D: "H2D", OpKind.D2H: "D2H"}
_KIND_NOUNS = {
    OpKind.H2D: (N_("H2D copy"), N_("H2D copies")), OpKind.KERNEL: (N_("kernel"), N_("kernels")),
    OpKind.D2H: (N_("D2H copy"), N_("D2H copies")), OpKind.MEMSET: (N_("memset"), N_("memsets")),
    OpKind.D2D: (N_("D2D copy"), N_("D2D copies")), OpKind.PEER: (N_("peer copy"), N_("peer copies")),
    OpKind.MIGRATION: (N_("unified-memory migration"), N_("unified-memory migrations")),
    OpKind.PREFETCH: (N_("prefetch"), N_("prefetches")),
    OpKind.COMMUNICATION: (N_("communication kernel"), N_("communication kernels")),
}  # fmt: skip
# What streams let run side by side, in overlapviz's own words: (legacy stream, pipeline) -> the sentence.
_OWN_STREAM_ADVICE = {
    (True, True): N_("Non-blocking streams let one chunk's copies run beside another chunk's kernel."),
    (True, False): N_("Non-blocking streams let copies run beside kernels."),
    (False, True): N_("Two or more streams let one chunk's copies run beside another chunk's kernel."),
    (False, False): N_("Two or more streams let copies run beside kernels."),
}
_ENGINE = {
    Unit.H2D_ENGINE: "H2D engine",
    Unit.D2H_ENGINE: "D2H engine",
    Unit.COPY_ENGINE: "single copy engine",
}


def single_stream(trace: Trace, metrics: Metrics) -> list[Finding]:
    """Find every device op on one stream, each waiting for the one before it."""
    device = trace.rows(*DEVICE_KINDS)
    streams = trace["stream"][device]
    on_stream = streams >= 0  # migrations are on no stream
    if not on_stream.all():
        device, streams = device[on_stream], streams[on_stream]
    chunks = chunk_count(trace)
    if streams.size == 0 or (streams != streams[0]).any() or chunks < 2:  # not one stream (no sort to tell)
        return []
    if covered_total_ns(trace, *COPY_KINDS) < STREAM_COPY_SHARE * metrics.makespan_ns:
        return []  # no host copies worth hiding under the kernels
    legacy = is_legacy_stream(trace.meta, int(trace["stream"][device[0]]))
    in_words = _LEGACY_STREAM_ADVICE if legacy else _STREAMS_ADVICE
    advice = dataclasses.replace(in_words, overlapviz=_OWN_STREAM_ADVICE[legacy, is_pipeline(trace)]).words(trace)
    sentence = (
        _(
            "All {count} device ops of the {chunks} chunks ran on {where}: every op waited for the one before it,"
            " so nothing overlapped and the run took {makespan} against {serial} for its ops back to back. {advice}"
        )
        if is_pipeline(trace)
        else _(
            "All {count} device ops ran on {where}: every op waited for the one before it, so nothing overlapped"
            " and the run took {makespan} against {serial} for its ops back to back. {advice}"
        )
    )
    message = sentence.format(
        count=grouped(device.size), chunks=grouped(chunks), where=_("the legacy default stream") if legacy else
        _("one stream"), makespan=ms_text(metrics.makespan_ns), serial=ms_text(metrics.serial_ns), advice=advice,
    )
    return [Finding("single-stream", message, rows_of(device))]


def copy_queue(trace: Trace, metrics: Metrics) -> list[Finding]:
    """Find copies of one direction waiting for their engine while it ran other copies."""
    possible = metrics.serial_ns - metrics.chunking_bound_ns
    if possible > 0 and metrics.time_saved_ns >= COPY_QUEUE_SAVING_OK * possible:
        return []  # copies queue in every busy pipeline; it only explains something when time was lost
    waits = copy_engine_waits(trace)
    found = []
    for kind, label in DIRECTION.items():
        rows = np.flatnonzero(trace.mask(kind) & (waits > 0))
        total = int(waits[rows].sum())
        if rows.size == 0 or total < COPY_QUEUE_SHARE * metrics.makespan_ns:
            continue
        engines = {Unit(int(u)) for u in distinct(trace["unit"][rows])}
        noun = _ENGINE.get(next(iter(engines)), "copy engine") if len(engines) == 1 else "copy engine"
        engine, several = unit_text(trace, noun, rows, units=len(engines))  # one GPU's engines of both kinds: several
        both_ways = (_(" (each carries both directions)") if several else _(" (it carries both directions)")) if (
            engines == {Unit.COPY_ENGINE}
        ) else ""
        # Waits of several copies run side by side, so their sum is set against the run's
        # length in words rather than as a share that could pass 100%.
        message = ncount(
            "{count} {direction} copy, ready to run, waited {waited} in all (the run took {makespan}) while"
            " {engine}{both_ways} ran other copies: an engine runs one copy at a time, so {direction} copies issued"
            " on different streams queue behind each other instead of overlapping.",
            "{count} {direction} copies, ready to run, waited {waited} in all (the run took {makespan}) while"
            " {engine}{both_ways} ran other copies: an engine runs one copy at a time, so {direction} copies issued"
            " on different streams queue behind each other instead of overlapping.",
            rows.size, direction=label, waited=ms_text(total), makespan=ms_text(metrics.makespan_ns), engine=engine,
            both_ways=both_ways,
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
    waited, waits = idle_waits_by_row(trace)
    several = on_gpus_of_several_streams(trace, waited)
    rows = np.flatnonzero(rows_mask(trace, waited[several]))  # in row order: a mask, not a sort of millions
    total = int(waits[several].sum())
    if rows.size == 0 or total < FALSE_DEPENDENCY_SHARE * metrics.makespan_ns:
        return []
    nouns = [_KIND_NOUNS[OpKind(int(k))] for k in distinct(trace["kind"][rows])]
    # one kind names itself; several are counted as ops, their kinds listed after
    kinds = series_text([_(many) for _one, many in nouns])
    what = ngettext(*nouns[0], rows.size) if len(nouns) == 1 else _("ops ({kinds})").format(kinds=kinds)
    fermi = (
        " "
        + _("This GPU (Fermi) also holds back the completion of kernels issued back to back until the last one ends.")
        if delays_kernel_signals(trace)
        else ""
    )
    message = _(
        "{count} {what}, ready to run, waited {waited} in all (the run took {makespan}) while the hardware they"
        " needed stood idle: not their streams but the GPU's scheduling held them back. Ops reach the engines"
        " through hardware queues in issue order, so one can sit behind an op of another stream that is not ready"
        " yet (a false dependency).{fermi} Another issue order, or no more streams than the GPU has hardware"
        " queues, avoids it."
    ).format(
        count=grouped(rows.size), what=what, waited=ms_text(total), makespan=ms_text(metrics.makespan_ns), fermi=fermi
    )
    return [Finding("false-dependency", message, rows_of(rows))]


_STREAMS_ADVICE = Advice(
    cuda=N_("cudaMemcpyAsync from pinned memory (cudaMallocHost) on two or more streams (cudaStreamCreate), the"
    " data split in parts, lets one part's copies run beside another part's kernel."),
    python=N_("Copies on a torch.cuda.Stream() of their own (with torch.cuda.stream(s): x.to('cuda',"
    " non_blocking=True) from pinned memory) run beside the kernels on the current stream."),
)


_LEGACY_STREAM_ADVICE = Advice(
    cuda=N_("cudaMemcpyAsync from pinned memory (cudaMallocHost) on two or more streams created with"
    " cudaStreamCreateWithFlags(cudaStreamNonBlocking), the data split in parts, lets copies run beside"
    " kernels."),
    python=N_("Copies on a torch.cuda.Stream() of their own (with torch.cuda.stream(s): x.to('cuda',"
    " non_blocking=True) from pinned memory) run beside the kernels on the current stream."),
)


def single_stream_callout(c: CalloutContext, finding: Finding, rows: Rows) -> list[Callout]:
    """``one stream: every op waits for the one before it`` over the stream lane of most ops."""
    legacy = (c.trace.meta.config or {}).get("stream_kind") == "legacy"
    lane = busiest_lane(c, rows, LaneGroup.STREAMS)
    text = (
        _("legacy default stream: every op waits for the one before it, nothing overlaps")
        if legacy
        else _("one stream: every op waits for the one before it, nothing overlaps")
    )
    return [callout(c, finding, lane, c.trace["start_ns"][rows], c.trace["end_ns"][rows], text)]


def copy_queue_callout(c: CalloutContext, finding: Finding, rows: Rows) -> list[Callout]:
    """How long the copies queued, bracketing each wait (ready to start) on their engine's lane."""
    ready, start = c.trace["ready_ns"][rows], c.trace["start_ns"][rows]
    lane_key = busiest_lane(c, rows, LaneGroup.HARDWARE)
    direction = DIRECTION.get(OpKind(int(c.trace["kind"][rows[0]])), "")
    engine = lane_title(c, lane_key)
    waited = duration_text(int(copy_engine_waits(c.trace)[rows].sum()))  # the finding's own measure
    text = ncount(
        "{count} {direction} copy queued {waited} in all: the {engine} runs one copy at a time",
        "{count} {direction} copies queued {waited} in all: the {engine} runs one copy at a time",
        rows.size, direction=direction, waited=waited, engine=engine,
    )
    return [callout(c, finding, lane_key, ready, start, text)]


def false_dependency_callout(c: CalloutContext, finding: Finding, rows: Rows) -> list[Callout]:
    """How long the ops waited with their engine idle, bracketing each wait on the stream lane of most."""
    waited = duration_text(int(idle_unit_waits(c.trace)[rows].sum()))
    lane_key = busiest_lane(c, rows, LaneGroup.STREAMS)
    text = ncount(
        "{count} op waited {waited} with their engine idle: held back by the GPU's scheduling",
        "{count} ops waited {waited} with their engine idle: held back by the GPU's scheduling",
        rows.size, waited=waited,
    )
    return [callout(c, finding, lane_key, c.trace["ready_ns"][rows], c.trace["start_ns"][rows], text)]


SINGLE_STREAM = Rule(
    code="single-stream",
    detect=single_stream,
    callout=single_stream_callout,
    fires_when=(
        'All device ops ran on one stream (named "the legacy default stream" when the run used it), there was '
        "more than one chunk (or op), and host copies (H2D, D2H) ran during 1% of the makespan or more: every "
        "op waited for the one before it, and copies on other streams could have run beside the kernels. "
        "Kernels alone on one stream, or beside a few tiny copies, are how most programs run, and no stream "
        "would win anything."
    ),
    points_at="all device ops",
)
COPY_QUEUE = Rule(
    code="copy-queue",
    detect=copy_queue,
    callout=copy_queue_callout,
    fires_when=(
        "Copies of one direction, ready to run, spent 10% of the makespan or more (summed over the copies) "
        "waiting while their engine ran other copies. An engine runs one copy at a time: more streams do not "
        "make copies in one direction overlap. Only when the run realised less than 90% of the saving its "
        "chunking allows (serial down to the best for this chunking): copies queue in every busy pipeline, "
        "and that only explains something when time was lost. Needs ready times in the trace. One finding per "
        "direction."
    ),
    points_at="the copies that waited",
)
FALSE_DEPENDENCY = Rule(
    code="false-dependency",
    detect=false_dependency,
    callout=false_dependency_callout,
    fires_when=(
        "Device ops that were ready (their stream had reached them, and any wait of another stream's work "
        'that the program recorded had ended: docs/traces.md, "Waits the program asked for") waited, in all, '
        "10% of the makespan or more while the hardware they needed stood idle: only the GPU's scheduling "
        "held them back. Only ops of a GPU whose ops ran on two or more streams count: one stream has no "
        "other stream's op to sit behind. Hardware queues hand ops to the engines in issue order, so an op "
        "can sit behind an op of another stream that is not ready yet. On a Fermi GPU (compute capability "
        "2.x, or a model that says so) the sentence adds that Fermi also holds back the completion of kernels "
        "issued back to back; on any other GPU it does not speak of Fermi. Seen in Harris's V1 on the C1060 "
        "and V2 on the C2050, and with more streams than hardware queues."
    ),
    points_at="the ops that waited with their engine idle",
)

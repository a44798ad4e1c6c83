"""The findings about the kind of host memory a pipeline ran from, beyond pinned and pageable.

Mapped memory that the kernels reach across the link, managed memory that faults its pages
over inside the kernels, a staging ring whose host copies set the pace, the host's read of
write-combined output, and a pipeline launched as one CUDA Graph. Each reads the trace and
the pipeline settings it carries, so another program's trace gets none of them.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from overlapviz.core.analysis.metrics import Metrics, covered_rows_ns, covered_total_ns
from overlapviz.core.analysis.trace_facts import pipeline_settings
from overlapviz.core.config import HostMemory, PipelineConfig, format_size
from overlapviz.core.config.pipeline_plan import HOST_READ_NAME, PREFETCH_IN, PREFETCH_OUT
from overlapviz.core.findings.callout import Callout, CalloutContext, Rows, callout, of_kind, share, spanning, summed_ns
from overlapviz.core.findings.finding import Finding, ms_text, pct_text, rows_of
from overlapviz.core.findings.rule import Rule
from overlapviz.core.i18n import N_, _, grouped, ncount, pgettext
from overlapviz.core.number_text import duration_text, rate_text
from overlapviz.core.trace.lanes import LaneGroup
from overlapviz.core.trace.spans import OpKind, Trace

# Half of what the program waited for spent in the host's own copies: the host thread, not the
# GPU, sets the pace of a staged pipeline.
STAGING_HOST_SHARE = 0.5
# Prefetches running during half the makespan set its pace, whatever the kernels do.
PREFETCH_SHARE = 0.5
# The prefetch stages' span names, as a finding's sentence says them in the active language.
_STAGE_WORDS = {PREFETCH_IN.name: N_("prefetch to device"), PREFETCH_OUT.name: N_("prefetch to host")}


def memory_findings(trace: Trace, metrics: Metrics) -> list[Finding]:
    """Every finding about the run's kind of host memory and how it was issued, in a fixed order.

    The rules of this module share it: each keeps the findings of its own code.
    """
    config = pipeline_settings(trace)
    if config is None:
        return []
    found: list[Finding] = []
    rules = (mapped_memory, managed_faults, prefetch_bound, staging_ring_host_bound, write_combined_read, graph_launch)
    for rule in rules:
        found.extend(rule(trace, metrics, config))
    return found


def mapped_memory(trace: Trace, metrics: Metrics, config: PipelineConfig) -> list[Finding]:
    """Find kernels that read and wrote mapped host memory across the link, the copy engines idle."""
    kernels = _rows(trace, OpKind.KERNEL)
    moved = int(trace["bytes"][kernels].sum())
    if config.memory is not HostMemory.MAPPED or moved == 0:
        return []
    summed = summed_ns(trace, kernels)
    message = _(
        "No copies ran: the {count} kernels read and wrote {size} of mapped host memory across the link themselves,"
        " {rate} over their {busy}, while the copy engines stood idle. Mapped (zero-copy) memory pays when the kernel"
        " touches each byte once and its arithmetic hides the link; a kernel that reads its data k times moves it k"
        " times across the link, where copies to device memory would move it once."
    ).format(count=grouped(kernels.size), size=format_size(moved), rate=_gbps(moved, summed), busy=ms_text(summed))
    return [Finding("mapped-memory", message, rows_of(kernels))]


def managed_faults(trace: Trace, metrics: Metrics, config: PipelineConfig) -> list[Finding]:
    """Find managed memory migrated by page faults inside the kernels (no prefetch)."""
    kernels = _rows(trace, OpKind.KERNEL)
    moved = int(trace["bytes"][kernels].sum())
    if config.memory is not HostMemory.MANAGED or moved == 0:
        return []
    summed = summed_ns(trace, kernels)
    read = _host_read(trace)
    back = (
        _("; afterwards the host's read of the output faulted its pages back for {took}").format(
            took=ms_text(summed_ns(trace, read))
        )
        if read.size
        else ""
    )
    message = _(
        "The {count} kernels on managed memory brought {size} over to the GPU by page faults on first touch, inside"
        " the kernels: they took {busy} in all, stalled while the pages migrated{back}. cudaMemPrefetchAsync on each"
        " chunk's stream (managed-prefetch) moves the pages as copy-like spans on the copy engines, ahead of the"
        " kernels and beside other chunks' work."
    ).format(count=grouped(kernels.size), size=format_size(moved), busy=ms_text(summed), back=back)
    return [Finding("managed-faults", message, rows_of(kernels, read))]


def prefetch_bound(trace: Trace, metrics: Metrics, config: PipelineConfig) -> list[Finding]:
    """Find managed prefetches that took half of the run, and say whether they ran one at a time."""
    prefetches = _rows(trace, OpKind.PREFETCH)
    if config.memory is not HostMemory.MANAGED_PREFETCH or prefetches.size == 0:
        return []
    covered = covered_rows_ns(trace, trace.mask(OpKind.PREFETCH))
    if covered < PREFETCH_SHARE * metrics.makespan_ns:
        return []
    summed = summed_ns(trace, prefetches)
    at_once = _("one at a time, whichever their direction") if covered >= summed else _("partly side by side")
    rates = pgettext("list", ", ").join(
        f"{_(_STAGE_WORDS[stage.name])} {_gbps(int(trace['bytes'][rows].sum()), summed_ns(trace, rows))}"
        for stage in (PREFETCH_IN, PREFETCH_OUT)
        if (rows := np.flatnonzero(trace.mask(OpKind.PREFETCH) & _named(trace, stage.name))).size
    )
    message = _(
        "The {count} prefetches ran during {covered} of the {makespan} run, {at_once} ({rates}): the driver's"
        " migrations, not the kernels ({kernels} busy), set the pace. The prefetches back to the host are the slow"
        " step: output the host needs can instead be copied out of managed memory into a pinned buffer with"
        " cudaMemcpyAsync, at the link's copy rate."
    ).format(
        count=grouped(prefetches.size), covered=ms_text(covered), makespan=ms_text(metrics.makespan_ns),
        at_once=at_once, rates=rates, kernels=ms_text(metrics.busy_ns.get("kernel", 0)),
    )  # fmt: skip
    return [Finding("prefetch-bound", message, rows_of(prefetches))]


def staging_ring_host_bound(trace: Trace, metrics: Metrics, config: PipelineConfig) -> list[Finding]:
    """Find a staging ring whose host copies took half of the run or more."""
    copies = _rows(trace, OpKind.HOST_COPY)
    copying = summed_ns(trace, copies)
    if not config.uses_ring or copies.size == 0 or copying < STAGING_HOST_SHARE * metrics.wall_ns:
        return []
    pinned = metrics.pinned_bytes or 0
    message = _(
        "The host thread's copies into and out of the ring took {copying} ({share} of the {wall} run), {rate}: one"
        " thread copying every chunk, not the GPU, set the pace, and more slots cannot help. The ring pins {ring}"
        " where pinning both buffers would pin {both}; copying with more threads (as PyTorch's DataLoader workers"
        " do), or pinning the data outright where the RAM allows, is what shortens it."
    ).format(
        copying=ms_text(copying), share=pct_text(copying, metrics.wall_ns), wall=ms_text(metrics.wall_ns),
        rate=_gbps(int(trace["bytes"][copies].sum()), copying), ring=format_size(pinned),
        both=format_size(2 * config.size_bytes),
    )  # fmt: skip
    return [Finding("staging-host-bound", message, rows_of(copies))]


def write_combined_read(trace: Trace, metrics: Metrics, config: PipelineConfig) -> list[Finding]:
    """Report the host's read of write-combined output, the cost that memory moves onto the host."""
    read = _host_read(trace)
    if config.memory is not HostMemory.WRITE_COMBINED or read.size == 0:
        return []
    took = summed_ns(trace, read)
    message = _(
        "The host's read of the {size} write-combined output took {took} ({rate}). Write-combined memory bypasses"
        " the CPU's caches where the flag is honoured, so host reads of it are slow; keep it for buffers the host"
        " writes and the GPU reads, never for output the host reads back."
    ).format(size=format_size(config.size_bytes), took=ms_text(took), rate=_gbps(config.size_bytes, took))
    return [Finding("write-combined-read", message, rows_of(read))]


def graph_launch(trace: Trace, metrics: Metrics, config: PipelineConfig) -> list[Finding]:
    """Report the host's cost of launching the pipeline as one CUDA Graph."""
    if not config.graph:
        return []
    launches = np.flatnonzero((trace["kind"] == OpKind.API) & _named(trace, "cudaGraphLaunch"))
    ops = int(trace.device_mask.sum())
    if launches.size == 0 or ops == 0:
        return []
    took = summed_ns(trace, launches)
    message = _(
        "The pipeline went out as one CUDA Graph: the host spent {took} in cudaGraphLaunch for its {count} ops,"
        " {each} each, instead of a call per op. Capturing and instantiating the graph is paid once, before the"
        " first launch; the graph pays where the host's calls, not the GPU, set the pace (many small chunks)."
    ).format(took=ms_text(took), count=grouped(ops), each=ms_text(took / ops))
    return [Finding("graph-launch", message, rows_of(launches))]


def _rows(trace: Trace, kind: OpKind) -> npt.NDArray[np.intp]:
    return np.flatnonzero(trace.mask(kind))


def _named(trace: Trace, name: str) -> npt.NDArray[np.bool_]:
    if name not in trace.names:
        return np.zeros(len(trace), dtype=bool)
    named: npt.NDArray[np.bool_] = trace["name"] == trace.names.index(name)
    return named


def _host_read(trace: Trace) -> npt.NDArray[np.intp]:
    return np.flatnonzero((trace["kind"] == OpKind.API) & _named(trace, HOST_READ_NAME))


def _gbps(nbytes: int, ns: int) -> str:
    return rate_text(nbytes / ns) if ns > 0 else _("at no measurable rate")


def mapped_memory_callout(c: CalloutContext, finding: Finding, rows: Rows) -> list[Callout]:
    """How many bytes the kernels moved across the link, bracketing them."""
    kernels = of_kind(c.trace, rows, OpKind.KERNEL)
    moved = format_size(int(c.trace["bytes"][kernels].sum()))
    text = _("zero-copy: the kernels move {size} across the link themselves; no copies, the copy engines idle").format(
        size=moved
    )
    return [spanning(c, finding, kernels, LaneGroup.HARDWARE, text)]


def graph_launch_callout(c: CalloutContext, finding: Finding, rows: Rows) -> list[Callout]:
    """How long the one graph launch took for how many ops, bracketing it on the host lane."""
    ops = int(c.trace.device_mask.sum())
    took = duration_text(summed_ns(c.trace, rows))
    text = ncount(
        "one CUDA Graph: {took} in cudaGraphLaunch for {count} op",
        "one CUDA Graph: {took} in cudaGraphLaunch for {count} ops",
        ops,
        took=took,
    )
    return [callout(c, finding, "host", c.trace["start_ns"][rows], c.trace["end_ns"][rows], text)]


def managed_faults_callout(c: CalloutContext, finding: Finding, rows: Rows) -> list[Callout]:
    """How many kernels faulted their pages over and for how long, bracketing them."""
    kernels = of_kind(c.trace, rows, OpKind.KERNEL)
    busy = duration_text(summed_ns(c.trace, kernels))
    text = ncount(
        "page faults inside the kernels: {count} kernel, {busy}, migrating on first touch",
        "page faults inside the kernels: {count} kernels, {busy}, migrating on first touch",
        kernels.size, busy=busy,
    )  # fmt: skip
    return [spanning(c, finding, kernels, LaneGroup.HARDWARE, text)]


def prefetch_bound_callout(c: CalloutContext, finding: Finding, rows: Rows) -> list[Callout]:
    """How much of the run the prefetches ran, bracketing them."""
    covered = covered_total_ns(c.trace, OpKind.PREFETCH)
    text = _("prefetches set the pace: {covered}, {share} of the run").format(
        covered=duration_text(covered), share=share(covered, c.metrics.makespan_ns)
    )
    return [spanning(c, finding, rows, LaneGroup.HARDWARE, text)]


def staging_host_bound_callout(c: CalloutContext, finding: Finding, rows: Rows) -> list[Callout]:
    """How much of the wall time the host's ring copies took, bracketing them on the host lane."""
    copying = summed_ns(c.trace, rows)
    of_wall = share(copying, c.metrics.wall_ns)
    text = _("the host copies through the ring: {copying}, {share} of the wall time").format(
        copying=duration_text(copying), share=of_wall
    )
    return [callout(c, finding, "host", c.trace["start_ns"][rows], c.trace["end_ns"][rows], text)]


def write_combined_read_callout(c: CalloutContext, finding: Finding, rows: Rows) -> list[Callout]:
    """How long the host's uncached read took, bracketing it on the host lane."""
    text = _("the host reads the write-combined output back uncached: {took}").format(
        took=duration_text(summed_ns(c.trace, rows))
    )
    return [callout(c, finding, "host", c.trace["start_ns"][rows], c.trace["end_ns"][rows], text)]


MAPPED_MEMORY = Rule(
    code="mapped-memory",
    detect=memory_findings,
    callout=mapped_memory_callout,
    fires_when=(
        "The run's kernels read and wrote mapped host memory (`--memory mapped`) across the link: their "
        "bytes, the rate over their busy time, the copy engines idle, and when zero-copy pays (data touched "
        "once, arithmetic that hides the link)."
    ),
    points_at="the kernels",
)
MANAGED_FAULTS = Rule(
    code="managed-faults",
    detect=memory_findings,
    callout=managed_faults_callout,
    fires_when=(
        "Managed memory without prefetch: the kernels brought their chunks over by page faults, and the "
        "host's read of the output (where drawn) faulted it back; prefetching is the way out."
    ),
    points_at="the kernels and the host's read",
)
PREFETCH_BOUND = Rule(
    code="prefetch-bound",
    detect=memory_findings,
    callout=prefetch_bound_callout,
    fires_when=(
        "Managed memory with prefetch, and the prefetches ran during half the makespan or more: whether they "
        "ran one at a time, the rate of each direction, and that the prefetches back to the host are the slow "
        "step."
    ),
    points_at="the prefetches",
)
STAGING_HOST_BOUND = Rule(
    code="staging-host-bound",
    detect=memory_findings,
    callout=staging_host_bound_callout,
    fires_when=(
        "A staging ring whose host copies took half of the wall time or more: one thread copying every chunk "
        "sets the pace (more slots cannot help); what the ring pins against pinning both buffers."
    ),
    points_at="the host copies",
)
WRITE_COMBINED_READ = Rule(
    code="write-combined-read",
    detect=memory_findings,
    callout=write_combined_read_callout,
    fires_when=(
        "Write-combined memory: the host's read of the output after the run, its time and rate, and what "
        "write-combined memory is for."
    ),
    points_at="the host's read",
)
GRAPH_LAUNCH = Rule(
    code="graph-launch",
    detect=memory_findings,
    callout=graph_launch_callout,
    fires_when=(
        "The pipeline ran as one CUDA Graph: the host's time in `cudaGraphLaunch` and per op; capturing is "
        "paid once."
    ),
    points_at="the launch call",
)

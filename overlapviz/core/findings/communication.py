"""The finding about communication between GPUs (NCCL, RCCL) that no computation hid.

A collective that runs while the GPU computes costs nothing but bandwidth; one that runs
alone is time every GPU of the group waits. Distributed training hides it by starting the
gradients' all-reduce during the backward pass, a bucket at a time, and by fetching the next
layer's parameters while the current one computes.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from overlapviz.core.analysis.intervals import covered_ns
from overlapviz.core.analysis.metrics import Metrics, comm_time_ns, compute_union
from overlapviz.core.findings.callout import Callout, CalloutContext, Rows, share, spanning
from overlapviz.core.findings.finding import Finding, ms_text, pct_text, rows_of
from overlapviz.core.findings.rule import Rule
from overlapviz.core.i18n import _
from overlapviz.core.number_text import duration_text
from overlapviz.core.trace.lanes import LaneGroup
from overlapviz.core.trace.spans import OpKind, Trace

# Exposed communication worth a tenth of the run: a stretch plain to see on the timeline, and
# a tenth of every step that overlapping it with the backward pass could give back. Below it
# the collectives are short or mostly hidden already, and bucket or prefetch tuning wins little.
EXPOSED_COMM_SHARE = 0.10


def exposed_comm_ns(trace: Trace) -> int:
    """The time communication ran with no compute kernel running beside it."""
    total, hidden = comm_time_ns(trace)
    return total - hidden


def exposed_comm_rows(trace: Trace) -> npt.NDArray[np.intp]:
    """The communication spans that ran, for some of their time, with no compute kernel beside them."""
    rows = np.flatnonzero(trace.mask(OpKind.COMMUNICATION))
    union_s, union_e = compute_union(trace)
    start, end = trace["start_ns"][rows], trace["end_ns"][rows]
    exposed: npt.NDArray[np.intp] = rows[covered_ns(union_s, union_e, start, end) < end - start]
    return exposed


def exposed_communication(trace: Trace, metrics: Metrics) -> list[Finding]:
    """Find communication that ran exposed, with no computation hiding it, for a visible share of the run."""
    exposed, makespan = exposed_comm_ns(trace), metrics.makespan_ns
    if exposed <= 0 or exposed < EXPOSED_COMM_SHARE * makespan:
        return []
    message = _(
        "Communication ran exposed {exposed} of the {makespan} run ({share}): no kernel computed while these"
        " collectives ran (communication hidden {hidden}), so the GPUs waited on each other. Overlap it with"
        " computation: DistributedDataParallel all-reduces the gradients in buckets as the backward pass produces"
        " them, and a smaller bucket_cap_mb starts the first all-reduce sooner; FSDP fetches the next layer's"
        " parameters while the current one computes with forward_prefetch=True and"
        " backward_prefetch=BackwardPrefetch.BACKWARD_PRE."
    ).format(
        exposed=ms_text(exposed), makespan=ms_text(makespan), share=pct_text(exposed, makespan),
        hidden=pct_text(metrics.comm_hidden_pct or 0.0, 100),
    )  # fmt: skip
    return [Finding("exposed-communication", message, rows_of(exposed_comm_rows(trace)))]


def exposed_communication_callout(c: CalloutContext, finding: Finding, rows: Rows) -> list[Callout]:
    """How long communication ran alone, bracketing the spans that did."""
    exposed = exposed_comm_ns(c.trace)
    of_run = share(exposed, c.metrics.makespan_ns)
    text = _("exposed communication: {exposed}, {share} of the run, with no kernel computing beside it").format(
        exposed=duration_text(exposed), share=of_run
    )
    return [spanning(c, finding, rows, LaneGroup.HARDWARE, text)]


EXPOSED_COMMUNICATION = Rule(
    code="exposed-communication",
    detect=exposed_communication,
    callout=exposed_communication_callout,
    fires_when=(
        "Communication (NCCL, RCCL kernels) ran with no compute kernel beside it (the union of its intervals "
        "less the part a compute kernel covered) for a tenth of the makespan or more: a stretch plain to see, "
        "and a tenth of every step that overlapping could give back. The sentence gives that time, its share "
        "and the communication hidden, and how to overlap the collectives with the computation: DDP "
        "all-reduces gradients in buckets during the backward pass (a smaller `bucket_cap_mb` starts the "
        "first sooner); FSDP prefetches the next layer's parameters (`forward_prefetch=True`, "
        "`backward_prefetch=BackwardPrefetch.BACKWARD_PRE`). Quiet where communication is hidden or absent. "
        "Fires on HTA's sampled ranks of a 128-rank job "
        "(`tests/data/torch-real/hta-sampled-rank0-of-128.json.gz`: 337.0 ms of 1222.8 ms exposed); quiet on "
        "its rank 0 of 2 (`hta-nccl-a100-rank0-of-2.json.gz`: 6% exposed)."
    ),
    points_at="the communication spans that ran, at least in part, alone",
)

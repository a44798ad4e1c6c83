"""Explanations on the timeline: each finding as a short callout on the spans it points at.

A callout is a few words (derived per finding code by its rule's callout, from the finding's
spans and the run's metrics, never the finding's whole sentence), the lane it sits above, and
the time ranges it brackets. The timeline gives each callout a row of its own just above its
lane, so it never covers the spans it explains. Pure: no Qt here.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from overlapviz.core.analysis.metrics import Metrics
from overlapviz.core.findings import Callout, CalloutContext, Finding, merged_segments, rule_for
from overlapviz.core.trace.spans import Trace
from overlapviz.view.lane_rows import LaneRows

__all__ = ["MERGE_SHARE", "Callout", "callouts_for", "merged_segments", "rows_per_lane"]

MERGE_SHARE = 0.02  # brackets closer than this share of the run read as one


def callouts_for(
    trace: Trace,
    metrics: Metrics,
    findings: Sequence[Finding],
    lanes: Sequence[LaneRows],
    blocked_ns: npt.NDArray[np.int64],
) -> list[Callout]:
    """The callouts of `findings`, in finding order (a finding may give two, or none).

    `lanes` are the trace's lanes with their rows, `blocked_ns` the host time blocked per row
    (`core.analysis.metrics.host_blocked_per_row`): both found once per trace, with the rest of it. A
    finding of a code no rule declares raises KeyError (`core.findings.rule_for`).
    """
    merge_gap_ns = MERGE_SHARE * max(metrics.wall_ns, metrics.makespan_ns, 1)
    context = CalloutContext(trace, metrics, lanes, blocked_ns, merge_gap_ns)
    found: list[Callout] = []
    for finding in findings:
        if not len(finding.rows):
            continue
        found.extend(rule_for(finding.code).callout(context, finding, finding.rows))
    return found


def rows_per_lane(callouts: Sequence[Callout]) -> dict[str, int]:
    """How many callout rows each lane needs (one per callout above it)."""
    counts: dict[str, int] = {}
    for callout in callouts:
        counts[callout.lane_key] = counts.get(callout.lane_key, 0) + 1
    return counts

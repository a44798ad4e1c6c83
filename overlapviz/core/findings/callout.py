"""A finding's callout: a few words above one lane, and the helpers every rule's callout is built with.

A callout's words are derived per finding code from the finding's spans and the run's metrics,
never the finding's whole sentence; each rule (`rule.Rule`) names the function that builds its
callouts. Where on the timeline the callouts go is the view's (`overlapviz.view.callouts`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np
import numpy.typing as npt

from overlapviz.core.analysis.intervals import union_intervals
from overlapviz.core.analysis.metrics import Metrics
from overlapviz.core.findings.finding import Finding, pct_text
from overlapviz.core.i18n import N_, _
from overlapviz.core.trace.lanes import Lane, LaneGroup
from overlapviz.core.trace.spans import OpKind, Trace, Unit

MAX_GENERIC_CHARS = 60
_GPU_PREFIX = re.compile(r"^GPU \d+(: |：)")  # how a trace of several GPUs leads each GPU's finding (zh_CN: "：")
# The unit a hardware lane shows, as a callout names it.
_UNIT_WORDS = {
    Unit.HOST: N_("host thread"), Unit.H2D_ENGINE: N_("H2D engine"), Unit.COMPUTE: N_("compute"),
    Unit.D2H_ENGINE: N_("D2H engine"), Unit.COPY_ENGINE: N_("copy engine"), Unit.DEVICE_COPY: N_("peer / D2D copies"),
    Unit.MEMSET: N_("memsets"), Unit.MIGRATION: N_("unified memory"), Unit.COMMUNICATION: N_("communication"),
}  # fmt: skip

Segments = tuple[tuple[int, int], ...]
Rows = npt.NDArray[np.intp]


@dataclass(frozen=True, slots=True)
class Callout:
    """A few words above one lane, bracketing the time ranges (ns) they talk about."""

    code: str
    lane_key: str
    segments: Segments
    text: str


class ShownLane(Protocol):
    """A lane of the timeline and the trace rows it shows (the view's `LaneRows`)."""

    @property
    def lane(self) -> Lane: ...  # noqa: D102

    @property
    def rows(self) -> npt.NDArray[np.intp]: ...  # noqa: D102

    @property
    def key(self) -> str: ...  # noqa: D102


@dataclass(frozen=True, slots=True)
class CalloutContext:
    """What every callout reads: the trace, its metrics and lanes, and how close brackets merge.

    `blocked_ns` is the host time blocked per row (`core.analysis.metrics.host_blocked_per_row`);
    brackets closer than `merge_gap_ns` read as one.
    """

    trace: Trace
    metrics: Metrics
    lanes: Sequence[ShownLane]
    blocked_ns: npt.NDArray[np.int64]
    merge_gap_ns: float


def first_clause_callout(c: CalloutContext, finding: Finding, rows: Rows) -> list[Callout]:
    """The finding's first clause over the lane that shows most of its spans: for rules with no words of their own."""
    # a clause ends at punctuation before a space or the end: "95.0 ms" is one number, not two clauses;
    # the lane already says which GPU, so a finding's leading "GPU 1: " is no clause of its own
    message = _GPU_PREFIX.sub("", finding.message, count=1)
    # Chinese ends a clause with full-width punctuation, no space after it
    first_clause = re.split(r"[:;.](?=\s|$)|[：；。]", message, maxsplit=1)[0].strip()
    text = first_clause if len(first_clause) <= MAX_GENERIC_CHARS else first_clause[: MAX_GENERIC_CHARS - 1] + "\u2026"
    lane_key = busiest_lane(c, rows, None)
    return [callout(c, finding, lane_key, c.trace["start_ns"][rows], c.trace["end_ns"][rows], text)]


def callout(
    c: CalloutContext, finding: Finding, lane_key: str, starts: npt.ArrayLike, ends: npt.ArrayLike, text: str
) -> Callout:
    """`text` over `lane_key`, bracketing the intervals, those closer than the context's gap merged."""
    return Callout(finding.code, lane_key, merged_segments(starts, ends, c.merge_gap_ns), text)


def spanning(c: CalloutContext, finding: Finding, rows: Rows, group: LaneGroup, text: str) -> Callout:
    """`text` over the lane of `group` that shows most of `rows`, bracketing them."""
    lane_key = busiest_lane(c, rows, group)
    return callout(c, finding, lane_key, c.trace["start_ns"][rows], c.trace["end_ns"][rows], text)


def one_span(c: CalloutContext, finding: Finding, row: int, text: str) -> Callout:
    """`text` over the hardware lane of `row`, bracketing that one span."""
    lane_key = busiest_lane(c, np.asarray([row], dtype=np.intp), LaneGroup.HARDWARE)
    segment = ((int(c.trace["start_ns"][row]), int(c.trace["end_ns"][row])),)
    return Callout(finding.code, lane_key, segment, text)


def merged_segments(starts: npt.ArrayLike, ends: npt.ArrayLike, gap_ns: float) -> Segments:
    """The union of [start, end] intervals, with gaps shorter than `gap_ns` closed."""
    union_s, union_e = union_intervals(starts, ends, join_below=gap_ns)
    return tuple(zip(union_s.tolist(), union_e.tolist(), strict=True))


def busiest_lane(c: CalloutContext, rows: npt.NDArray[np.intp], group: LaneGroup | None) -> str:
    """The lane of `group` (any lane when None) that shows the most of `rows`."""
    candidates = [lane for lane in c.lanes if group is None or lane.lane.group is group] or list(c.lanes)
    marked = np.zeros(len(c.trace), dtype=bool)  # one look-up per lane row, not a search of `rows` for each
    marked[rows] = True
    counts = [int(marked[lane.rows].sum()) for lane in candidates]
    return candidates[int(np.argmax(counts))].key


def lane_title(c: CalloutContext, lane_key: str) -> str:
    """The unit a lane shows, as a callout names it: ``H2D engine``, ``GPU 0 compute``."""
    shown = next((lane.lane for lane in c.lanes if lane.key == lane_key), None)
    title = shown.title if shown is not None else "engine"
    gpu, colon, unit = title.partition(": ")  # "GPU 0: H2D engine" on a trace of several GPUs
    if not colon:
        gpu, unit = "", title
    unit = _unit_words(shown, unit)
    return f"{gpu} {unit}" if gpu else unit


def _unit_words(lane: Lane | None, title_unit: str) -> str:
    """The words of the lane's unit in the active language; its title's own for a lane of no known unit."""
    if lane is not None and lane.unit is not None and lane.unit in _UNIT_WORDS:
        return _(_UNIT_WORDS[lane.unit])
    return title_unit if title_unit.startswith(("H2D", "D2H")) else title_unit.lower()


def of_kind(trace: Trace, rows: Rows, kind: OpKind) -> Rows:
    """The rows of `rows` of `kind`."""
    picked: Rows = rows[trace["kind"][rows] == kind]
    return picked


def summed_ns(trace: Trace, rows: Rows) -> int:
    """The durations of `rows` added up (ops side by side count twice)."""
    return int(trace.durations_of(rows).sum())


def share(part: float, whole: float) -> str:
    """`part` as a whole percentage of `whole`."""
    return pct_text(part, whole)

"""One rank reduced to what the job needs of it: a few kilobytes, whatever the size of its trace.

A worker reads a rank's trace, analyses it and hands back a `RankSummary`: the report a
single file's ``analyze --json`` gives, the headline figures typed for comparing ranks, the
anchors that align its clock, and its time buckets for the overview. Its spans stay in the
worker. A file that cannot be read comes back as a `RankProblem`, one line naming it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from overlapviz.core.analysis.intervals import covered_ns, union_intervals
from overlapviz.core.i18n import _
from overlapviz.core.trace.spans import MemoryKind, OpKind, Trace
from overlapviz.job.anchors import CollectiveAnchors, collective_anchors
from overlapviz.job.buckets import TimeBuckets, device_span, time_buckets
from overlapviz.job.discovery import rank_from_name, rank_from_process
from overlapviz.job.rank_report import trace_report
from overlapviz.session import RunResult


@dataclass(frozen=True, slots=True)
class RankFigures:
    """The figures the job's table shows of each rank, and the copies' host memory."""

    makespan_ns: int
    copy_hidden_pct: float | None
    comm_hidden_pct: float | None
    engines_together_pct: float
    efficiency_pct: float | None
    host_blocked_ns: int
    exposed_comm_ns: int  # communication during which no compute ran
    pageable_copies: int
    pinned_copies: int


@dataclass(frozen=True, slots=True, eq=False)
class RankSummary:
    """One rank of a job, small and picklable."""

    file: str
    rank: int | None  # None where neither the file nor its name says
    rank_from: str  # "distributedInfo", "process", "file name", or "" where none said
    world_size: int | None
    report: dict[str, Any]  # what ``overlapviz analyze --json FILE`` prints
    figures: RankFigures
    origin_ns: int | None  # the file's clock at the trace's time 0; None where the file has no clock of its own
    device_start_ns: int  # the first device op's start and the last one's end, on the file's clock
    device_end_ns: int
    anchors: CollectiveAnchors
    buckets: TimeBuckets

    def with_rank(self, rank: int, rank_from: str) -> RankSummary:
        """The same summary with the rank given by the job (a file that did not say)."""
        fields = {name: getattr(self, name) for name in self.__dataclass_fields__}
        return RankSummary(**{**fields, "rank": rank, "rank_from": rank_from})


@dataclass(frozen=True, slots=True)
class RankProblem:
    """A file that gave no rank: its path and why, in one line."""

    file: str
    message: str


def summarise(path: Path | str, result: RunResult) -> RankSummary:
    """Reduce the analysed trace of the file at `path` to its summary."""
    trace = result.trace
    given = trace.meta.extra.get("time_origin_ns")
    origin = int(given) if isinstance(given, int) else None
    rank, rank_from = _rank_of(trace, path)
    world = trace.meta.extra.get("world_size")
    first, last = device_span(trace)
    return RankSummary(
        file=str(path), rank=rank, rank_from=rank_from,
        world_size=world if isinstance(world, int) else None,
        report=trace_report(str(path), result),
        figures=_figures(result),
        origin_ns=origin,
        device_start_ns=first + (origin or 0),
        device_end_ns=last + (origin or 0),
        anchors=collective_anchors(trace, origin or 0),
        buckets=time_buckets(trace, origin or 0),
    )  # fmt: skip


def _rank_of(trace: Trace, path: Path | str) -> tuple[int | None, str]:
    given = trace.meta.extra.get("rank")
    if isinstance(given, int):
        return given, "distributedInfo"
    for rank, source in ((rank_from_process(trace.meta.process), _("process")), (rank_from_name(path), _("file name"))):
        if rank is not None:
            return rank, source
    return None, ""


def _figures(result: RunResult) -> RankFigures:
    m, trace = result.metrics, result.trace
    copies = trace.mask(OpKind.H2D, OpKind.D2H)
    return RankFigures(
        makespan_ns=m.makespan_ns, copy_hidden_pct=m.copy_hidden_pct, comm_hidden_pct=m.comm_hidden_pct,
        engines_together_pct=m.engines_together_pct, efficiency_pct=m.efficiency_pct,
        host_blocked_ns=m.host_blocked_ns, exposed_comm_ns=_exposed_comm_ns(trace),
        pageable_copies=int((copies & (trace["memory"] == MemoryKind.PAGEABLE)).sum()),
        pinned_copies=int((copies & (trace["memory"] == MemoryKind.PINNED)).sum()),
    )  # fmt: skip


def _exposed_comm_ns(trace: Trace) -> int:
    """Communication time during which no compute kernel ran: what the job waits for."""
    comm = trace.mask(OpKind.COMMUNICATION)
    if not comm.any():
        return 0
    comm_s, comm_e = union_intervals(trace["start_ns"][comm], trace["end_ns"][comm])
    compute = trace.mask(OpKind.KERNEL)
    kernel_s, kernel_e = union_intervals(trace["start_ns"][compute], trace["end_ns"][compute])
    hidden = int(covered_ns(kernel_s, kernel_e, comm_s, comm_e).sum())
    return int((comm_e - comm_s).sum()) - hidden

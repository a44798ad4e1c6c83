"""The reduce: the ranks' summaries made one job, with its clocks, its worst ranks and its findings.

Works on summaries alone, so that it takes the same time whatever the traces' size: for 512
ranks it is their collectives' matching, a few sorts of columns.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from overlapviz.core.i18n import _
from overlapviz.job.clocks import RankClock, align_clocks
from overlapviz.job.discovery import JobInputError
from overlapviz.job.job_findings import JobFinding, job_findings
from overlapviz.job.matching import match_collectives
from overlapviz.job.summary import RankProblem, RankSummary

# Each figure of the table: whether more is worse, and how far from the other ranks' median
# the worst must be to be marked (percentage points, or a share of the median for times).
WORST_RULES: dict[str, tuple[bool, float]] = {
    "makespan_ns": (True, 0.10), "copy_hidden_pct": (False, 10.0), "comm_hidden_pct": (False, 10.0),
    "engines_together_pct": (False, 10.0), "efficiency_pct": (False, 10.0), "host_blocked_ns": (True, 0.10),
    "exposed_comm_ns": (True, 0.10),
}  # fmt: skip


@dataclass(frozen=True, slots=True, eq=False)
class JobSummary:
    """A job: its ranks in rank order, each rank's clock, the worst ranks by figure, its findings."""

    ranks: tuple[RankSummary, ...]
    clocks: tuple[RankClock, ...]
    worst: dict[str, int]  # figure -> the rank worst at it, where it stands out
    findings: tuple[JobFinding, ...]

    @property
    def world_size(self) -> int | None:
        """The job's size as its traces give it (the largest, should they differ); None where none does."""
        sizes = {rank.world_size for rank in self.ranks if rank.world_size is not None}
        return max(sizes) if sizes else None

    @property
    def makespan_ns(self) -> int:
        """From the first device op of any rank to the last, on the aligned clock."""
        starts = [r.device_start_ns + c.offset_ns for r, c in zip(self.ranks, self.clocks, strict=True)]
        ends = [r.device_end_ns + c.offset_ns for r, c in zip(self.ranks, self.clocks, strict=True)]
        return max(ends) - min(starts)

    def marks(self, rank: int | None) -> list[str]:
        """The figures at which `rank` is the worst of the job."""
        return [figure for figure, worst in self.worst.items() if worst == rank]


def reduce_job(results: Sequence[RankSummary | RankProblem]) -> JobSummary:
    """The job of the ranks' results (in file order).

    Raises
    ------
    JobInputError
        A file gave no rank (every such file named, one a line), or two files are one rank.
    """
    problems = [result.message for result in results if isinstance(result, RankProblem)]
    if problems:
        raise JobInputError("\n".join(problems))
    ranks = tuple(sorted(_numbered([r for r in results if isinstance(r, RankSummary)]), key=lambda r: r.rank or 0))
    matched = match_collectives([rank.anchors for rank in ranks])
    clocks = tuple(align_clocks(matched, len(ranks)))
    return JobSummary(ranks, clocks, _worst(ranks), tuple(job_findings(ranks, clocks, matched)))


def _numbered(ranks: list[RankSummary]) -> list[RankSummary]:
    """Each rank with its number: the files that did not say take the free ones, in file order."""
    claimed: dict[int, str] = {}
    for rank in ranks:
        if rank.rank is not None and claimed.setdefault(rank.rank, rank.file) != rank.file:
            message = _("rank {rank} twice: {first} and {second} ({how})")
            raise JobInputError(
                message.format(rank=rank.rank, first=claimed[rank.rank], second=rank.file, how=rank.rank_from)
            )
    free = (n for n in range(len(ranks) + len(claimed)) if n not in claimed)
    return [rank if rank.rank is not None else rank.with_rank(next(free), _("file order")) for rank in ranks]


def _worst(ranks: Sequence[RankSummary]) -> dict[str, int]:
    worst: dict[str, int] = {}
    for figure, (more_is_worse, margin) in WORST_RULES.items():
        values = [(getattr(r.figures, figure), r.rank) for r in ranks if getattr(r.figures, figure) is not None]
        if len(values) < 2:
            continue
        value, rank = (max if more_is_worse else min)(values, key=lambda pair: pair[0])
        others = float(np.median([v for v, r in values if r != rank]))
        gap = (value - others) if more_is_worse else (others - value)
        if rank is not None and gap >= (margin * abs(others) if figure.endswith("_ns") else margin):
            worst[figure] = rank
    return worst

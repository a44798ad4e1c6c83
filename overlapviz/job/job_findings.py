"""What is wrong with a job as a whole, that no rank's trace shows alone.

- ``straggler``: one rank starts most of the matched collectives last, later than the clocks'
  uncertainty allows, while the others wait in theirs;
- ``pageable-ranks``: some ranks copy from pageable memory where the others' copies are pinned;
- ``overlap-outlier``: a rank hides far less than the others (copy time hidden 10 % against 90 %).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from overlapviz.core.number_text import duration_text, fixed
from overlapviz.job.clocks import RankClock
from overlapviz.job.matching import MatchedCollectives
from overlapviz.job.summary import RankSummary

STRAGGLER_SHARE = 0.5  # of the matched collectives it must start last
STRAGGLER_MIN_NS = 20_000  # later than this, and than twice the clocks' uncertainty
OUTLIER_POINTS = 30.0  # percentage points below the other ranks' median
PAGEABLE_SHARE = 0.5
OVERLAP_FIGURES = {
    "copy_hidden_pct": "copy time hidden", "comm_hidden_pct": "communication hidden",
    "engines_together_pct": "engines together", "efficiency_pct": "efficiency",
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class JobFinding:
    """One finding of the job: its code, its sentence, the ranks it is about."""

    code: str
    message: str
    ranks: tuple[int, ...]

    def to_dict(self) -> dict[str, object]:
        """The finding as ``analyze --json`` gives it."""
        return {"code": self.code, "message": self.message, "ranks": list(self.ranks)}


def job_findings(ranks: Sequence[RankSummary], clocks: Sequence[RankClock],
                 matched: MatchedCollectives) -> list[JobFinding]:  # fmt: skip
    """Every finding of the job, the straggler first."""
    found = [_straggler(ranks, clocks, matched), _pageable_ranks(ranks)]
    return [f for f in found if f is not None] + _overlap_outliers(ranks)


def _straggler(ranks: Sequence[RankSummary], clocks: Sequence[RankClock],
               matched: MatchedCollectives) -> JobFinding | None:  # fmt: skip
    offsets = np.array([clock.offset_ns for clock in clocks], dtype=np.int64)
    starts = matched.start_ns + offsets[matched.rank]
    order = np.lexsort((starts, matched.collective))
    collective, starts, rank = matched.collective[order], starts[order], matched.rank[order]
    first = np.flatnonzero(np.r_[True, collective[1:] != collective[:-1]])
    sizes = np.diff(np.r_[first, collective.size])
    shared = sizes >= 2
    if not shared.any():
        return None
    last = (first + sizes - 1)[shared]
    lateness = starts[last] - starts[(first + (sizes - 1) // 2)[shared]]  # after the median rank's start
    latest = np.bincount(rank[last], minlength=len(ranks))
    who = int(latest.argmax())
    late = lateness[rank[last] == who]
    uncertainty = max((c.uncertainty_ns or 0) for c in clocks)
    typical = int(np.median(late))
    if latest[who] < STRAGGLER_SHARE * shared.sum() or typical < max(STRAGGLER_MIN_NS, 2 * uncertainty):
        return None
    name = ranks[who].rank
    return JobFinding("straggler", f"Rank {name} starts {latest[who]} of {int(shared.sum())} matched collectives"
                      f" last, typically {duration_text(typical)} after the median rank: the other ranks wait in"
                      f" their collectives for it (clocks aligned to within {duration_text(uncertainty)}).",
                      (name,) if name is not None else ())  # fmt: skip


def _pageable_ranks(ranks: Sequence[RankSummary]) -> JobFinding | None:
    shares = {n: _pageable_share(r) for n, r in enumerate(ranks)}
    known = {n: s for n, s in shares.items() if s is not None}
    pageable = [n for n, s in known.items() if s >= PAGEABLE_SHARE]
    pinned = [n for n, s in known.items() if s < PAGEABLE_SHARE]
    if not pageable or len(pinned) <= len(pageable):
        return None
    names = tuple(r for n in pageable if (r := ranks[n].rank) is not None)
    return JobFinding("pageable-ranks", f"{_ranks_text(names)} copy from pageable host memory where the other"
                      f" {len(pinned)} ranks' copies are pinned: their copies are staged by the driver and"
                      " cannot overlap; pin their buffers (pin_memory=True) as the others do.", names)  # fmt: skip


def _overlap_outliers(ranks: Sequence[RankSummary]) -> list[JobFinding]:
    found = []
    for key, title in OVERLAP_FIGURES.items():
        values = {n: v for n, r in enumerate(ranks) if (v := getattr(r.figures, key)) is not None}
        for n, value in values.items():
            others = [v for m, v in values.items() if m != n]
            if not others or float(np.median(others)) - value < OUTLIER_POINTS:
                continue
            name = ranks[n].rank
            found.append(JobFinding("overlap-outlier", f"Rank {name}: {title} {fixed(value, 0)} % against"
                                    f" {fixed(float(np.median(others)), 0)} % on the other ranks (median).",
                                    (name,) if name is not None else ()))  # fmt: skip
    return found


def _pageable_share(rank: RankSummary) -> float | None:
    copies = rank.figures.pageable_copies + rank.figures.pinned_copies
    return None if copies == 0 else rank.figures.pageable_copies / copies


def _ranks_text(names: Sequence[int]) -> str:
    shown = ", ".join(str(n) for n in names[:8]) + (f" and {len(names) - 8} more" if len(names) > 8 else "")
    return f"Rank {shown}" if len(names) == 1 else f"Ranks {shown}"

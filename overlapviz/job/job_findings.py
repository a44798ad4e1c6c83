"""What is wrong with a job as a whole, that no rank's trace shows alone.

- ``straggler``: one rank starts most of the matched collectives last, later than the clocks'
  uncertainty allows, while the others wait in theirs;
- ``pageable-ranks``: some ranks copy from pageable memory where the others' copies are pinned;
- ``overlap-outlier``: some ranks hide far less than the others (copy time hidden 10 % against 90 %).

Ranks that share a finding are one finding, however many they are, and the findings come
most important first, so that a job of 512 ranks reads as a few lines.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from overlapviz.core.i18n import N_, _, grouped, ngettext
from overlapviz.core.number_text import duration_text, fixed
from overlapviz.job.clocks import RankClock
from overlapviz.job.matching import MatchedCollectives
from overlapviz.job.rank_names import ranks_text
from overlapviz.job.summary import RankSummary

STRAGGLER_SHARE = 0.5  # of the matched collectives it must start last
STRAGGLER_MIN_NS = 20_000  # later than this, and than twice the clocks' uncertainty
OUTLIER_POINTS = 30.0  # percentage points between the ranks that hide less and the others
PAGEABLE_SHARE = 0.5
OVERLAP_FIGURES = {
    "copy_hidden_pct": N_("copy time hidden"), "comm_hidden_pct": N_("communication hidden"),
    "engines_together_pct": N_("engines together"), "efficiency_pct": N_("efficiency"),
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
    """Every finding of the job, the most important first.

    The straggler first: every other rank waits for it at every collective. Then the ranks
    copying from pageable memory (their copies cannot overlap at all), then the overlap
    outliers, those that lose the most percentage points summed over their ranks first.
    """
    found = [f for f in (_straggler(ranks, clocks, matched), _pageable_ranks(ranks)) if f is not None]
    outliers = sorted(_overlap_outliers(ranks), key=lambda weighed: -weighed[0])
    return found + [finding for _lost, finding in outliers]


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
    message = _(
        "Rank {rank} starts {last} of {matched} matched collectives last, typically {late} after the median rank:"
        " the other ranks wait in their collectives for it (clocks aligned to within {margin})."
    ).format(
        rank=name, last=grouped(int(latest[who])), matched=grouped(int(shared.sum())), late=duration_text(typical),
        margin=duration_text(uncertainty),
    )  # fmt: skip
    return JobFinding("straggler", message, (name,) if name is not None else ())


def _pageable_ranks(ranks: Sequence[RankSummary]) -> JobFinding | None:
    shares = {n: _pageable_share(r) for n, r in enumerate(ranks)}
    known = {n: s for n, s in shares.items() if s is not None}
    pageable = [n for n, s in known.items() if s >= PAGEABLE_SHARE]
    pinned = [n for n, s in known.items() if s < PAGEABLE_SHARE]
    if not pageable or len(pinned) <= len(pageable):
        return None
    names = _names(ranks, pageable)
    message = ngettext(
        "{ranks} copies from pageable host memory where the other {others} ranks' copies are pinned: the driver"
        " stages such copies and they cannot overlap; pin their buffers (pin_memory=True) as the others do.",
        "{ranks} copy from pageable host memory where the other {others} ranks' copies are pinned: the driver"
        " stages such copies and they cannot overlap; pin their buffers (pin_memory=True) as the others do.",
        len(names),
    ).format(ranks=ranks_text(names, len(ranks)), others=grouped(len(pinned)))
    return JobFinding("pageable-ranks", message, names)


def _overlap_outliers(ranks: Sequence[RankSummary]) -> list[tuple[float, JobFinding]]:
    """For each overlap figure, the ranks far below the others as one finding, weighed by the points they lose."""
    found = []
    for key, title in OVERLAP_FIGURES.items():
        values = {n: float(v) for n, r in enumerate(ranks) if (v := getattr(r.figures, key)) is not None}
        split = split_at_widest_gap(values)
        if split is not None:
            found.append(_outlier_finding(ranks, title, values, *split))
    return found


def split_at_widest_gap(values: dict[int, float]) -> tuple[list[int], list[int]] | None:
    """The keys of `values` below the widest gap between them and those above; None where no gap is that wide.

    Not "each rank against the others' median": where the ranks fall in two groups of about
    one size (half at 2 %, half at 65 %), that median jumps from one group to the other with
    a single rank, and flags one half or none by accident. The widest gap splits them the
    same way whatever the groups' sizes, and the lower group is what loses time.
    """
    order = sorted(values, key=lambda n: values[n])
    gaps = np.diff([values[n] for n in order])
    if gaps.size == 0 or gaps.max() < OUTLIER_POINTS:
        return None
    at = int(gaps.argmax()) + 1
    return order[:at], order[at:]


def _outlier_finding(ranks: Sequence[RankSummary], title: str, values: dict[int, float],
                     low: list[int], high: list[int]) -> tuple[float, JobFinding]:  # fmt: skip
    high_median = float(np.median([values[n] for n in high]))
    if len(high) == 1:
        against = _("on rank {rank}").format(rank=ranks[high[0]].rank)
    elif len(low) < len(high):
        against = _("on the other ranks (median)")
    else:  # no majority to call "the others": compare with the better group, and say that the ranks split
        split = _("on the other {count} ranks (median); the ranks fall in two groups")
        against = split.format(count=grouped(len(high)))
    names = _names(ranks, sorted(low, key=lambda n: ranks[n].rank or 0))
    message = _("{ranks}: {figure} {values} against {median} % {against}.").format(
        ranks=ranks_text(names, len(ranks)), figure=_(title), values=_percent_range([values[n] for n in low]),
        median=fixed(high_median, 0), against=against,
    )  # fmt: skip
    lost = sum(high_median - values[n] for n in low)
    return lost, JobFinding("overlap-outlier", message, names)


def _names(ranks: Sequence[RankSummary], indices: Sequence[int]) -> tuple[int, ...]:
    """The rank numbers of `ranks` at `indices` (the job has numbered them all)."""
    return tuple(r for n in indices if (r := ranks[n].rank) is not None)


def _percent_range(values: Sequence[float]) -> str:
    """``2 %``, or ``2\u20139 %`` where the values differ once rounded."""
    low, high = fixed(min(values), 0), fixed(max(values), 0)
    return f"{low} %" if low == high else f"{low}\u2013{high} %"


def _pageable_share(rank: RankSummary) -> float | None:
    copies = rank.figures.pageable_copies + rank.figures.pinned_copies
    return None if copies == 0 else rank.figures.pageable_copies / copies

"""The ranks of a job on one clock: aligned on the collectives they share, else on each file's own time.

A collective ends on all its ranks at nearly one moment (none can finish before the last
has sent its part), whatever moment each started it: so the ends align the clocks, and the
starts, once aligned, show who came late. Each rank is shifted by the median difference of
its matched ends to the reference rank's (the first rank that shares collectives with it);
what remains of those differences after the shift is the uncertainty shown. A rank without
matching collectives keeps its file's own clock (``baseTimeNanoseconds``, or the absolute
times Kineto writes), whose difference from the others' is not known from the traces.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from overlapviz.core.i18n import N_, _
from overlapviz.job.matching import MatchedCollectives

ON_COLLECTIVES = "collectives"
ON_BASE_TIME = "base time"
REFERENCE = "reference"


@dataclass(frozen=True, slots=True)
class RankClock:
    """How one rank's clock was put on the job's: add `offset_ns` to its file's times."""

    offset_ns: int
    aligned_on: str  # REFERENCE, ON_COLLECTIVES or ON_BASE_TIME
    matched: int  # collectives matched with the reference
    uncertainty_ns: int | None  # the largest residual of the matched ends; None where it is not known


def align_clocks(matched: MatchedCollectives, ranks: int) -> list[RankClock]:
    """The clock of each of `ranks` ranks (in the job's order); the first with collectives is the reference."""
    with_anchors = [n for n in range(ranks) if matched.of_rank(n).any()]
    if not with_anchors:
        return [RankClock(0, ON_BASE_TIME if n else REFERENCE, 0, None) for n in range(ranks)]
    reference = with_anchors[0]
    ref_rows = matched.of_rank(reference)
    ref_collective, ref_end = matched.collective[ref_rows], matched.end_ns[ref_rows]
    clocks = []
    for n in range(ranks):
        if n == reference:
            clocks.append(RankClock(0, REFERENCE, int(ref_rows.sum()), 0))
            continue
        mine = matched.of_rank(n)
        _, at_ref, at_mine = np.intersect1d(ref_collective, matched.collective[mine], return_indices=True)
        clocks.append(_clock(ref_end[at_ref] - matched.end_ns[mine][at_mine]))
    return clocks


def job_uncertainty_ns(clocks: Sequence[RankClock]) -> int | None:
    """The largest uncertainty of any rank's clock; None where a rank's is not known."""
    known = [clock.uncertainty_ns for clock in clocks]
    return None if any(value is None for value in known) else max((v or 0 for v in known), default=0)


def aligned_on(clocks: Sequence[RankClock]) -> str:
    """``collectives``, ``base time``, or ``collectives and base time`` for a job of both."""
    kinds = {clock.aligned_on for clock in clocks if clock.aligned_on != REFERENCE} or {ON_BASE_TIME}
    return " and ".join(sorted(kinds))


# `aligned_on`'s answers, as a sentence names them in the user's language (the JSON keeps the English)
ALIGNED_ON_WORDS = {
    "collectives": N_("collectives"), "base time": N_("base time"),
    "base time and collectives": N_("base time and collectives"),
}  # fmt: skip


def aligned_on_words(aligned: str) -> str:
    """`aligned_on`'s answer in the user's language."""
    return _(ALIGNED_ON_WORDS.get(aligned, aligned))


def _clock(differences: np.ndarray) -> RankClock:
    if differences.size == 0:
        return RankClock(0, ON_BASE_TIME, 0, None)
    offset = int(np.median(differences))
    residual = int(np.abs(differences - offset).max()) if differences.size > 1 else None
    return RankClock(offset, ON_COLLECTIVES, int(differences.size), residual)

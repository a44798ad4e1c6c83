"""Compare ranks: two ranks of a job as A and B, on the job's clock.

Two files opened for Compare A/B are lined up at their first device ops (`aligning`): right
for "before and after my fix", wrong for two ranks of one job, whose whole point is when each
did what on the job's clock. Here the two traces are moved by the clocks the job worked out
from their collectives (`view.rank_overview.pair_shifts`), so that a time is the same moment
on both, and go on show as they are, without the first-op line-up. Pure: no Qt here.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from overlapviz.app.aligning import shifted_view
from overlapviz.app.controller import AppController
from overlapviz.app.model import Pinned, Shown
from overlapviz.app.pair_run import Side
from overlapviz.core.cancel import CancelToken
from overlapviz.core.i18n import _
from overlapviz.view.formatting import format_duration
from overlapviz.view.prepared import PreparedView
from overlapviz.view.rank_overview import RankRow, pair_shifts


@dataclass(frozen=True)
class RankPair:
    """Two ranks prepared for the timeline, each moved onto the job's clock."""

    rows: tuple[RankRow, RankRow]
    views: tuple[PreparedView, PreparedView]
    shifts_ns: tuple[int, int]

    @property
    def title(self) -> str:
        """``Rank 0 (A) and rank 5 (B) on the job's clock``."""
        a, b = self.rows
        return _("Rank {a} (A) and rank {b} (B) on the job's clock").format(a=a.rank, b=b.rank)

    @property
    def notice(self) -> str:
        """What the status bar says: the title, and which side was drawn later by how much."""
        moved = [(row, shift) for row, shift in zip(self.rows, self.shifts_ns, strict=True) if shift]
        later = "".join(
            _(": rank {rank} drawn {duration} later").format(rank=row.rank, duration=format_duration(shift))
            for row, shift in moved
        )
        return f"{self.title}{later}"


def rank_pair(rows: tuple[RankRow, RankRow], views: tuple[PreparedView, PreparedView],
              cancel: CancelToken | None = None) -> RankPair:  # fmt: skip
    """The two ranks' `views` (each of its own file, in its own times) moved onto the job's clock."""
    shifts = pair_shifts(*rows)
    moved = (shifted_view(views[0], shifts[0], cancel), shifted_view(views[1], shifts[1], cancel))
    return RankPair(rows, moved, shifts)


def show_rank_pair(controller: AppController, pair: RankPair) -> None:
    """Put `pair` on show as A and B, as it is (no line-up at first device ops); live mode stops."""
    model = controller.model
    controller.set_live(False)
    controller.runs.cancel()
    model.set_lesson(None)
    (row_a, row_b), (view_a, view_b) = pair.rows, pair.views
    model.set_pinned(Pinned(Side(view_a, _("rank {rank}").format(rank=row_a.rank), Path(row_a.file)), pair.title))
    model.set_shown(Shown(view_b, Path(row_b.file), _("rank {rank}").format(rank=row_b.rank)))
    model.set_controls_set_aside(True)
    controller.runs.messages.clear_error()
    controller.runs.messages.show_notice(pair.notice)

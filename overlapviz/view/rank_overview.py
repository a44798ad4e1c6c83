"""The rank overview: one row per rank, its time buckets on the job's clock, coloured by what ran.

Each rank's summary holds 256 buckets of its own device time (`job.buckets`); the overview
puts every rank on the job's aligned clock and resamples its buckets onto one grid of columns
shared by all rows, so that a column is the same moment in every rank. A cell is coloured by
the kind that covered most of it (compute, communication, copies: the timeline's colours for
kernels, NCCL kernels and H2D copies), as opaque as the share of it that was busy; idle time
inside the rank's run is a faint grey, and time outside it is left clear. The result is one
RGBA image, rows by columns, that the app draws as a single image item however many ranks
there are. Pure: no Qt here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from overlapviz.core.i18n import N_, _, ncount, pgettext
from overlapviz.core.i18n.text_width import wrap
from overlapviz.core.number_text import duration_text
from overlapviz.job.buckets import BUCKET_KINDS, TimeBuckets
from overlapviz.job.clocks import aligned_on, aligned_on_words, job_uncertainty_ns
from overlapviz.job.job_findings import JobFinding
from overlapviz.job.job_report import FIGURE_COLUMNS, figure_text, rank_marks
from overlapviz.job.reduce import JobSummary
from overlapviz.job.summary import RankSummary
from overlapviz.view.palette import KIND_COLOURS, OKABE_ITO, LegendEntry, SpanStyle

COLUMNS = 1024  # the grid shared by every row: 256 buckets of a rank at about 4 columns each
KIND_ORDER = tuple(BUCKET_KINDS)  # compute, communication, copies
KIND_STYLES: dict[str, SpanStyle] = {
    "compute": SpanStyle.KERNEL, "communication": SpanStyle.COMMUNICATION, "copies": SpanStyle.H2D,
}  # fmt: skip
KIND_TITLES = {
    "compute": N_("Compute"),
    "communication": N_("Communication"),
    "copies": N_("Copies"),
    "idle": N_("Idle"),
}
IDLE_COLOUR = OKABE_ITO["grey"]
TIP_WIDTH = 80  # characters of a tooltip's line: a finding's sentence wrapped, not one line across the screen
IDLE_ALPHA = 0.18  # idle time inside a rank's run: faint, so that the busy cells carry the picture


@dataclass(frozen=True, slots=True)
class RankRow:
    """One row of the overview: the rank, its file, where its run lies on the job's clock, its marks."""

    rank: int
    file: Path
    start_ns: int  # on the job's clock, from the job's start
    end_ns: int
    offset_ns: int  # what the job added to the rank's file times to put them on its clock
    origin_ns: int  # the file's clock at the trace's time 0 (0 where the file has none)
    marks: tuple[str, ...]  # why it is marked (`job_report.rank_marks`): the figures it is worst at, "straggler"
    tooltip: str

    @property
    def label(self) -> str:
        """``rank 3``, and a star where it is marked: the worst of the job at something, or its straggler."""
        return _("rank {rank}").format(rank=self.rank) + (" \u2605" if self.marks else "")

    @property
    def job_zero_ns(self) -> int:
        """Where the rank's trace time 0 lies on the job's absolute clock."""
        return self.origin_ns + self.offset_ns


@dataclass(frozen=True, slots=True, eq=False)
class RankOverview:
    """What the overview draws: a row per rank, the RGBA cells, the job's span and its words."""

    rows: tuple[RankRow, ...]
    image: npt.NDArray[np.uint8]  # (rows, COLUMNS, 4): row i is rows[i]
    span_ns: int  # the job's time from its first device op to its last, on the aligned clock
    heading: str
    findings: tuple[JobFinding, ...]

    @property
    def column_ns(self) -> float:
        """How long one column of the image is."""
        return float(self.span_ns / self.image.shape[1])

    def row_at(self, index: int) -> RankRow | None:
        """The row at `index` (from the top), or None outside the rows."""
        return self.rows[index] if 0 <= index < len(self.rows) else None

    def rows_of(self, ranks: Sequence[int]) -> list[int]:
        """The indices of the rows of `ranks` (rank numbers), in the order given; unknown ranks left out."""
        index = {row.rank: i for i, row in enumerate(self.rows)}
        return [index[rank] for rank in ranks if rank in index]


def rank_overview(job: JobSummary, columns: int = COLUMNS) -> RankOverview:
    """The overview of `job`: its ranks in rank order, on its aligned clock."""
    zero = min(r.device_start_ns + c.offset_ns for r, c in zip(job.ranks, job.clocks, strict=True))
    span = max(1, job.makespan_ns)
    edges = np.linspace(0.0, float(span), columns + 1)
    rows, image = [], np.zeros((len(job.ranks), columns, 4), dtype=np.uint8)
    for index, (rank, clock) in enumerate(zip(job.ranks, job.clocks, strict=True)):
        image[index] = row_cells(rank.buckets, clock.offset_ns - zero, edges)
        rows.append(_row(job, rank, clock.offset_ns, zero))
    return RankOverview(tuple(rows), image, span, job_heading(job), job.findings)


def row_cells(buckets: TimeBuckets, offset_ns: int, edges: npt.NDArray[np.float64]) -> npt.NDArray[np.uint8]:
    """One rank's RGBA cells between the column `edges` (ns from the job's start).

    `offset_ns` takes the rank's file times to the job's: its clock offset less the job's
    start, so that the numbers stay small enough for float64 to hold them to the ns.
    """
    cover = column_shares(buckets, offset_ns, edges)
    in_run = cover.pop("in run")
    busy = np.clip(in_run - cover["idle"], 0.0, 1.0)
    kinds = np.stack([cover[kind] for kind in KIND_ORDER])
    dominant = kinds.argmax(axis=0)
    colours = np.array([_rgb(KIND_COLOURS[KIND_STYLES[kind]]) for kind in KIND_ORDER])[dominant]
    busy = np.where(kinds.max(axis=0) > 0, busy, 0.0)
    idle = np.clip(in_run - busy, 0.0, 1.0) * IDLE_ALPHA
    alpha = busy + idle
    rgb = (busy[:, None] * colours + idle[:, None] * _rgb(IDLE_COLOUR)) / np.maximum(alpha, 1e-9)[:, None]
    cells = np.concatenate([rgb, alpha[:, None] * 255.0], axis=1)
    rgba: npt.NDArray[np.uint8] = np.clip(np.rint(cells), 0, 255).astype(np.uint8)
    return rgba


def column_shares(
    buckets: TimeBuckets, offset_ns: int, edges: npt.NDArray[np.float64]
) -> dict[str, npt.NDArray[np.float64]]:
    """Each kind's share of each column, and the share of it inside the rank's run ("in run").

    The buckets' covered time is summed from the run's start; read at the column edges (it
    is linear within a bucket) it gives each column's covered time exactly.
    """
    count = len(buckets.shares["idle"])
    bucket_edges = buckets.start_ns + offset_ns + buckets.bucket_ns * np.arange(count + 1, dtype=np.float64)
    width = np.diff(edges)
    shares = {}
    for kind, share in [*buckets.shares.items(), ("in run", np.ones(count, dtype=np.float32))]:
        summed = np.concatenate([[0.0], np.cumsum(share.astype(np.float64) * buckets.bucket_ns)])
        shares[kind] = np.diff(np.interp(edges, bucket_edges, summed)) / width
    return shares


def _rgb(colour: str) -> npt.NDArray[np.float64]:
    return np.array([int(colour[i : i + 2], 16) for i in (1, 3, 5)], dtype=np.float64)


def _row(job: JobSummary, rank: RankSummary, offset_ns: int, zero_ns: int) -> RankRow:
    number = rank.rank if rank.rank is not None else 0
    marks = rank_marks(job, rank.rank)
    figures = [f"{_(title)} {figure_text(rank.figures, figure)}" for title, figure in FIGURE_COLUMNS]
    lines = [_("rank {rank}: {file}").format(rank=number, file=Path(rank.file).name), *figures]
    if marks.worst_at:
        worst = pgettext("list", ", ").join(_(title) for title in marks.worst_at)
        lines.append(_("worst of the job at {figures}").format(figures=worst))
    for finding in marks.findings:
        lines += wrap(f"{finding.code}: {finding.message}", TIP_WIDTH)
    return RankRow(
        number, Path(rank.file), rank.device_start_ns + offset_ns - zero_ns, rank.device_end_ns + offset_ns - zero_ns,
        offset_ns, rank.origin_ns or 0, marks.titles, "\n".join(lines),
    )  # fmt: skip


def job_heading(job: JobSummary) -> str:
    """``2 ranks of 128 · makespan 1231.2 ms · clocks aligned on collectives, to within 134.0 ms``."""
    world = job.world_size
    count = len(job.ranks)
    if world is not None and world > count:
        ranks = ncount("{count} rank of {world}", "{count} ranks of {world}", count, world=world)
    else:
        ranks = ncount("{count} rank", "{count} ranks", count)
    uncertainty = job_uncertainty_ns(job.clocks)
    aligned = aligned_on(job.clocks)
    clocks = aligned_on_words(aligned)
    if uncertainty is None:
        said = _("{ranks} \u00b7 makespan {makespan} \u00b7 clocks aligned on {clocks}, to within an unknown margin")
    else:
        said = _("{ranks} \u00b7 makespan {makespan} \u00b7 clocks aligned on {clocks}, to within {uncertainty}")
    return said.format(
        ranks=ranks, makespan=duration_text(job.makespan_ns), clocks=clocks,
        uncertainty=duration_text(uncertainty or 0),
    )  # fmt: skip


def pair_shifts(a: RankRow, b: RankRow) -> tuple[int, int]:
    """How far to move ranks `a` and `b`'s traces later so both are on the job's clock (one is 0)."""
    gap = b.job_zero_ns - a.job_zero_ns
    return max(-gap, 0), max(gap, 0)


RANK_LEGEND: tuple[LegendEntry, ...] = (
    *(LegendEntry(KIND_TITLES[kind], KIND_COLOURS[KIND_STYLES[kind]]) for kind in KIND_ORDER),
    LegendEntry(KIND_TITLES["idle"], IDLE_COLOUR),
)
# The legend's tooltip, said with `_` where shown
LEGEND_MEANING = N_(
    "Each cell is coloured by the kind that covered most of its time, as opaque as the share of it"
    " that was busy; idle time inside a rank's run is faint grey, time outside it clear."
)

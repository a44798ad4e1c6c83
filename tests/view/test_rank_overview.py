"""The rank overview's rows and cells, without Qt: colours by kind, opacity by busy share, the job's clock."""

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from overlapviz.job.buckets import TimeBuckets
from overlapviz.job.job_findings import JobFinding
from overlapviz.job.reduce import reduce_job
from overlapviz.job.worker import RankSource, summarise_file
from overlapviz.view.palette import KIND_COLOURS, SpanStyle
from overlapviz.view.rank_overview import (
    IDLE_ALPHA,
    TIP_WIDTH,
    column_shares,
    pair_shifts,
    rank_overview,
    row_cells,
)

REAL = Path(__file__).parents[1] / "data" / "torch-real"
RANK_FILES = (REAL / "hta-sampled-rank0-of-128.json.gz", REAL / "hta-sampled-rank1-of-128.json.gz")
BUCKET_NS = 1_000


def _rgb(colour: str) -> list[int]:
    return [int(colour[i : i + 2], 16) for i in (1, 3, 5)]


def _buckets(compute: list[float], communication: list[float] | None = None, start_ns: int = 0) -> TimeBuckets:
    """Buckets of `BUCKET_NS` from `start_ns`; idle is what neither kind covers."""
    comp = np.array(compute, dtype=np.float32)
    comm = np.zeros_like(comp) if communication is None else np.array(communication, dtype=np.float32)
    shares = {"compute": comp, "communication": comm, "copies": np.zeros_like(comp),
              "idle": np.clip(1 - comp - comm, 0, 1).astype(np.float32)}  # fmt: skip
    return TimeBuckets(start_ns, BUCKET_NS, shares)


def _edges(columns: int, span_ns: int) -> np.ndarray:
    return np.linspace(0.0, float(span_ns), columns + 1)


@pytest.fixture(scope="module")
def real_job():
    return reduce_job([summarise_file(RankSource(str(file))) for file in RANK_FILES])


def test_a_busy_cell_takes_its_kinds_colour_opaque_and_time_outside_the_run_stays_clear():
    cells = row_cells(_buckets([1.0, 1.0]), 0, _edges(4, 4 * BUCKET_NS))
    kernel = _rgb(KIND_COLOURS[SpanStyle.KERNEL])
    assert cells[:2, :3].tolist() == [kernel, kernel]
    assert cells[:2, 3].tolist() == [255, 255]
    assert cells[2:, 3].tolist() == [0, 0]


def test_the_kind_that_covered_most_of_a_cell_colours_it():
    cells = row_cells(_buckets([0.3], [0.7]), 0, _edges(1, BUCKET_NS))
    assert cells[0, :3].tolist() == _rgb(KIND_COLOURS[SpanStyle.COMMUNICATION])


def test_a_cell_is_as_opaque_as_its_busy_share_with_idle_time_faint():
    busy_alpha = [int(row_cells(_buckets([share]), 0, _edges(1, BUCKET_NS))[0, 3]) for share in (0.0, 0.25, 0.75)]
    assert busy_alpha[0] == round(255 * IDLE_ALPHA)
    assert busy_alpha[0] < busy_alpha[1] < busy_alpha[2] < 255


def test_resampling_keeps_each_kinds_time():
    compute = [0.1, 0.9, 0.5, 0.0, 1.0, 0.3, 0.7]
    edges = _edges(16, 10 * BUCKET_NS)
    shares = column_shares(_buckets(compute), 0, edges)
    assert float((shares["compute"] * np.diff(edges)).sum()) == pytest.approx(sum(compute) * BUCKET_NS)


def test_the_clock_offset_moves_a_row_along_the_job_clock():
    edges = _edges(8, 8 * BUCKET_NS)
    here = row_cells(_buckets([1.0, 1.0]), 0, edges)
    later = row_cells(_buckets([1.0, 1.0]), 3 * BUCKET_NS, edges)
    assert later[3:5].tolist() == here[:2].tolist()
    assert later[:3, 3].tolist() == [0, 0, 0]


def test_the_real_job_has_a_row_per_rank_on_one_grid_with_its_marks_and_figures(real_job):
    overview = rank_overview(real_job, columns=256)
    assert overview.image.shape == (2, 256, 4)
    assert [row.rank for row in overview.rows] == [0, 1]
    for row in overview.rows:
        assert row.label.startswith(f"rank {row.rank}")
        assert row.file.name in row.tooltip and "makespan" in row.tooltip
        marked = [figure for figure, rank in real_job.worst.items() if rank == row.rank]
        assert len(row.marks) == len(marked)
        assert ("\u2605" in row.label) == bool(marked)
    assert overview.heading.startswith("2 ranks of 128")
    assert overview.image[:, :, 3].any(axis=1).all()  # every rank drew something
    assert overview.rows_of([1, 7, 0]) == [1, 0]
    assert min(row.start_ns for row in overview.rows) == 0  # the job's first GPU op, not a file's time 0
    assert max(row.end_ns for row in overview.rows) == overview.span_ns == real_job.makespan_ns


def test_a_pair_of_ranks_is_moved_onto_the_job_clock_by_one_side(real_job):
    overview = rank_overview(real_job)
    a, b = overview.rows
    later = dataclasses.replace(b, origin_ns=a.job_zero_ns - b.offset_ns + 5_000)
    assert pair_shifts(a, later) == (0, 5_000)
    assert pair_shifts(later, a) == (5_000, 0)


def test_the_straggler_is_starred_and_its_tooltip_says_the_finding(real_job):
    said = ("Rank 1 starts 9 of 10 matched collectives last, typically 3.0 ms after the median rank: the other"
            " ranks wait in their collectives for it (clocks aligned to within 0.1 ms).")  # fmt: skip
    job = dataclasses.replace(real_job, worst={}, findings=(JobFinding("straggler", said, (1,)),))
    quiet, late = rank_overview(job).rows
    assert (quiet.marks, quiet.label) == ((), "rank 0")
    assert late.marks == ("straggler",) and late.label == "rank 1 \u2605"
    assert " ".join(late.tooltip.split()).endswith(f"straggler: {said}")
    assert max(len(line) for line in late.tooltip.splitlines()) <= TIP_WIDTH

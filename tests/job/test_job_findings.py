"""The job's findings read well however many ranks: one finding per group of ranks, the most important first."""

import dataclasses

import pytest
from test_job_reduce import _four_ranks

from overlapviz.job.job_findings import split_at_widest_gap
from overlapviz.job.job_report import job_lines, rank_marks
from overlapviz.job.rank_names import ranks_text
from overlapviz.job.reduce import reduce_job


def _ranks(summary, copy_hidden, pageable=()):
    """A rank per value of `copy_hidden`, numbered in order; those in `pageable` copy from pageable memory."""
    ranks = []
    for rank, hidden in enumerate(copy_hidden):
        copies = summary.figures.pageable_copies + summary.figures.pinned_copies
        pageable_copies = copies if rank in pageable else 0
        figures = dataclasses.replace(summary.figures, copy_hidden_pct=hidden, pageable_copies=pageable_copies,
                                      pinned_copies=copies - pageable_copies)  # fmt: skip
        ranks.append(dataclasses.replace(summary, rank=rank, file=f"rank{rank}.json", figures=figures))
    return ranks


def _outliers(job):
    return [f for f in job.findings if f.code == "overlap-outlier"]


def test_ranks_sharing_an_outlier_are_one_finding_their_list_shortened(real_summaries):
    job = reduce_job(_ranks(real_summaries[0], [2.0 if rank % 2 == 0 else 65.0 for rank in range(16)]))
    (finding,) = _outliers(job)
    assert finding.ranks == tuple(range(0, 16, 2))
    assert finding.message.startswith("Ranks 0, 2, 4 \u2026 14 (8 of 16): copy time hidden 2 % against 65 %")
    assert "two groups" in finding.message  # no majority to call "the others"


def test_two_groups_are_split_alike_whichever_is_one_rank_larger(real_summaries):
    for lows in (7, 8, 9):
        values = [2.0] * lows + [65.0] * (16 - lows)
        (finding,) = _outliers(reduce_job(_ranks(real_summaries[0], values)))
        assert finding.ranks == tuple(range(lows)) and "against 65 %" in finding.message


def test_a_few_low_ranks_are_compared_with_the_others_median(real_summaries):
    values = [80.0, 85.0, 10.0, 90.0, 12.0, 88.0]
    (finding,) = _outliers(reduce_job(_ranks(real_summaries[0], values)))
    assert finding.ranks == (2, 4)
    said = "Ranks 2, 4 (2 of 6): copy time hidden 10\u201312 % against 86 % on the other ranks (median)."
    assert finding.message == said


def test_ranks_spread_without_a_wide_gap_are_no_outlier(real_summaries):
    assert not _outliers(reduce_job(_ranks(real_summaries[0], [0.0, 20.0, 40.0, 60.0, 80.0, 100.0])))
    assert split_at_widest_gap({0: 50.0}) is None


def test_the_straggler_comes_first_then_pageable_ranks_then_the_outliers_by_points_lost(real_summaries):
    late = _four_ranks(real_summaries[0], late_rank=2, late_ms=3.0)
    copies = _ranks(real_summaries[0], [70.0, 70.0, 70.0, 70.0], pageable=(3,))
    low_efficiency, low_comm_hidden = [90, 90, 90, 20], [90, 90, 50, 90]  # rank 3 loses 70 points, rank 2 40
    ranks = []
    for rank, with_copies, eff, comm in zip(late, copies, low_efficiency, low_comm_hidden, strict=True):
        figures = dataclasses.replace(with_copies.figures, efficiency_pct=eff, comm_hidden_pct=comm)
        ranks.append(dataclasses.replace(rank, figures=figures))
    findings = reduce_job(ranks).findings
    assert [f.code for f in findings] == ["straggler", "pageable-ranks", "overlap-outlier", "overlap-outlier"]
    assert ["efficiency" in findings[2].message, "communication hidden" in findings[3].message] == [True, True]
    assert findings[1].message.startswith("Rank 3 copies from pageable host memory where the other 3 ranks'")


@pytest.mark.parametrize(("names", "of", "text"), [
    ([5], 16, "Rank 5"),
    ([1, 3], 4, "Ranks 1, 3 (2 of 4)"),
    (list(range(6)), 8, "Ranks 0, 1, 2, 3, 4, 5 (6 of 8)"),
    (list(range(0, 512, 2)), 512, "Ranks 0, 2, 4 \u2026 510 (256 of 512)"),
])  # fmt: skip
def test_ranks_are_named_in_full_or_shortened_with_their_count(names, of, text):
    assert ranks_text(names, of) == text


def test_the_straggler_is_marked_in_the_table_as_the_worst_ranks_are(real_summaries):
    job = reduce_job(_four_ranks(real_summaries[0], late_rank=2, late_ms=3.0))
    (straggler,) = [f for f in job.findings if f.code == "straggler"]
    assert rank_marks(job, 2).findings == (straggler,) and "straggler" in rank_marks(job, 2).titles
    assert [bool(rank_marks(job, r).findings) for r in range(4)] == [False, False, True, False]
    rows = {line.split()[0]: line for line in job_lines(job)[1:5]}
    assert rows["*2"].endswith("straggler")
    assert all(not line.endswith("straggler") for name, line in rows.items() if name != "*2")


def test_findings_of_many_ranks_mark_no_row(real_summaries):
    job = reduce_job(_ranks(real_summaries[0], [70.0, 70.0, 70.0, 70.0], pageable=(3,)))
    assert [f.code for f in job.findings] == ["pageable-ranks"]
    assert not rank_marks(job, 3).findings
    assert not any("pageable" in line for line in job_lines(job)[:5])

"""The job made of its ranks: clocks, worst ranks, findings, the pool, the command line."""

import dataclasses
import json

import numpy as np
import pytest
from cli_runs import run_cli
from rank_files import RANK_FILES

from overlapviz.job.anchors import CollectiveAnchors
from overlapviz.job.discovery import JobInputError
from overlapviz.job.pool import map_local
from overlapviz.job.reduce import reduce_job
from overlapviz.job.worker import RankSource

MS = 1_000_000


def test_the_real_ranks_align_on_their_collectives(real_summaries):
    job = reduce_job(real_summaries)
    reference, other = job.clocks
    assert reference.aligned_on == "reference" and other.aligned_on == "collectives"
    assert other.matched == len(job.ranks[1].anchors) > 0 and other.uncertainty_ns is not None


def test_the_real_rank_that_hides_less_copy_time_is_the_outlier(real_summaries):
    job = reduce_job(real_summaries)
    low = min(job.ranks, key=lambda r: r.figures.copy_hidden_pct)
    outliers = [f for f in job.findings if f.code == "overlap-outlier"]
    assert [f.ranks for f in outliers] == [(low.rank,)] and "copy time hidden" in outliers[0].message
    assert job.worst["copy_hidden_pct"] == low.rank


def _with_collectives(summary, rank, starts_ms, ends_ms):
    count = len(starts_ms)
    anchors = CollectiveAnchors(
        ("allreduce",), np.zeros(count, np.int32), np.arange(count, dtype=np.int32),
        (np.array(starts_ms) * MS).astype(np.int64), (np.array(ends_ms) * MS).astype(np.int64),
    )  # fmt: skip
    return dataclasses.replace(summary, rank=rank, anchors=anchors)


def _four_ranks(summary, late_rank, late_ms, clock_shift_ms=7.0):
    """Four ranks whose collectives end together; `late_rank` starts each `late_ms` after the others."""
    ranks = []
    for rank in range(4):
        shift = clock_shift_ms * rank  # each host's clock off by some ms: the ends bring them together
        starts = [10 * k + shift + (late_ms if rank == late_rank else 0) for k in range(6)]
        ranks.append(_with_collectives(summary, rank, starts, [10 * k + 5 + shift for k in range(6)]))
    return ranks


def test_the_rank_that_starts_its_collectives_late_is_the_straggler(real_summaries):
    job = reduce_job(_four_ranks(real_summaries[0], late_rank=2, late_ms=3.0))
    assert [c.offset_ns for c in job.clocks] == [0, -7 * MS, -14 * MS, -21 * MS]
    assert all(c.uncertainty_ns == 0 for c in job.clocks)
    stragglers = [f for f in job.findings if f.code == "straggler"]
    assert [f.ranks for f in stragglers] == [(2,)] and "6 of 6" in stragglers[0].message


def test_no_straggler_where_the_ranks_start_together(real_summaries):
    job = reduce_job(_four_ranks(real_summaries[0], late_rank=2, late_ms=0.0))
    assert not [f for f in job.findings if f.code == "straggler"]


def test_ranks_copying_from_pageable_memory_where_the_others_pin(real_summaries):
    def copies(rank, pageable, pinned):
        figures = dataclasses.replace(real_summaries[0].figures, pageable_copies=pageable, pinned_copies=pinned)
        return dataclasses.replace(real_summaries[0], rank=rank, figures=figures)

    job = reduce_job([copies(0, 0, 8), copies(1, 8, 0), copies(2, 0, 8), copies(3, 1, 7)])
    assert [f.ranks for f in job.findings if f.code == "pageable-ranks"] == [(1,)]
    alike = reduce_job([copies(0, 0, 8), copies(1, 0, 8)])
    assert not [f for f in alike.findings if f.code == "pageable-ranks"]


def test_two_files_of_one_rank_are_refused_naming_both(real_summaries):
    twin = dataclasses.replace(real_summaries[0], file="copy.json.gz")
    with pytest.raises(JobInputError, match=r"rank 0 twice: .*hta-sampled-rank0.* and copy\.json\.gz"):
        reduce_job([real_summaries[0], twin])


def test_files_that_do_not_say_their_rank_take_the_free_ones(real_summaries):
    unknown = dataclasses.replace(real_summaries[0], rank=None, rank_from="", file="a.json")
    job = reduce_job([unknown, real_summaries[0]])
    assert [(r.rank, r.rank_from) for r in job.ranks] == [(0, "distributedInfo"), (1, "file order")]


def test_a_jobs_makespan_runs_from_its_first_gpu_op_to_its_last(real_summaries):
    twin = dataclasses.replace(real_summaries[0], rank=1, file="twin.json.gz")
    job = reduce_job([real_summaries[0], twin])  # one clock, the same work: the job lasts as long as each
    assert job.makespan_ns == real_summaries[0].figures.makespan_ns
    later = dataclasses.replace(twin, device_start_ns=twin.device_start_ns + 5 * MS,
                                device_end_ns=twin.device_end_ns + 5 * MS)  # fmt: skip
    assert reduce_job([real_summaries[0], later]).makespan_ns == real_summaries[0].figures.makespan_ns + 5 * MS


def test_the_process_pool_gives_what_one_process_gives():
    sources = [RankSource(str(file)) for file in RANK_FILES]
    pooled, alone = map_local(sources, workers=2), map_local(sources, workers=1)
    assert [s.figures for s in pooled] == [s.figures for s in alone]
    assert [s.report for s in pooled] == [s.report for s in alone]


def test_analyze_a_folder_prints_a_row_per_rank_and_the_findings(capsys, job_folder):
    code, out, err = run_cli(capsys, "analyze", str(job_folder), "--workers", "1")
    lines = out.splitlines()
    assert (code, err) == (0, "") and lines[0].split()[:2] == ["rank", "makespan"]
    assert [line.split()[0] for line in lines[1:3]] == ["*0", "*1"]  # each is the worst at something here
    assert "job        2 ranks of 128 (126 not given)" in out and "aligned on collectives" in out
    assert "copy time hidden" in out.split("findings", 1)[1]


def test_analyze_json_gives_each_rank_what_a_single_file_gives(capsys, job_folder):
    code, out, _ = run_cli(capsys, "analyze", str(job_folder), "--json", "--workers", "1")
    report = json.loads(out)
    assert code == 0 and [r["rank"] for r in report["ranks"]] == [0, 1]
    for rank in report["ranks"]:
        single = json.loads(run_cli(capsys, "analyze", rank["file"], "--json")[1])
        assert {k: v for k, v in rank.items() if k not in ("rank", "file")} == {
            k: v for k, v in single.items() if k != "trace"
        }
    assert report["job"]["clocks"]["aligned_on"] == "collectives" and report["job"]["world_size"] == 128


@pytest.mark.parametrize(("make", "words"), [
    (lambda folder: None, "the folder is empty"),
    (lambda folder: (folder / "rank-0.json").write_text("[1, 2]"), "rank-0.json"),
])  # fmt: skip
def test_analyze_bad_input_is_one_line_and_exit_2(capsys, tmp_path, make, words):
    make(tmp_path)
    code, out, err = run_cli(capsys, "analyze", str(tmp_path), "--workers", "1")
    assert (code, out) == (2, "") and words in err and len(err.strip().splitlines()) == 1

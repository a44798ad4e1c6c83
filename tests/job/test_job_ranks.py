"""A rank of a job: where its rank comes from, what its summary holds, which files make a job."""

import pickle

import numpy as np
import pytest
from rank_files import RANK_FILES

from overlapviz.core.trace.spans import OpKind
from overlapviz.importers.read import read_trace_file
from overlapviz.job.buckets import BUCKET_KINDS
from overlapviz.job.discovery import JobInputError, folder_traces, job_files, rank_from_name, rank_from_process
from overlapviz.job.rank_report import trace_report
from overlapviz.job.summary import RankProblem
from overlapviz.job.worker import RankSource, summarise_file
from overlapviz.session import analyse


def test_the_rank_and_the_job_size_come_from_distributed_info(real_summaries):
    assert [(s.rank, s.rank_from, s.world_size) for s in real_summaries] == [
        (0, "distributedInfo", 128), (1, "distributedInfo", 128),
    ]  # fmt: skip


def test_a_rank_carries_the_report_a_single_file_gives(real_summaries):
    summary = real_summaries[1]
    assert summary.report == trace_report(str(RANK_FILES[1]), analyse(read_trace_file(RANK_FILES[1])))


def test_a_summary_is_small_and_picklable(real_summaries):
    for summary in real_summaries:
        again = pickle.loads(pickle.dumps(summary))
        assert again.figures == summary.figures and again.anchors.by_match() == summary.anchors.by_match()
        assert len(pickle.dumps(summary)) < 64 * 1024  # a trace of 1.7 MB of JSON


def test_the_anchors_are_the_communication_kernels_numbered_on_the_file_clock(real_summaries):
    trace = read_trace_file(RANK_FILES[0])
    comm = trace["kind"] == OpKind.COMMUNICATION
    anchors, origin = real_summaries[0].anchors, trace.meta.extra["time_origin_ns"]
    assert len(anchors) == int(comm.sum()) > 0
    assert list(anchors.sequence) == list(range(len(anchors)))  # one collective: numbered 0, 1, ...
    assert sorted(anchors.start_ns - origin) == sorted(trace["start_ns"][comm])


def test_the_buckets_cover_what_ran_and_leave_the_rest_idle(real_summaries):
    trace = read_trace_file(RANK_FILES[0])
    buckets = real_summaries[0].buckets
    comm = trace["kind"] == OpKind.COMMUNICATION  # one stream of them, one after another: no overlap to merge
    covered = float(buckets.shares["communication"].astype(np.float64).sum()) * buckets.bucket_ns
    assert covered == pytest.approx(trace.durations_of(comm).sum(), rel=1e-6)
    for kind in (*BUCKET_KINDS, "idle"):
        assert buckets.shares[kind].min() >= 0 and buckets.shares[kind].max() <= 1
    assert np.all(buckets.shares["idle"] <= 1 - np.maximum(buckets.shares["compute"], buckets.shares["copies"]) + 1e-6)


def test_a_ranks_device_time_runs_from_its_first_gpu_op_not_from_the_files_time_0(real_summaries):
    trace = read_trace_file(RANK_FILES[0])
    summary, device = real_summaries[0], trace.device_mask
    first, last = int(trace["start_ns"][device].min()), int(trace["end_ns"][device].max())
    assert first > int(trace["start_ns"].min())  # the profiler's host events come before any GPU work
    assert (summary.device_start_ns - summary.origin_ns, summary.device_end_ns - summary.origin_ns) == (first, last)
    assert summary.device_end_ns - summary.device_start_ns == summary.figures.makespan_ns
    assert summary.buckets.start_ns == summary.device_start_ns


def test_a_file_that_is_no_trace_comes_back_as_a_problem_naming_it(tmp_path):
    bad = tmp_path / "rank-3.json"
    bad.write_text('{"not": "a trace"}')
    problem = summarise_file(RankSource(str(bad)))
    assert isinstance(problem, RankProblem) and str(bad) in problem.message and "\n" not in problem.message


def test_a_file_the_worker_cannot_see_is_said_so(tmp_path):
    problem = summarise_file(RankSource(str(tmp_path / "elsewhere" / "rank-0.json")))
    assert isinstance(problem, RankProblem) and "cannot see" in problem.message


def test_a_folder_gives_its_traces_in_rank_order_and_not_its_notes(tmp_path):
    for name in ("rank-10.json.gz", "rank-9.json", "README.md", ".hidden.json"):
        (tmp_path / name).write_text("x")
    assert [p.name for p in folder_traces(tmp_path)] == ["rank-9.json", "rank-10.json.gz"]


def test_a_folder_of_rank_folders_gives_the_traces_inside(tmp_path):
    for rank in (0, 1):
        (tmp_path / f"rank{rank}").mkdir()
        (tmp_path / f"rank{rank}" / "trace.json").write_text("x")
    assert [p.parent.name for p in job_files([tmp_path])] == ["rank0", "rank1"]


@pytest.mark.parametrize(("make", "words"), [
    (lambda folder: None, "the folder is empty"),
    (lambda folder: (folder / "notes.txt").write_text("x"), "holds no trace"),
])  # fmt: skip
def test_a_folder_without_traces_is_refused_in_one_line(tmp_path, make, words):
    make(tmp_path)
    with pytest.raises(JobInputError, match=words) as refused:
        job_files([tmp_path])
    assert str(tmp_path) in str(refused.value)


def test_a_missing_path_is_refused():
    with pytest.raises(JobInputError, match="no such file or folder"):
        job_files([RANK_FILES[0].with_name("nothing-here.json")])


@pytest.mark.parametrize(("name", "rank"), [
    ("rank-3.json.gz", 3), ("trace_rank_12.json", 12), ("worker7.pt.trace.json", 7), ("RANK5.sqlite", 5),
    ("profile.json", None), ("sampled_rank-1.json.gz", 1), ("step3_rank-2.json", 2),
])  # fmt: skip
def test_the_rank_in_a_file_name(name, rank):
    assert rank_from_name(name) == rank


def test_the_rank_in_a_process_name():
    assert rank_from_process("python train.py rank 3") == 3
    assert rank_from_process("pyper:trainer:0:1") is None  # no word says which number is the rank
    assert rank_from_process(None) is None

"""An Nsight Systems export of several processes is several ranks: one per process that ran GPU work.

No public repository found holding such an export, so the job is made from a real one of one
process (tests/data/nsys), copied as a second process (`two_process_export`).
"""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "importers"))

from nsys_files import NSYS, STREAMS, activities_of, raw_of, two_process_export

from overlapviz.core.files.safe_read import read_input_bytes
from overlapviz.importers.activity import ActivityKind
from overlapviz.importers.nsys import read_nsys
from overlapviz.importers.nsys_processes import gpu_processes, only_process
from overlapviz.job.reduce import reduce_job
from overlapviz.job.worker import RankSource, rank_sources, summarise_file

KERNELS_OF_ONE = 4  # the real export's kernels (tests/data/nsys/README.md)


def test_a_real_export_of_one_process_is_one_rank_as_before():
    processes = gpu_processes(raw_of(STREAMS), STREAMS)
    assert [(p.name, p.mpi_rank) for p in processes] == [("/home/hangyudu/tmp/async.out", None)]
    assert rank_sources([NSYS / STREAMS]) == [RankSource(str(NSYS / STREAMS))]


def test_each_process_that_ran_gpu_work_is_a_rank_in_the_order_of_their_ids(tmp_path):
    path = tmp_path / "job.sqlite"
    first, second = two_process_export(STREAMS, path)
    sources = rank_sources([path], window=None)
    assert [(s.process.pid, s.rank) for s in sources] == [(first, 0), (second, 1)]
    assert sources[1].rank_from == f"process {second}: order of process ids"
    summaries = [summarise_file(source) for source in sources]
    assert [(s.rank, s.file) for s in summaries] == [(0, str(path)), (1, str(path))]
    assert summaries[0].figures == summaries[1].figures  # the second process is a copy of the first
    job = reduce_job(summaries)
    assert [r.rank for r in job.ranks] == [0, 1]


def test_a_process_reads_its_own_rows_alone(tmp_path):
    path = tmp_path / "job.sqlite"
    two_process_export(STREAMS, path)
    both = read_nsys(read_input_bytes(path), str(path))
    one = activities_of(STREAMS)
    for process in gpu_processes(read_input_bytes(path), str(path)):
        mine = only_process(both, process)
        assert len(mine) == len(one) and set(mine["process"].tolist()) == {process.pid}
        assert int((mine["kind"] == ActivityKind.KERNEL).sum()) == KERNELS_OF_ONE
    assert only_process(both, gpu_processes(read_input_bytes(path), str(path))[1]).meta["process"] == "rank-two"


def test_the_mpi_rank_the_export_records_comes_before_the_order_of_ids(tmp_path):
    path = tmp_path / "job.sqlite"
    first, second = two_process_export(STREAMS, path, mpi_ranks=(1, 0))
    sources = rank_sources([path])
    assert [(s.process.pid, s.rank) for s in sources] == [(first, 1), (second, 0)]
    assert sources[0].rank_from == f"process {first}: MPI rank (MPI_RANKS)"
    job = reduce_job([summarise_file(source) for source in sources])
    assert [(r.rank, r.rank_from) for r in job.ranks] == [(0, sources[1].rank_from), (1, sources[0].rank_from)]


def test_a_damaged_export_stays_one_source_for_the_worker_to_name(tmp_path):
    path = tmp_path / "rank-3.sqlite"
    path.write_bytes(raw_of(STREAMS)[:4096])
    assert rank_sources([path]) == [RankSource(str(path))]
    problem = summarise_file(RankSource(str(path)))
    assert str(path) in problem.message


@pytest.mark.parametrize("head", [b"", b"\x1f\x8b", b"{}"])
def test_files_that_are_no_sqlite_are_not_opened(tmp_path, head):
    path = tmp_path / "rank0.json"
    path.write_bytes(head)
    assert rank_sources([path]) == [RankSource(str(path))]

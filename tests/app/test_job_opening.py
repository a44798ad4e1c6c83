"""File > Open folder without Qt: the ranks read in worker processes, with progress; bad folders in words."""

import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "importers"))

from nsys_files import STREAMS, two_process_export

from overlapviz.app.job_opening import read_job_folder
from overlapviz.core.cancel import CancelToken
from overlapviz.core.run_errors import RunCancelled
from overlapviz.importers.read import read_trace_file
from overlapviz.job.discovery import JobInputError
from overlapviz.job.worker import rank_trace

REAL = Path(__file__).parents[1] / "data" / "torch-real"
RANK_FILES = (REAL / "hta-sampled-rank0-of-128.json.gz", REAL / "hta-sampled-rank1-of-128.json.gz")


@pytest.fixture
def job_folder(tmp_path):
    for file in RANK_FILES:
        shutil.copy(file, tmp_path / file.name)
    return tmp_path


def test_a_folder_of_ranks_is_read_as_one_job_counting_the_ranks_read(job_folder):
    said = []
    opened = read_job_folder(job_folder, CancelToken(), lambda read, total: said.append((read, total)), workers=2)
    assert [row.rank for row in opened.overview.rows] == [0, 1]
    assert [rank.file for rank in opened.job.ranks] == [str(job_folder / f.name) for f in RANK_FILES]
    assert said[0] == (0, 2) and said[-1] == (2, 2)
    assert [read for read, _ in said] == sorted(read for read, _ in said)


def test_an_empty_folder_is_refused_in_words(tmp_path):
    with pytest.raises(JobInputError, match="the folder is empty"):
        read_job_folder(tmp_path, CancelToken(), lambda *_: None)


def test_a_folder_without_traces_says_what_a_trace_is_named(tmp_path):
    (tmp_path / "notes.txt").write_text("no trace here")
    with pytest.raises(JobInputError, match=r"holds no trace \(no file ending in .json"):
        read_job_folder(tmp_path, CancelToken(), lambda *_: None)


def test_a_file_that_is_no_trace_is_named(job_folder):
    (job_folder / "rank-2.json").write_text("{not json")
    with pytest.raises(JobInputError, match=r"rank-2\.json"):
        read_job_folder(job_folder, CancelToken(), lambda *_: None, workers=1)


def test_a_cancelled_open_stops(job_folder):
    cancel = CancelToken()
    cancel.cancel()
    with pytest.raises(RunCancelled):
        read_job_folder(job_folder, cancel, lambda *_: None, workers=1)


def test_each_rank_of_an_export_of_several_processes_is_its_process_alone(tmp_path):
    first, second = two_process_export(STREAMS, tmp_path / "job.sqlite")
    opened = read_job_folder(tmp_path, CancelToken(), lambda *_: None, workers=1)
    sources = [opened.source_of(row) for row in opened.overview.rows]
    assert [source.process.pid for source in sources] == [first, second]
    whole = read_trace_file(tmp_path / "job.sqlite")
    traces = [rank_trace(source) for source in sources]
    assert [len(trace) for trace in traces] == [len(whole) // 2] * 2
    assert traces[1].meta.process == "rank-two"


def test_a_file_of_one_rank_is_read_whole(job_folder):
    opened = read_job_folder(job_folder, CancelToken(), lambda *_: None, workers=1)
    rows = opened.overview.rows
    sources = [opened.source_of(row) for row in rows]
    assert [(s.path, s.process) for s in sources] == [(str(row.file), None) for row in rows]

"""A file overlapviz refuses is refused in Simplified Chinese, whichever process reads it.

The reasons are the readers' (an Nsight export, a PyTorch profiler trace, a report or a CSV
export opened by mistake, the safe reader's limits) and, for a large Kineto trace or a job's
ranks, those of the helper and worker processes that read beside the program: a spawned
process starts in the environment's language, so each is handed the one chosen.
"""

import gzip
import json
import sqlite3

import pytest

from overlapviz.core.files.trace_export import CSV_HEADER
from overlapviz.core.files.trace_format import TraceFormatError
from overlapviz.core.i18n import set_language
from overlapviz.importers import kineto, kineto_parallel
from overlapviz.importers.kineto import KinetoFormatError, read_kineto
from overlapviz.importers.other_files import NSYS_REPORT_MAGIC
from overlapviz.importers.read import read_trace_file
from overlapviz.importers.untrusted_sqlite import SQLITE_MAGIC
from overlapviz.job.pool import map_local
from overlapviz.job.summary import RankProblem
from overlapviz.job.worker import RankSource


def kernel(**changes):
    """A Kineto kernel event, `changes` applied."""
    event = {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 10.5, "dur": 2.25,
             "args": {"device": 0, "stream": 7, "correlation": 3}}  # fmt: skip
    return {**event, **changes}


def kineto_trace(*events):
    return json.dumps({"schemaVersion": 1, "traceEvents": list(events)}).encode()


def refusal(path) -> str:
    with pytest.raises(TraceFormatError) as caught:
        read_trace_file(path)
    return str(caught.value)


@pytest.fixture
def chinese():
    set_language("zh_CN")  # tests/i18n/conftest.py speaks English again after each test


def test_a_file_that_is_not_json_is_refused_in_chinese(tmp_path, chinese):
    path = tmp_path / "notes.json"
    path.write_text("these are notes, not a trace")
    assert "不是 JSON 文件" in refusal(path)


def test_a_damaged_nsight_export_is_refused_in_chinese(tmp_path, chinese):
    path = tmp_path / "export.sqlite"
    path.write_bytes(SQLITE_MAGIC + b"\x00" * 200)
    said = refusal(path)
    assert "已损坏，或不是 SQLite 数据库" in said and "damaged or not" not in said


def test_a_database_that_is_no_nsight_export_is_refused_in_chinese(tmp_path, chinese):
    path = tmp_path / "other.sqlite"
    with sqlite3.connect(path) as database:
        database.execute("CREATE TABLE notes (text TEXT)")
    database.close()
    said = refusal(path)
    assert "不是含 CUDA 活动的 Nsight Systems 导出" in said and "CUPTI_ACTIVITY_KIND_KERNEL" in said


def test_an_nsight_report_says_in_chinese_how_to_export_it(tmp_path, chinese):
    path = tmp_path / "run.nsys-rep"
    path.write_bytes(NSYS_REPORT_MAGIC + b" and the report's own bytes")
    said = refusal(path)
    assert "这是 Nsight Systems 报告" in said and "nsys export --type sqlite run.nsys-rep" in said


def test_a_csv_export_is_refused_in_chinese(tmp_path, chinese):
    path = tmp_path / "spans.csv"
    path.write_text(",".join(CSV_HEADER) + "\n")
    assert "overlapviz 导出的 CSV" in refusal(path)


def test_a_profile_without_device_work_is_refused_in_chinese(tmp_path, chinese):
    path = tmp_path / "host_only.json"
    host_op = {"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 1, "tid": 1, "ts": 1.0, "dur": 2.0}
    path.write_bytes(kineto_trace(host_op))
    assert "没有可显示的拷贝、memset 或内核" in refusal(path)


def test_a_bad_kineto_event_is_named_in_chinese(tmp_path, chinese):
    path = tmp_path / "bad.json"
    path.write_bytes(kineto_trace(kernel(), kernel(dur=-1)))
    said = refusal(path)
    assert "事件 1" in said and "其 dur 为负" in said


def test_a_gzip_bomb_is_refused_in_chinese(tmp_path, chinese, monkeypatch):
    monkeypatch.setenv("OVERLAPVIZ_MAX_INPUT_BYTES", "1000")
    path = tmp_path / "bomb.json.gz"
    path.write_bytes(gzip.compress(b" " * 100_000))
    with pytest.raises(OSError) as caught:
        read_trace_file(path)
    assert "解压后超过了输入文件 1000 字节的上限" in str(caught.value)


def test_a_name_with_a_nul_is_refused_in_chinese(tmp_path, chinese):
    with pytest.raises(OSError) as caught:
        read_trace_file(tmp_path / "a\0b.json")
    assert "NUL 字符" in str(caught.value)


def test_the_kineto_helper_processes_name_a_bad_event_in_chinese(monkeypatch, chinese):
    monkeypatch.setattr(kineto_parallel, "usable_cores", lambda: 3)  # two helpers, whatever this machine has
    monkeypatch.setattr(kineto_parallel, "_others_running", lambda: 0)
    monkeypatch.setattr(kineto, "BATCH_EVENTS", 2)  # six batches: the last run is a helper's
    # events not laid out as usual: decoded whole, then built into rows by the helpers, whose word is final
    monkeypatch.setattr(kineto, "cut_events", lambda raw, batch_bytes: None)
    events = [kernel(name=f"k{number}") for number in range(12)]
    events[11] = kernel(dur=-1)
    with pytest.raises(KinetoFormatError) as caught:
        read_kineto(kineto_trace(*events), "bad.json", parallel_min_bytes=0)
    said = str(caught.value)
    assert "事件 11" in said and "为负" in said and "negative" not in said


def test_the_rank_workers_speak_the_language_chosen(tmp_path, chinese):
    sources = [RankSource(str(tmp_path / f"rank-{rank}.json")) for rank in range(2)]  # files no worker sees
    problems = map_local(sources, workers=2)  # two spawned processes
    assert all(isinstance(problem, RankProblem) for problem in problems)
    assert all("看不到该文件" in problem.message for problem in problems), [p.message for p in problems]

"""Large files read and written in a child process, and file problems in words that name the file once."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from qt_traces import long_trace

from overlapviz._qt.files import child_process
from overlapviz._qt.files.child_process import ChildRefusedError, read_in_child, write_file, write_in_child
from overlapviz.app.file_problems import problem_of
from overlapviz.app.session_file import SessionData, open_file, save_session
from overlapviz.core.cancel import CancelToken
from overlapviz.core.config import PipelineConfig
from overlapviz.core.files.safe_read import InputFileError
from overlapviz.core.files.trace_export import export_chrome, export_csv
from overlapviz.core.files.write_destination import DestinationError
from overlapviz.core.run_errors import RunCancelled

ROOT = Path(__file__).resolve().parents[3]


def _same(a, b):
    assert a.names == b.names and a.meta == b.meta
    for column in a.columns:
        assert (a[column] == b[column]).all(), column


def test_a_session_read_in_a_child_is_exactly_the_file(tmp_path):
    path = tmp_path / "s.json"
    data = SessionData(PipelineConfig(chunks=8), long_trace(64), "sim", "h200")
    save_session(path, data)
    read = read_in_child(path, CancelToken())
    assert (read.config, read.backend, read.device) == (data.config, "sim", "h200")
    _same(read.trace, data.trace)


def test_a_file_the_child_cannot_read_is_refused_with_the_reason_alone(tmp_path):
    path = tmp_path / "notes.json"
    path.write_text("{")
    with pytest.raises(ChildRefusedError) as refused:
        read_in_child(path, CancelToken())
    assert "not a JSON file" in str(refused.value) and str(path) not in str(refused.value)


def test_a_cancelled_read_stops_the_child(tmp_path):
    path = tmp_path / "s.json"
    save_session(path, SessionData(None, long_trace(64)))
    cancel = CancelToken()
    cancel.cancel()
    with pytest.raises(RunCancelled):
        read_in_child(path, cancel)


@pytest.mark.parametrize("kind", ["chrome", "csv", "session"])
def test_a_long_trace_is_written_in_a_child_exactly_as_here(kind, tmp_path, monkeypatch):
    trace = long_trace(256)
    data = SessionData(PipelineConfig(), trace, "sim", "h200")
    here, there = tmp_path / f"here.{kind}", tmp_path / f"there.{kind}"
    {"chrome": lambda: export_chrome(trace, here), "csv": lambda: export_csv(trace, here),
     "session": lambda: save_session(here, data)}[kind]()  # fmt: skip
    monkeypatch.setattr(child_process, "IN_THREAD_MAX_ROWS", 10)
    calls = []
    monkeypatch.setattr(child_process, "write_in_child", lambda *args: calls.append(args) or write_in_child(*args))
    write_file(kind, there, data, CancelToken())
    assert len(calls) == 1  # it went to the child
    assert there.read_bytes() == here.read_bytes()


def test_a_write_the_child_cannot_make_is_refused_naming_nothing_twice(tmp_path):
    target = tmp_path / "no-such-folder" / "t.json"
    with pytest.raises(ChildRefusedError) as refused:
        write_in_child("chrome", target, SessionData(None, long_trace(8)), CancelToken())
    assert str(refused.value) == "No such file or directory"  # the reason; the window names the file
    assert not target.parent.exists()


def test_problems_lose_the_path_they_name(tmp_path):
    path = tmp_path / "x.json"
    assert problem_of(InputFileError(None, "it is a folder; overlapviz reads regular files only", str(path)), path) == (
        "it is a folder; overlapviz reads regular files only"
    )
    assert problem_of(DestinationError(None, "it is a named pipe", str(path)), path) == "it is a named pipe"
    assert problem_of(OSError(f"cannot write {path}: disk full"), path) == "disk full"
    assert problem_of(ValueError(f"{path}: not a JSON file (line 1)"), path) == "not a JSON file (line 1)"
    assert problem_of(ValueError("bogus: unknown setting"), path) == "bogus: unknown setting"
    path.write_text(json.dumps({"hello": 1}))
    with pytest.raises(ValueError) as error:
        open_file(path)
    assert str(path) not in problem_of(error.value, path)


def test_the_prepared_view_and_the_file_reader_load_no_qt():
    code = (
        "import sys, overlapviz.view.prepared, overlapviz._qt.files.file_loading, overlapviz._qt.files.child_process;"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in {'PySide6', 'pyqtgraph', 'shiboken6', 'superqt'}))"
    )
    found = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert found.stdout.strip() == "[]"

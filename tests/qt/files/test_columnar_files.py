"""The app's columnar files: saved and exported under .ovz, opened by content, here or in a child process."""

import pytest
from file_waits import open_and_wait, write_and_wait
from qt_traces import long_trace, two_chunk_trace

from overlapviz._qt.files import child_process
from overlapviz._qt.files.child_process import read_in_child, write_file, write_in_child
from overlapviz.app.session_file import SessionData, open_file, save_session
from overlapviz.core.cancel import CancelToken
from overlapviz.core.config import PipelineConfig
from overlapviz.core.files.columnar_write import export_columnar
from overlapviz.core.files.trace_export import export_chrome


def _same(a, b):
    assert a.names == b.names and a.meta == b.meta
    for column in a.columns:
        assert (a[column] == b[column]).all(), column


@pytest.mark.parametrize("kind", ["chrome", "session"])
def test_a_long_trace_written_in_a_child_as_columns_is_the_same_file(kind, tmp_path, monkeypatch):
    data = SessionData(PipelineConfig(chunks=8), long_trace(256), "sim", "h200")
    here, there = tmp_path / "here.ovz", tmp_path / "there.ovz"
    export_columnar(data.trace, here) if kind == "chrome" else save_session(here, data)
    monkeypatch.setattr(child_process, "IN_THREAD_MAX_ROWS", 10)
    calls = []
    monkeypatch.setattr(child_process, "write_in_child", lambda *args: calls.append(args) or write_in_child(*args))
    write_file(kind, there, data, CancelToken())
    assert len(calls) == 1 and there.read_bytes() == here.read_bytes()
    assert there.read_bytes().startswith(b"PK\x03\x04")
    read = read_in_child(there, CancelToken())
    _same(read.trace, data.trace)
    if kind == "session":
        assert (read.config, read.backend, read.device) == (data.config, "sim", "h200")


def test_a_json_name_still_gets_chrome_json(tmp_path):
    trace = two_chunk_trace()
    write_file("chrome", tmp_path / "t.json", SessionData(None, trace), CancelToken())
    export_chrome(trace, tmp_path / "same.json")
    assert (tmp_path / "t.json").read_bytes() == (tmp_path / "same.json").read_bytes()


def test_the_window_saves_a_session_as_columns_and_opens_it(window, qtbot, tmp_path):
    path = tmp_path / "s.ovz"
    export_columnar(two_chunk_trace(), tmp_path / "t.ovz")
    assert open_and_wait(qtbot, window, tmp_path / "t.ovz")
    assert write_and_wait(qtbot, window, lambda: window.files.save_session(path))
    assert write_and_wait(qtbot, window, lambda: window.files.export_trace(tmp_path / "e.ovz"))
    _same(open_file(tmp_path / "e.ovz").trace, two_chunk_trace())
    saved = open_file(path)
    _same(saved.trace, two_chunk_trace())
    assert open_and_wait(qtbot, window, path)
    _same(window.current_trace(), two_chunk_trace())
    assert window.banner.message() == ""

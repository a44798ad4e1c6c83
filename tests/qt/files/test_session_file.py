import json

import pytest
from qt_traces import two_chunk_trace

from overlapviz.app.session_file import SessionData, SessionFormatError, open_file, save_session
from overlapviz.core.config import PipelineConfig
from overlapviz.core.files.trace_export import export_chrome


def _same_trace(a, b):
    assert a.names == b.names and a.meta == b.meta
    for column in a.columns:
        assert (a[column] == b[column]).all(), column


def test_session_round_trip(tmp_path):
    trace = two_chunk_trace()
    config = PipelineConfig(chunks=8, streams=3, memory="pageable")
    path = tmp_path / "s.json"
    save_session(path, SessionData(config, trace, "sim", "h200"))
    loaded = open_file(path)
    assert loaded.config == config and (loaded.backend, loaded.device) == ("sim", "h200")
    _same_trace(loaded.trace, trace)


def test_a_session_without_a_trace(tmp_path):
    path = tmp_path / "s.json"
    save_session(path, SessionData(PipelineConfig(), None))
    assert open_file(path).trace is None


def test_a_chrome_trace_opens_with_its_config(tmp_path):
    trace = two_chunk_trace()
    path = tmp_path / "t.json"
    export_chrome(trace, path)
    loaded = open_file(path)
    assert loaded.config == PipelineConfig.from_dict(trace.meta.config)
    assert (loaded.backend, loaded.device) == ("test", "test-gpu")
    _same_trace(loaded.trace, trace)


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ("not json", "not a JSON file"),
        ('{"overlapviz_session": 7}', "session format 7"),
        ('{"overlapviz_session": 1, "config": {"chunks": 0}}', "chunks"),
        ('{"traceEvents": []}', "overlapviz"),
        ("[1, 2]", "plain array"),
    ],
)
def test_bad_files_say_what_is_wrong(tmp_path, content, words):
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(SessionFormatError, match=words) as caught:
        open_file(path)
    assert "bad.json" in str(caught.value)


def test_a_failed_save_leaves_the_old_file(tmp_path, monkeypatch):
    path = tmp_path / "s.json"
    save_session(path, SessionData(PipelineConfig(), None))
    before = path.read_text()

    def fail(*_args):
        raise TypeError("boom")

    monkeypatch.setattr("overlapviz.core.files.session_document.chrome_dict", fail)
    with pytest.raises(TypeError):
        save_session(path, SessionData(PipelineConfig(chunks=2), two_chunk_trace()))
    assert path.read_text() == before and json.loads(before)["config"]["chunks"] == 16
    assert [p.name for p in tmp_path.iterdir()] == ["s.json"]


def test_another_tools_traces_open_without_settings():
    from pathlib import Path

    from overlapviz.app.session_file import open_file

    data_dir = Path(__file__).resolve().parents[2] / "data"
    torch = open_file(data_dir / "torch" / "torch-pinned.json.gz")
    assert torch.config is None and torch.trace is not None and torch.trace.meta.tool == "PyTorch profiler"
    nsys = open_file(data_dir / "nsys" / "mordred-2021-no-enums.sqlite.gz")
    assert nsys.config is None and nsys.trace is not None and nsys.trace.meta.tool == "Nsight Systems"

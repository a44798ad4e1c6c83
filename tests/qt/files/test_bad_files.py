"""File > Open with bad files: each is explained in the window, and a failed open changes nothing.

Every file is a real trace from assets/traces (or a session made of one) with one thing
broken, opened after a good run in live mode. The window must say what is wrong (naming the
file once), raise nothing (pytest-qt fails a test on an exception in a Qt slot; stderr is
checked too), and keep the controls, live mode, the device and the timeline as they were.
"""

from __future__ import annotations

import copy
import gzip
import json
import os
from pathlib import Path

import pytest
from file_waits import open_and_wait
from teaching_helpers import make_window_fixture, run_and_wait  # noqa: F401 (the make_window fixture)

from overlapviz._qt.files import file_loading
from overlapviz.core.config import PipelineConfig
from overlapviz.core.files.trace_import import import_chrome

ASSET = Path(__file__).resolve().parents[3] / "assets" / "traces" / "h200-default-pinned.json"


def _asset() -> dict:
    return json.loads(ASSET.read_text())


def _with_meta(change):
    document = _asset()
    change(document["otherData"]["meta"])
    return json.dumps(document)


def _first_span(document: dict) -> dict:
    return next(event for event in document["traceEvents"] if event.get("ph") == "X" and "row" in event["args"])


def _event_name_an_object() -> str:
    document = _asset()
    _first_span(document)["name"] = {"an": "object"}
    return json.dumps(document)


def _start_of_2_pow_63() -> str:
    document = _asset()
    _first_span(document)["args"]["start_ns"] = 2**63
    return json.dumps(document)


def _session_with_unknown_setting() -> str:
    config = {**PipelineConfig().to_dict(), "turbo": True}
    return json.dumps(
        {"overlapviz_session": 1, "config": config, "backend": "sim", "device": "h200", "trace": _asset()}
    )


def _truncated_gzip() -> bytes:
    packed = gzip.compress(ASSET.read_bytes())
    return packed[: len(packed) // 2]


def _make(kind: str, folder: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The bad file of `kind` in `folder`."""
    path = folder / f"{kind}.json"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    elif kind == "over-the-size-cap":
        path.write_bytes(ASSET.read_bytes())
        monkeypatch.setenv("OVERLAPVIZ_MAX_INPUT_BYTES", "1000")
    elif kind == "truncated-gzip":
        path.write_bytes(_truncated_gzip())
    else:
        path.write_text(TEXTS[kind]())
    return path


TEXTS = {
    "not-json": lambda: "this is not JSON {",
    "nested-100000-deep": lambda: "[" * 100_000 + "]" * 100_000,
    "device-facts-abc": lambda: _with_meta(lambda meta: meta.__setitem__("device_facts", "abc")),
    "copy-engines-null": lambda: _with_meta(lambda meta: meta["device_facts"].__setitem__("copy_engines", None)),
    "2-mb-device-name": lambda: _with_meta(lambda meta: meta.__setitem__("device_name", "x" * 2_000_000)),
    "event-name-an-object": _event_name_an_object,
    "int-of-2-pow-63": _start_of_2_pow_63,
    "session-unknown-setting": _session_with_unknown_setting,
}

WHY = {
    "not-json": "not a JSON file",
    "nested-100000-deep": "nested too deeply",
    "fifo": "named pipe",
    "folder": "it is a folder",
    "over-the-size-cap": "larger than the limit of 1000 bytes",
    "device-facts-abc": "meta.device_facts is not an object: 'abc'",
    "copy-engines-null": "meta.device_facts.copy_engines is None",
    "2-mb-device-name": "meta.device_name is 2,000,000 characters long",
    "event-name-an-object": "its name is not text",
    "int-of-2-pow-63": "args.start_ns 9223372036854775808 is out of range",
    "session-unknown-setting": "turbo: unknown setting",
    "truncated-gzip": "not valid gzip",
}


def _state(window):
    """Everything a failed open must leave as it was."""
    shown = window.shown()
    return {
        "config": window.controls.config(),
        "live": window.controls.is_live(),
        "target": window.controls.target(),
        "shown": shown,
        "timeline view": window.timeline.view,
        "status": window.status_label.text(),
        "makespan": window.metrics.value_text("makespan"),
    }


@pytest.fixture
def live_window(make_window, qtbot):
    window = make_window(live=True)
    qtbot.waitUntil(lambda: window.shown() is not None, timeout=10_000)
    run_and_wait(qtbot, window, PipelineConfig(chunks=8, streams=2))
    return window


@pytest.mark.parametrize("kind", list(WHY))
def test_a_bad_file_is_explained_in_the_window_and_changes_nothing(
    kind, live_window, qtbot, tmp_path, monkeypatch, capfd
):
    window = live_window
    path = _make(kind, tmp_path, monkeypatch)
    before = _state(window)
    assert before["live"] and before["shown"] is not None
    assert not open_and_wait(qtbot, window, path)
    message = window.banner.message()
    assert message.startswith(f"Could not open {path.name}: "), message
    assert WHY[kind] in message, message
    assert message.count(path.name) == 1 and str(path.parent) not in message  # the file named once
    assert "\n" not in message and len(message) < 400
    after = _state(window)
    for key, value in before.items():
        assert after[key] == value if key in ("config", "live", "target", "status", "makespan") else after[key] is value
    assert window.current_trace() is before["shown"].result.trace
    assert "Traceback" not in capfd.readouterr().err


def test_a_good_file_after_a_bad_one_opens(live_window, qtbot, tmp_path):
    window = live_window
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    assert not open_and_wait(qtbot, window, bad)
    assert open_and_wait(qtbot, window, ASSET)
    assert window.banner.message() == ""
    assert not window.controls.is_live()  # opened: live mode off so that the file stays on show
    assert window.current_trace().meta.device_name == "NVIDIA H200"
    assert window.timeline.view is window.shown().view


def test_a_large_file_is_read_in_a_child_process_exactly(live_window, qtbot, tmp_path, monkeypatch):
    window = live_window
    monkeypatch.setattr(file_loading, "IN_THREAD_MAX_BYTES", 1024)
    assert file_loading.reads_in_child(ASSET)
    assert open_and_wait(qtbot, window, ASSET)
    opened, expected = window.current_trace(), import_chrome(ASSET)
    assert opened.names == expected.names and opened.meta == expected.meta
    for column in expected.columns:
        assert (opened[column] == expected[column]).all(), column
    bad = tmp_path / "bad.json"
    bad.write_text(_with_meta(lambda meta: meta.__setitem__("device_facts", "abc")))
    assert not open_and_wait(qtbot, window, bad)
    assert window.banner.message() == "Could not open bad.json: meta.device_facts is not an object: 'abc'"
    assert window.current_trace() is opened


def test_a_gzip_file_counts_as_large_by_what_it_unpacks_to(tmp_path, monkeypatch):
    packed = tmp_path / "trace.json.gz"
    packed.write_bytes(gzip.compress(ASSET.read_bytes()))
    monkeypatch.setattr(file_loading, "IN_THREAD_MAX_BYTES", packed.stat().st_size * 2)
    assert file_loading.reads_in_child(packed)
    plain = tmp_path / "trace.json"
    plain.write_bytes(ASSET.read_bytes()[: packed.stat().st_size])
    assert not file_loading.reads_in_child(plain)
    os.mkfifo(tmp_path / "pipe")
    assert not file_loading.reads_in_child(tmp_path / "pipe")  # never opened: the thread refuses it


def test_a_newer_open_replaces_one_still_reading(live_window, qtbot, tmp_path):
    window = live_window
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    first.write_text(json.dumps(_asset()))
    document = copy.deepcopy(_asset())
    document["otherData"]["meta"]["device_name"] = "The second GPU"
    second.write_text(json.dumps(document))
    finished = []
    window.files.open_finished.connect(finished.append)
    assert window.files.open(first) and window.files.open(second)
    qtbot.waitUntil(lambda: bool(finished), timeout=10_000)
    qtbot.wait(100)  # the first open, had it not been dropped, would report by now too
    assert finished == [True]
    assert window.current_trace().meta.device_name == "The second GPU"


def test_a_columnar_file_is_read_beside_the_window_unless_too_large_to_hold_twice(tmp_path, monkeypatch):
    from overlapviz.core.files.columnar_write import export_columnar

    columns = tmp_path / "trace.ovz"
    export_columnar(import_chrome(ASSET), columns)
    monkeypatch.setattr(file_loading, "IN_THREAD_MAX_BYTES", 1024)  # far smaller than the file
    assert not file_loading.reads_in_child(columns)  # columns are checked in place, not parsed
    monkeypatch.setattr(file_loading, "machine_memory_bytes", lambda: columns.stat().st_size)
    assert file_loading.reads_in_child(columns)

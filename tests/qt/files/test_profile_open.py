"""``overlapviz profile --open``: the recording written, then shown in the app; no display: one line, exit 2."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from types import ModuleType

import pytest
from file_waits import FILE_TIMEOUT_MS

import overlapviz._qt.app as qt_app
from overlapviz._qt.app import start_window
from overlapviz.commands.main import main
from overlapviz.importers.read import read_trace_file
from tests.backends.cupy.test_recording import fake_gpu, issue_loop

HOOK = "overlapviz_profile_open_gpu"


@pytest.fixture
def loop(tmp_path, monkeypatch):
    """A script whose GPU work is the fake GPU's pipeline records."""
    fake = fake_gpu(monkeypatch)
    hook = ModuleType(HOOK)
    hook.work = lambda: issue_loop(fake)
    monkeypatch.setitem(sys.modules, HOOK, hook)
    path = tmp_path / "loop.py"
    path.write_text(f"import sys\nsys.modules[{HOOK!r}].work()\n")
    return path


def test_open_writes_the_recording_then_shows_that_file(tmp_path, monkeypatch, capsys, loop):
    shown = []
    monkeypatch.setattr(qt_app, "main", lambda path: shown.append(path) or 0)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    assert main(["profile", "--open", str(loop)]) == 0
    written = tmp_path / "overlapviz-profile-loop.json"
    assert shown == [written]
    assert int(read_trace_file(written).device_mask.sum()) == 12
    assert f"wrote      {written}" in capsys.readouterr().out


def test_open_shows_the_file_out_names(tmp_path, monkeypatch, loop):
    shown = []
    monkeypatch.setattr(qt_app, "main", lambda path: shown.append(path) or 0)
    out = tmp_path / "mine.json"
    assert main(["profile", "--open", "--out", str(out), str(loop)]) == 0
    assert shown == [out] and out.is_file()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="display detection is for Linux")
def test_without_a_display_open_says_so_after_writing_the_trace(tmp_path, monkeypatch, capsys, loop):
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        monkeypatch.delenv(name, raising=False)
    out = tmp_path / "trace.json"
    assert main(["profile", "--open", "--out", str(out), str(loop)]) == 2
    captured = capsys.readouterr()
    assert f"wrote      {out}" in captured.out and out.is_file()
    assert captured.err.splitlines() == [
        f"overlapviz: error: no display (no DISPLAY, WAYLAND_DISPLAY or QT_QPA_PLATFORM) to show {out} on;"
        " open it where there is one with File \u25b8 Open, or draw it with 'overlapviz render'"
    ]


def test_the_apps_window_opens_on_the_file_it_is_given(qtbot, settings):
    path = Path(__file__).parents[2] / "data" / "torch" / "torch-pinned.json.gz"
    window = start_window(path, settings)
    qtbot.addWidget(window)
    qtbot.waitUntil(lambda: window.model.shown is not None, timeout=FILE_TIMEOUT_MS)
    assert window.model.shown.source == path and not window.model.live
    assert "Opened torch-pinned.json.gz" in window.status_label.text()
    window.shutdown()

import json
import re
import shutil
from fnmatch import fnmatchcase
from pathlib import Path

import pytest
from file_waits import open_and_wait, write_and_wait
from PySide6.QtGui import QImage
from qt_traces import two_chunk_trace

from overlapviz._qt.export.export_view import ExportOptions
from overlapviz._qt.files.export_folder import EXPORT_FOLDER_KEY, ExportFolder
from overlapviz._qt.files.path_dialogs import OPEN_FILTER
from overlapviz._qt.main_window import MainWindow
from overlapviz.core.config import PipelineConfig
from overlapviz.core.files.trace_export import export_chrome


def test_save_and_reopen_a_session(window, qtbot, tmp_path):
    path = tmp_path / "lesson.json"
    window.model.set_config(PipelineConfig(chunks=8, streams=2, memory="pageable"))
    window.controls.run_button.click()
    qtbot.waitUntil(lambda: window.shown().result.trace.meta.config["chunks"] == 8, timeout=10_000)
    saved = window.shown().result.trace
    assert write_and_wait(qtbot, window, lambda: window.files.save_session(path))
    window.model.set_config(PipelineConfig())
    assert open_and_wait(qtbot, window, path)
    assert not window.controls.is_live()
    assert window.controls.config() == PipelineConfig(chunks=8, streams=2, memory="pageable")
    assert (window.current_trace()["end_ns"] == saved["end_ns"]).all()
    assert "Opened lesson.json" in window.status_label.text()


def test_open_a_chrome_trace_from_another_machine(window, qtbot, tmp_path):
    path = tmp_path / "gpu-server.json"
    export_chrome(two_chunk_trace(), path)
    assert open_and_wait(qtbot, window, path)
    assert window.current_trace().meta.device_name == "Test GPU"
    assert window.metrics.value_text("makespan") == "4.00 ms"
    assert "Device: Test GPU" in window.status_label.text()
    recent = window.window_actions.recent_menu.actions()
    assert [a.text() for a in recent] == [str(path.resolve())]


def test_a_file_that_cannot_be_read_is_explained_and_changes_nothing(window, qtbot, tmp_path):
    shown = window.current_trace()
    path = tmp_path / "notes.json"
    path.write_text(json.dumps({"hello": 1}))
    assert not open_and_wait(qtbot, window, path)
    assert window.banner.message().startswith("Could not open notes.json: ")
    assert "traceEvents" in window.banner.message()
    assert window.current_trace() is shown
    assert not open_and_wait(qtbot, window, tmp_path / "missing.json")
    assert window.banner.message() == "Could not open missing.json: No such file or directory"


def test_recent_files_survive_a_restart(window, qtbot, settings, tmp_path):
    path = tmp_path / "t.json"
    export_chrome(two_chunk_trace(), path)
    assert open_and_wait(qtbot, window, path)
    again = MainWindow(settings, live=False)
    qtbot.addWidget(again)
    assert [a.text() for a in again.window_actions.recent_menu.actions()] == [str(path.resolve())]
    with qtbot.waitSignal(again.files.open_finished, timeout=10_000):
        again.window_actions.recent_menu.actions()[0].trigger()
    assert again.current_trace().meta.device_name == "Test GPU"


def test_exports_from_the_window(window, qtbot, tmp_path):
    png, svg, chrome, csv = (tmp_path / n for n in ("t.png", "t.svg", "t.json", "t.csv"))
    assert write_and_wait(qtbot, window, lambda: window.files.export_png(png, ExportOptions(width=1920)))
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert write_and_wait(qtbot, window, lambda: window.files.export_svg(svg, ExportOptions()))
    assert "<svg" in svg.read_text()
    assert write_and_wait(qtbot, window, lambda: window.files.export_trace(chrome))
    assert json.loads(chrome.read_text())["otherData"]["overlapviz"] >= 1
    assert write_and_wait(qtbot, window, lambda: window.files.export_csv(csv))
    assert csv.read_text().startswith("row,")
    assert window.banner.message() == ""


def test_export_png_asks_for_options_and_a_path(window, qtbot, tmp_path, monkeypatch):
    target = tmp_path / "asked.png"
    window.files.ask_export_options = lambda: ExportOptions(width=3840, theme="dark")
    monkeypatch.setattr(window.files.dialogs, "save_path", lambda *_args: target)
    with qtbot.waitSignal(window.files.write_finished, timeout=10_000):
        window.window_actions.export_png.trigger()
    assert target.is_file()


def test_svg_asks_as_png_does_and_both_offer_the_last_export_folder(window, qtbot, tmp_path, monkeypatch, settings):
    pictures, talks = tmp_path / "Pictures", tmp_path / "talks"
    pictures.mkdir()
    talks.mkdir()
    monkeypatch.chdir(tmp_path)  # a source checkout, say: never offered
    window.files.export_folder = ExportFolder(settings, lambda: [pictures, tmp_path / "home"])
    asked, offered = [], []
    window.files.ask_export_options = lambda: asked.append("asked") or ExportOptions(width=1920, height=1080)

    def save_path(title, filters, suggested):
        offered.append(Path(suggested))
        return talks / f"slide.{filters.split('*.')[1][:3]}"

    monkeypatch.setattr(window.files.dialogs, "save_path", save_path)
    with qtbot.waitSignal(window.files.write_finished, timeout=10_000):
        window.window_actions.export_svg.trigger()
    assert asked == ["asked"] and offered == [pictures / "overlapviz-timeline.svg"]
    assert 'viewBox="0 0 1920 1080"' in (talks / "slide.svg").read_text()
    with qtbot.waitSignal(window.files.write_finished, timeout=10_000):
        window.window_actions.export_png.trigger()
    assert offered[1] == talks / "overlapviz-timeline.png"  # where the last picture went
    assert QImage(str(talks / "slide.png")).size().toTuple() == (1920, 1080)
    assert settings.value(EXPORT_FOLDER_KEY) == str(talks.resolve())


def test_cancelled_options_ask_for_no_path(window, monkeypatch):
    window.files.ask_export_options = lambda: None
    monkeypatch.setattr(window.files.dialogs, "save_path", lambda *_args: pytest.fail("asked for a path"))
    assert not window.files.export_svg() and not window.files.export_png()


def test_a_failed_write_is_explained_naming_the_file_once(window, qtbot, tmp_path):
    target = tmp_path / "no-such-folder" / "t.png"
    assert not write_and_wait(qtbot, window, lambda: window.files.export_png(target, ExportOptions()))
    message = window.banner.message()
    assert message.startswith("Could not write t.png: ")
    assert "cannot write" not in message and str(target) not in message


def test_copy_picture_puts_an_image_on_the_clipboard(window, qtbot, qapp):
    with qtbot.waitSignal(window.files.copy_finished, timeout=10_000) as blocker:
        assert window.files.copy_image()
    assert blocker.args == [True]
    assert qapp.clipboard().image().width() == 1920


def test_exports_without_a_timeline_say_so(qtbot, settings, tmp_path):
    window = MainWindow(settings, live=False)
    qtbot.addWidget(window)
    assert not window.files.export_png(tmp_path / "x.png", ExportOptions())
    assert "There is no timeline yet" in window.banner.message()
    assert not (tmp_path / "x.png").exists()


DATA = Path(__file__).resolve().parents[2] / "data"


def filter_patterns(filters):
    """Each entry of a Qt name filter (``Title (*.a *.b);;...``) as its title and patterns."""
    entries = [re.fullmatch(r"(.+) \(([^()]+)\)", entry) for entry in filters.split(";;")]
    return {entry[1]: entry[2].split() for entry in entries}


def test_open_and_compare_offer_every_kind_of_file_the_app_reads(window, monkeypatch):
    asked = []
    monkeypatch.setattr(window.files.dialogs, "open_path", lambda title, filters: asked.append(filters))
    assert not window.files.open()
    assert not window.compare_with_file()
    assert asked == [OPEN_FILTER, OPEN_FILTER]
    entries = filter_patterns(OPEN_FILTER)
    first, *kinds = entries
    assert kinds[-1] == "All files" and entries["All files"] == ["*"]
    written = {"overlapviz-session.json", "overlapviz-trace.json", "host_1.pt.trace.json", "report1.sqlite", "r.db"}
    names = {path.name for path in DATA.glob("*/*.gz")} | written  # the recorded files, and names tools give
    assert {"torch-pinned.json.gz", "mordred-2021-no-enums.sqlite.gz", "sim-pageable-0.2.0.json.gz"} <= names
    for name in names:
        assert any(fnmatchcase(name, pattern) for pattern in entries[first]), name
        assert any(fnmatchcase(name, p) for kind in kinds[:-1] for p in entries[kind]), name


def test_a_trace_under_any_name_opens_by_its_content(window, qtbot, tmp_path):
    path = tmp_path / "profile.bin"
    shutil.copyfile(DATA / "torch" / "torch-pinned.json.gz", path)
    assert open_and_wait(qtbot, window, path)
    assert window.current_trace().meta.tool == "PyTorch profiler"

"""Comparing files in the window, dropping files on it, and the time window of View ▸ Time window."""

from pathlib import Path

from file_waits import FILE_TIMEOUT_MS, open_and_wait
from PySide6.QtCore import QMimeData, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication
from teaching_helpers import make_window_fixture, run_and_wait  # noqa: F401 (the make_window fixture)

from overlapviz._qt.export.caption import caption_text
from overlapviz.app.aligning import first_device_ns

DATA = Path(__file__).parents[2] / "data"
PAGEABLE = DATA / "torch" / "torch-pageable.json.gz"
PINNED = DATA / "torch" / "torch-pinned.json.gz"
TRAIN_STEP = DATA / "torch" / "torch-train-step.json.gz"
NSYS = DATA / "nsys" / "test-cuda-2026.1-pinned-streams.sqlite.gz"


def _lined_up(window):
    pinned, shown = window.model.pinned, window.model.shown
    return (  # the file on show and one side moved: before that, the run alone on both sides also "lines up"
        pinned is not None
        and shown is not None
        and shown.source is not None
        and (pinned.shift_ns > 0 or shown.shift_ns > 0)
        and first_device_ns(pinned.view.trace) == first_device_ns(shown.view.trace)
    )


def _plain(label):
    return label.text().replace("\xa0", " ")


def _x_of_first_device_op(timeline, view):
    return timeline.map_to_widget(first_device_ns(view.trace) / 1e6, 0).x()


def test_compare_with_a_file_pins_the_run_and_lines_the_file_up_with_it(make_window, qtbot):
    window = make_window()
    run = run_and_wait(qtbot, window)
    with qtbot.waitSignal(window.files.open_finished, timeout=FILE_TIMEOUT_MS):
        assert window.compare_with_file(PAGEABLE)
    qtbot.waitUntil(lambda: _lined_up(window), timeout=FILE_TIMEOUT_MS)
    pinned, shown = window.model.pinned, window.model.shown
    assert pinned.a.result is run and pinned.shift_ns > 0 and shown.source == PAGEABLE
    panel = window.compare
    assert panel.timeline_a.view is pinned.view and window.timeline.view is shown.view
    assert _plain(panel.caption_b).startswith("B \u00b7 torch-pageable.json.gz: ")
    assert "recorded by PyTorch profiler" in _plain(panel.caption_b)
    assert "later, to start its device work with the other side" in _plain(panel.caption_a)
    # One time axis: the two first device ops are at one x.
    qtbot.waitUntil(lambda: panel.timeline_a.view_range_ms() == window.timeline.view_range_ms(), timeout=5_000)
    x_a = _x_of_first_device_op(panel.timeline_a, pinned.view)
    assert abs(x_a - _x_of_first_device_op(window.timeline, shown.view)) <= 1
    picture = window.current_picture()
    assert picture.views == (pinned.view, shown.view) and picture.shifts_ns == (pinned.shift_ns, 0)
    assert picture.labels == ("", "torch-pageable.json.gz")


def test_a_file_that_cannot_be_compared_leaves_the_window_as_it_was(make_window, qtbot, tmp_path):
    window = make_window()
    run_and_wait(qtbot, window)
    bad = tmp_path / "notes.json"
    bad.write_text("{}")
    with qtbot.waitSignal(window.files.open_finished, timeout=FILE_TIMEOUT_MS):
        assert window.compare_with_file(bad)
    assert window.model.pinned is None
    assert window.banner.message().startswith("Could not open notes.json: ")


def _drop(window, *urls):
    mime = QMimeData()
    mime.setUrls(list(urls))
    point = window.rect().center()
    enter = QDragEnterEvent(
        point, Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    )
    QApplication.sendEvent(window, enter)
    if not enter.isAccepted():
        return False
    drop = QDropEvent(
        point.toPointF(), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    )
    QApplication.sendEvent(window, drop)
    return drop.isAccepted()


def test_a_dropped_file_opens_as_file_open_opens_it(make_window, qtbot, tmp_path):
    window = make_window()
    with qtbot.waitSignal(window.files.open_finished, timeout=FILE_TIMEOUT_MS) as opened:
        assert _drop(window, QUrl.fromLocalFile(str(NSYS)))
    assert opened.args == [True] and window.model.shown.source == NSYS
    assert "Opened test-cuda-2026.1-pinned-streams.sqlite.gz" in window.status_label.text()
    # All or nothing: a dropped file that cannot be opened is said in the window and changes nothing.
    shown = window.model.shown
    bad = tmp_path / "broken.json.gz"
    bad.write_bytes(b"\x1f\x8b not gzip")
    with qtbot.waitSignal(window.files.open_finished, timeout=FILE_TIMEOUT_MS) as failed:
        assert _drop(window, QUrl.fromLocalFile(str(bad)))
    assert failed.args == [False] and window.model.shown is shown
    assert window.banner.message().startswith("Could not open broken.json.gz: ")


def test_what_is_not_a_file_is_not_taken_and_three_files_are_explained(make_window, qtbot):
    window = make_window()
    assert not _drop(window, QUrl("https://example.org/trace.json"))
    assert not _drop(window, QUrl.fromLocalFile(str(NSYS)), QUrl("https://example.org/trace.json"))
    assert _drop(window, *(QUrl.fromLocalFile(str(p)) for p in (PAGEABLE, PINNED, NSYS)))
    assert window.banner.message().startswith("3 files were dropped. Drop one trace or session file")
    assert window.model.shown is None or window.model.shown.source is None


def test_two_dropped_files_are_compared_the_first_as_a(make_window, qtbot):
    window = make_window()
    assert _drop(window, QUrl.fromLocalFile(str(PAGEABLE)), QUrl.fromLocalFile(str(PINNED)))
    qtbot.waitUntil(
        lambda: window.model.shown is not None and window.model.shown.source == PINNED, timeout=FILE_TIMEOUT_MS
    )
    qtbot.waitUntil(lambda: _lined_up(window), timeout=FILE_TIMEOUT_MS)
    pinned = window.model.pinned
    assert pinned.a.source == PAGEABLE and pinned.a.label == "torch-pageable.json.gz"
    assert _plain(window.compare.caption_a).startswith("A \u00b7 torch-pageable.json.gz: recorded by PyTorch")
    assert _plain(window.compare.caption_b).startswith("B \u00b7 torch-pinned.json.gz: recorded by PyTorch")


def _window_action(window, text):
    menu = window.window_actions.time_window_menu
    return next(a for a in menu.actions() if a.text() == text)


def test_a_named_range_from_the_menu_is_the_window_of_the_figures(make_window, qtbot):
    window = make_window()
    assert open_and_wait(qtbot, window, TRAIN_STEP)
    whole = window.model.shown.view
    menu = window.window_actions.time_window_menu
    names = [a.text() for a in menu.actions() if not a.isSeparator()]
    assert names[:2] == ["&Whole trace", "What the timeline &shows"] and "step 1" in names
    assert menu.isEnabled() and _window_action(window, "&Whole trace").isChecked()
    _window_action(window, "step 1").trigger()
    qtbot.waitUntil(lambda: window.model.time_window is not None, timeout=10_000)
    window_ = window.model.time_window
    shown = window.model.shown
    assert "Window: step 1, " in window.status_label.text()
    assert window.metrics.value_text("makespan") != ""
    assert shown.view.metrics.makespan_ns < whole.metrics.makespan_ns
    t0, t1 = window.timeline.view_range_ms()
    assert abs(t0 - window_.window.start_ns / 1e6) < 1e-6 and abs(t1 - window_.window.end_ns / 1e6) < 1e-6
    assert "window step 1, " in caption_text(shown.view.trace, shown.view.metrics).replace("\xa0", " ")
    assert _window_action(window, "step 1").isChecked()
    _window_action(window, "&Whole trace").trigger()
    assert window.model.shown.view is whole and "Window:" not in window.status_label.text()


def test_the_span_the_timeline_shows_can_be_the_window(make_window, qtbot):
    window = make_window()
    assert open_and_wait(qtbot, window, TRAIN_STEP)
    end = window.model.shown.view.end_ms
    window.timeline.set_view_range_ms(end / 2, end)
    _window_action(window, "What the timeline &shows").trigger()
    qtbot.waitUntil(lambda: window.model.time_window is not None, timeout=10_000)
    assert window.model.time_window.name == "" and "Window: " in window.status_label.text()
    run_and_wait(qtbot, window)
    assert window.model.time_window is None  # a new run starts whole
    window.controller.compare.pin_current()
    assert window.window_actions.time_window_menu.isEnabled()  # a window while comparing is of both sides

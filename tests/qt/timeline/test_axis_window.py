"""Dragging along the time axis to choose a time window: the band, the window, Esc, and the window of a comparison."""

from pathlib import Path

import pytest
from file_waits import FILE_TIMEOUT_MS, open_and_wait
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from teaching_helpers import make_window_fixture  # noqa: F401 (the make_window fixture)

from overlapviz._qt.export.caption import caption_text
from overlapviz._qt.help import shortcut_rows
from overlapviz._qt.timeline.axes import DRAG_TIP
from overlapviz._qt.timeline.time_window_band import CLICK_PX
from overlapviz.app.aligning import first_device_ns
from overlapviz.view.opening import opening_ms

DATA = Path(__file__).parents[2] / "data"
PAGEABLE = DATA / "torch" / "torch-pageable.json.gz"
PINNED = DATA / "torch" / "torch-pinned.json.gz"
TRAIN_STEP = DATA / "torch" / "torch-train-step.json.gz"
PX_MS_TOLERANCE = 2  # pixels of slack between where the mouse was and the time it chose
MOVE_GAP_MS = 25  # pyqtgraph drops mouse moves that follow each other faster than the screen refreshes


def _viewport(timeline):
    return timeline._plot.viewport()


def _at(timeline, t_ms):
    return _viewport(timeline).mapFrom(timeline, timeline.time_axis_point(t_ms))


def _ms_per_px(timeline):
    t0, t1 = timeline.view_range_ms()
    return (t1 - t0) / _viewport(timeline).width()


def _press_and_drag(qtbot, timeline, start, end, steps=8):
    viewport = _viewport(timeline)
    qtbot.mousePress(viewport, Qt.MouseButton.LeftButton, pos=start)
    for i in range(1, steps + 1):
        qtbot.wait(MOVE_GAP_MS)
        qtbot.mouseMove(viewport, start + (end - start) * i / steps)


def _release(qtbot, timeline, end):
    qtbot.mouseRelease(_viewport(timeline), Qt.MouseButton.LeftButton, pos=end)


def _drag(qtbot, timeline, t0_ms, t1_ms):
    start, end = _at(timeline, t0_ms), _at(timeline, t1_ms)
    _press_and_drag(qtbot, timeline, start, end)
    _release(qtbot, timeline, end)


@pytest.fixture
def opened(make_window, qtbot):
    window = make_window()
    assert open_and_wait(qtbot, window, TRAIN_STEP)
    qtbot.waitExposed(window)
    window.timeline.reset_view()  # the whole trace (it opens on its GPU work, from 3.2 ms): the times below are of it
    return window


def test_a_drag_on_the_axis_shows_a_band_with_its_times_then_the_window(opened, qtbot):
    window, timeline = opened, opened.timeline
    whole = window.model.shown.view
    start, end = _at(timeline, 3.0), _at(timeline, 7.0)
    _press_and_drag(qtbot, timeline, start, end)
    band = timeline.window_drag.band
    assert band.visible and window.model.time_window is None  # nothing chosen before the release
    t0, t1 = band.region.getRegion()
    tolerance = PX_MS_TOLERANCE * _ms_per_px(timeline)
    assert t0 == pytest.approx(3.0, abs=tolerance) and t1 == pytest.approx(7.0, abs=tolerance)
    assert band.label.toPlainText().startswith(f"{t0:.3f} to {t1:.3f} ms (")
    _release(qtbot, timeline, end)
    assert not band.visible
    qtbot.waitUntil(lambda: window.model.time_window is not None, timeout=10_000)
    chosen = window.model.time_window
    assert chosen.name == "" and chosen.window.start_ns / 1e6 == pytest.approx(3.0, abs=tolerance)
    shown = window.model.shown
    assert shown.whole is whole and shown.view.metrics.makespan_ns < whole.metrics.makespan_ns
    assert window.metrics.value_text("makespan") != ""
    assert f"Window: {chosen.describe()}" in window.status_label.text()
    assert f"window {chosen.describe()}" in caption_text(shown.view.trace, shown.view.metrics).replace("\xa0", " ")
    v0, v1 = timeline.view_range_ms()  # the timeline shows the window, cut at its edges
    assert v0 == pytest.approx(chosen.window.start_ns / 1e6) and v1 == pytest.approx(chosen.window.end_ns / 1e6)
    assert window.controller.runs.history.can_undo is False  # a window is no step of undo, as from the list


def test_esc_puts_the_whole_trace_back_and_drops_a_drag_in_progress(opened, qtbot):
    window, timeline = opened, opened.timeline
    whole = window.model.shown.view
    _drag(qtbot, timeline, 2.0, 6.0)
    qtbot.waitUntil(lambda: window.model.time_window is not None, timeout=10_000)
    QTest.keyClick(window, Qt.Key.Key_Escape)
    assert window.model.shown.view is whole and "Window:" not in window.status_label.text()
    assert timeline.view_range_ms() == pytest.approx(opening_ms(whole.trace))  # whole, as it opens
    timeline.reset_view()
    start, end = _at(timeline, 2.0), _at(timeline, 6.0)
    _press_and_drag(qtbot, timeline, start, end)
    assert timeline.window_drag.band.visible
    QTest.keyClick(window, Qt.Key.Key_Escape)
    assert not timeline.window_drag.band.visible
    _release(qtbot, timeline, end)
    qtbot.wait(200)  # time for a cut, had one been asked for
    assert window.model.shown.view is whole and window.model.time_window is None


def test_a_drag_of_a_few_pixels_is_a_click_and_changes_nothing(opened, qtbot):
    window, timeline = opened, opened.timeline
    shown = window.model.shown
    start = _at(timeline, 4.0)
    for held_s in (0.0, 0.6):  # pyqtgraph starts a drag after 0.5 s held, however short the move
        qtbot.mousePress(_viewport(timeline), Qt.MouseButton.LeftButton, pos=start)
        qtbot.wait(int(held_s * 1000))
        end = start + QPoint(CLICK_PX - 1, 0)
        qtbot.wait(MOVE_GAP_MS)
        qtbot.mouseMove(_viewport(timeline), end)
        assert not timeline.window_drag.band.visible
        _release(qtbot, timeline, end)
    qtbot.wait(200)
    assert window.model.shown is shown and window.model.time_window is None


def test_a_drag_on_the_lanes_still_pans(opened, qtbot):
    window, timeline = opened, opened.timeline
    timeline.zoom_by(2.0)
    before = timeline.view_range_ms()
    viewport = _viewport(timeline)
    start = viewport.mapFrom(timeline, timeline.map_to_widget(sum(before) / 2, 5.0))
    _press_and_drag(qtbot, timeline, start, start + QPoint(120, 0))
    assert not timeline.window_drag.band.visible
    _release(qtbot, timeline, start + QPoint(120, 0))
    assert timeline.view_range_ms()[0] < before[0] and window.model.time_window is None


def test_the_axis_says_it_can_be_dragged_and_help_lists_it(opened):
    assert opened.timeline._time_axis.toolTip() == DRAG_TIP
    rows = dict((what, keys) for keys, what in shortcut_rows(opened))
    assert rows["Whole trace"] == "Esc"
    assert any(keys == "Drag on the time axis" for keys, _what in shortcut_rows(opened))


def _compare(window, qtbot, a, b):
    with qtbot.waitSignal(window.files.open_finished, timeout=FILE_TIMEOUT_MS):
        assert window.compare_files(a, b)
    qtbot.waitUntil(
        lambda: window.model.pinned is not None and window.model.shown is not None
        and window.model.shown.source == b and window.model.shown.shift_ns > 0,
        timeout=FILE_TIMEOUT_MS,
    )  # fmt: skip
    return window.model.pinned, window.model.shown


def test_a_drag_while_comparing_cuts_both_sides_and_their_table(make_window, qtbot):
    window = make_window()
    pinned, shown = _compare(window, qtbot, PAGEABLE, PINNED)
    panel = window.compare
    table_before = panel.deltas.text()
    first = first_device_ns(shown.view.trace) / 1e6  # the pair opens on its GPU work
    _drag(qtbot, panel.timeline_a, first + 0.5, first + 2.5)  # on A's axis: the same shared time
    qtbot.waitUntil(lambda: window.model.pinned.window is not None, timeout=10_000)
    a, b = window.model.pinned, window.model.shown
    assert a.window == b.window and b.window.name == ""
    assert panel.timeline_a.view is a.view is a.cut and window.timeline.view is b.view
    assert a.view.metrics.makespan_ns < pinned.view.metrics.makespan_ns
    assert panel.deltas.text() != table_before
    for caption in (panel.caption_a, panel.caption_b):
        assert f"window {b.window.describe()}" in caption.text().replace("\xa0", " ")
    assert f"Window (A and B): {b.window.describe()}" in window.status_label.text()
    picture = window.current_picture()
    assert picture.views == (a.view, b.view)
    QTest.keyClick(window, Qt.Key.Key_Escape)
    assert window.model.pinned.view is pinned.view and window.model.shown.view is shown.view


def test_a_named_range_while_comparing_from_the_menu(make_window, qtbot):
    window = make_window()
    _compare(window, qtbot, TRAIN_STEP, PINNED)
    menu = window.window_actions.time_window_menu
    names = [action.text() for action in menu.actions() if not action.isSeparator()]
    assert menu.isEnabled() and "chunk 0" in names and "step 1" in names  # B's ranges, then A's
    assert names.index("chunk 0") < names.index("step 1")
    next(action for action in menu.actions() if action.text() == "step 1").trigger()
    qtbot.waitUntil(lambda: window.model.pinned.window is not None, timeout=10_000)
    assert window.model.shown.window is None
    assert "B has no range named 'step 1'" in window.statusBar().currentMessage()
    assert "; B whole run" in window.status_label.text()
    assert next(action for action in menu.actions() if action.text() == "step 1").isChecked()

"""A trace opens on its GPU work (Home: all of it; G: its GPU work), named in the title; the controls step aside."""

from pathlib import Path

import pytest
from file_waits import FILE_TIMEOUT_MS, open_and_wait
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QGroupBox
from teaching_helpers import make_window_fixture, run_and_wait  # noqa: F401 (the make_window fixture)

from overlapviz._qt.help import shortcut_rows
from overlapviz._qt.widgets.controls import SET_ASIDE_NOTE
from overlapviz.view.opening import opening_ms, pair_opening_ms

DATA = Path(__file__).parents[2] / "data"
NSYS = DATA / "nsys" / "test-cuda-2026.1-pinned-streams.sqlite.gz"
TRAIN_STEP = DATA / "torch" / "torch-train-step.json.gz"
DATALOADER = DATA / "torch" / "torch-dataloader.json.gz"


def _range(timeline):
    return pytest.approx(timeline.view_range_ms(), abs=1e-6)


def _whole(timeline):
    start, end = timeline.view_range_ms()
    return start < 0.0 and end > timeline.view.end_ms  # the run's extent and the padding around it


def test_another_tools_trace_opens_on_its_gpu_work_and_home_shows_it_all(make_window, qtbot):
    window = make_window()
    assert open_and_wait(qtbot, window, NSYS)
    timeline = window.timeline
    opening = opening_ms(window.current_trace())
    assert timeline.view_range_ms() == pytest.approx(opening)
    assert window.model.window_ms == pytest.approx(opening)  # what an export of "what the timeline shows" draws
    assert window.statusBar().currentMessage().startswith("Showing the GPU work, 851.209 to 958.548 ms of a 1100.7 ms")
    assert window.statusBar().currentMessage().endswith(": Home shows the whole trace, G the GPU work")
    assert QApplication.focusWidget() is timeline._plot  # so that Home works at once
    qtbot.keyClick(timeline._plot, Qt.Key.Key_Home)
    assert _whole(timeline)
    qtbot.keyClick(timeline._plot, Qt.Key.Key_G)
    assert timeline.view_range_ms() == pytest.approx(opening)
    timeline.zoom_by(0.25)
    window.window_actions.reset_view.trigger()
    assert _whole(timeline)
    window.window_actions.zoom_to_device_work.trigger()
    assert timeline.view_range_ms() == pytest.approx(opening)
    rows = dict((what, keys) for keys, what in shortcut_rows(window))
    assert rows["Zoom to GPU work"] == "G" and rows["Reset timeline view"] == "Home"  # F1 lists both


def test_a_run_of_the_pipeline_opens_whole_and_g_zooms_to_its_gpu_work(make_window, qtbot):
    window = make_window()
    run_and_wait(qtbot, window)
    assert _whole(window.timeline)
    window.controls.streams_slider._slider._slider.setFocus()
    qtbot.keyClick(window.controls.streams_slider._slider._slider, Qt.Key.Key_G)  # the window's key, any focus
    start, end = window.timeline.view_range_ms()
    assert 0.0 <= start < 0.01 and end == pytest.approx(window.timeline.view.end_ms, rel=0.01)
    assert window.controls.streams_slider.value() == 4  # the slider took no key


def test_the_title_names_the_file_on_show(make_window, qtbot):
    window = make_window()
    run_and_wait(qtbot, window)
    assert window.windowTitle() == "overlapviz"
    assert open_and_wait(qtbot, window, TRAIN_STEP)
    assert window.windowTitle() == "torch-train-step.json.gz \u2014 overlapviz"
    run_and_wait(qtbot, window)
    assert window.windowTitle() == "overlapviz"


def _darkest(widget, inside):
    """The lowest lightness (0-255) of the text and lines drawn in `inside`, a child of `widget`."""
    image = widget.grab().toImage()
    rect = inside.geometry().translated(inside.parentWidget().mapTo(widget, inside.pos()) - inside.pos())
    return min(
        image.pixelColor(x, y).lightness()
        for x in range(rect.left(), rect.right(), 2)
        for y in range(rect.top(), rect.bottom(), 2)
    )


def test_the_controls_step_aside_for_an_opened_trace_until_run(make_window, qtbot):
    window = make_window()
    run_and_wait(qtbot, window)
    controls = window.controls
    pipeline = controls.findChild(QGroupBox, "pipeline_box")
    plain = _darkest(controls, pipeline)
    assert not controls.is_set_aside() and not controls.set_aside_note.isVisible()
    assert open_and_wait(qtbot, window, DATALOADER)
    assert controls.is_set_aside() and controls.set_aside_note.isVisible()
    assert controls.set_aside_note.text() == SET_ASIDE_NOTE
    assert controls.run_button.isEnabled() and controls.streams_slider.isEnabled()  # still usable: Run goes back
    assert _darkest(controls, pipeline) > plain + 60  # its words and sliders faded
    assert controls.device_combo.graphicsEffect().isEnabled()
    controls.run_button.click()
    qtbot.waitUntil(lambda: window.shown().source is None, timeout=10_000)
    assert not controls.is_set_aside() and _darkest(controls, pipeline) == plain


def test_comparing_with_a_trace_opens_both_on_the_gpu_work(make_window, qtbot):
    window = make_window()
    run_and_wait(qtbot, window)
    with qtbot.waitSignal(window.files.open_finished, timeout=FILE_TIMEOUT_MS):
        assert window.compare_with_file(TRAIN_STEP)
    qtbot.waitUntil(lambda: window.model.shown.source == TRAIN_STEP and window.model.pinned.shift_ns > 0)
    qtbot.waitUntil(lambda: window.compare.timeline_a.view is window.model.pinned.view)
    pinned, shown = window.model.pinned, window.model.shown
    both = pair_opening_ms([pinned.view.trace, shown.view.trace])
    assert window.timeline.view_range_ms() == pytest.approx(both)
    assert window.compare.timeline_a.view_range_ms() == pytest.approx(both)  # one axis
    assert window.windowTitle() == "B: torch-train-step.json.gz \u2014 overlapviz"
    assert window.controls.is_set_aside()  # B is the file

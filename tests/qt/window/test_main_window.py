import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QApplication

from overlapviz._qt.main_window import MainWindow
from overlapviz._qt.themes import THEMES
from overlapviz.core.config import HostMemory, PipelineConfig
from overlapviz.core.run_errors import BackendError
from overlapviz.core.trace.lanes import LaneGroup
from overlapviz.session import run_pipeline
from overlapviz.view.palette import KIND_COLOURS, SpanStyle


@pytest.fixture
def make_window(qtbot, settings):
    def make(**kwargs):
        window = MainWindow(settings, **kwargs)
        qtbot.addWidget(window)
        window.show()
        return window

    return make


def _wait_for_run(qtbot, window, check=lambda shown: True):
    qtbot.waitUntil(lambda: window.shown() is not None and check(window.shown()), timeout=10_000)
    return window.shown().result


def _drag(slider, value):
    inner = slider._slider._slider
    inner.setSliderDown(True)
    inner.setValue(slider.values().index(value))
    inner.setSliderDown(False)


def _config_of(result):
    return PipelineConfig.from_dict(result.trace.meta.config)


def test_opens_on_the_default_pipelines_live_timeline(make_window, qtbot):
    window = make_window()
    assert window.controls.is_live() and window.window_actions.live.isChecked()
    result = _wait_for_run(qtbot, window)
    assert _config_of(result) == PipelineConfig()
    lanes = window.timeline.scene_items.layout
    assert len(lanes.lanes_of_group(LaneGroup.STREAMS)) == 4
    status = window.status_label.text()
    assert "Backend: sim" in status and "simulated" in status and "Timing: model" in status and "Run took" in status
    assert window.metrics.value_text("makespan").endswith("ms")


def test_moving_a_slider_reruns_and_redraws(make_window, qtbot):
    window = make_window()
    _wait_for_run(qtbot, window)
    _drag(window.controls.streams_slider, 2)
    result = _wait_for_run(qtbot, window, lambda shown: _config_of(shown.result).streams == 2)
    assert len(window.timeline.scene_items.layout.lanes_of_group(LaneGroup.STREAMS)) == 2
    assert window.timeline.trace is result.trace


def test_pageable_memory_blocks_the_host_and_says_why(make_window, qtbot):
    window = make_window()
    _wait_for_run(qtbot, window)
    window.controls.memory.button(HostMemory.PAGEABLE).click()
    result = _wait_for_run(qtbot, window, lambda shown: _config_of(shown.result).memory is HostMemory.PAGEABLE)
    assert result.metrics.host_blocked_ns > 0
    assert window.metrics.value_text("blocked") != "none"
    assert any("pageable" in text for text in window.metrics.finding_texts())
    host = window.timeline.scene_items.layout.lanes_of_group(LaneGroup.HOST)[0]
    blocked = window.timeline.scene_items.batches[(LaneGroup.HOST, "api")].layers[1]
    middle = (blocked.starts[0] + blocked.ends[0]) / 2 / 1e6
    image = window.timeline.grab().toImage()
    colour = image.pixelColor(window.timeline.map_to_widget(middle, host.centre)).name().upper()
    assert colour == KIND_COLOURS[SpanStyle.BLOCKED].upper()


def test_clicking_a_finding_outlines_its_spans(make_window, qtbot):
    window = make_window()
    _wait_for_run(qtbot, window)
    window.controls.memory.button(HostMemory.PAGEABLE).click()
    result = _wait_for_run(qtbot, window, lambda shown: bool(shown.result.findings))
    window.metrics.select_finding(0)
    assert window.timeline.scene_items.highlight_item.count() >= len(result.findings[0].rows)


def test_with_live_off_changes_wait_for_run(make_window, qtbot):
    window = make_window(live=False)
    qtbot.wait(100)
    assert window.shown() is None
    _drag(window.controls.chunks_slider, 8)
    qtbot.wait(100)
    assert window.shown() is None
    window.controls.run_button.click()
    assert _config_of(_wait_for_run(qtbot, window)).chunks == 8


def test_choosing_another_device_runs_on_it(make_window, qtbot):
    window = make_window()
    _wait_for_run(qtbot, window)
    combo = window.controls.device_combo
    index = next(i for i in range(combo.count()) if combo.itemData(i).device == "tesla-c1060")
    combo.setCurrentIndex(index)
    result = _wait_for_run(qtbot, window, lambda shown: shown.result.trace.meta.device == "tesla-c1060")
    assert "Tesla C1060" in window.status_label.text()
    assert result.trace.copy_engines == 1


def test_a_failing_backend_is_shown_in_words_and_the_app_carries_on(make_window, qtbot):
    failing = {"on": True}

    def run(config, backend, device, cancel):
        if failing["on"]:
            raise BackendError("CUDA error: out of memory")
        return run_pipeline(config, backend, device, cancel)

    window = make_window(run_function=run)
    qtbot.waitUntil(lambda: window.banner.message() != "", timeout=10_000)
    assert window.banner.message() == "The run did not complete: CUDA error: out of memory"
    failing["on"] = False
    window.controls.run_button.click()
    _wait_for_run(qtbot, window)
    assert window.banner.message() == ""


def test_font_scale_reaches_the_timeline(make_window, qtbot):
    window = make_window(live=False)
    before = QApplication.font().pointSizeF()
    window.window_actions.bigger_text.trigger()
    assert QApplication.font().pointSizeF() == pytest.approx(before * 1.15)
    assert window.timeline._time_axis.style["tickFont"].pointSizeF() == pytest.approx(before * 1.15)
    window.window_actions.normal_text.trigger()
    assert QApplication.font().pointSizeF() == pytest.approx(before)


def test_theme_switch_restyles_and_is_remembered(make_window, qtbot, settings):
    window = make_window()
    _wait_for_run(qtbot, window)
    window.window_actions.themes["dark"].trigger()
    assert settings.value("theme") == "dark"
    assert "#1E1F22" in QApplication.instance().styleSheet()
    stream = window.timeline.scene_items.layout.lanes_of_group(LaneGroup.HARDWARE)[0]
    image = window.timeline.grab().toImage()
    end_ms = window.timeline.view_range_ms()[1]
    corner = image.pixelColor(window.timeline.map_to_widget(end_ms * 0.999, stream.top + 0.02))
    assert corner.name().upper() == QColor(THEMES["dark"].background).name().upper()
    window.window_actions.themes["light"].trigger()


def test_a_drag_runs_when_the_slider_pauses_not_on_every_step(make_window, qtbot):
    calls = []

    def run(config, backend, device, cancel):
        calls.append(config.streams)
        return run_pipeline(config, backend, device, cancel)

    window = make_window(run_function=run)
    _wait_for_run(qtbot, window)
    inner = window.controls.streams_slider._slider._slider
    inner.setSliderDown(True)
    for streams in (5, 6, 7):
        inner.setValue(window.controls.streams_slider.values().index(streams))
    assert calls == [4]  # nothing yet: the drag has not paused
    result = _wait_for_run(qtbot, window, lambda shown: _config_of(shown.result).streams == 7)
    assert calls == [4, 7] and inner.isSliderDown()
    inner.setSliderDown(False)
    assert result is window.shown().result


def test_home_resets_the_timeline_only_when_it_has_focus(make_window, qtbot):
    window = make_window(live=False)
    window.controls.run_button.click()
    _wait_for_run(qtbot, window)
    full = window.timeline.view_range_ms()
    window.timeline.zoom_by(4)
    window.controls.streams_slider._slider._slider.setFocus()
    qtbot.keyClick(window.controls.streams_slider._slider._slider, Qt.Key.Key_Home)
    assert window.controls.streams_slider.value() == 1
    assert window.timeline.view_range_ms() != pytest.approx(full)
    zoomed = window.timeline.view_range_ms()
    window.timeline._plot.setFocus()
    qtbot.keyClick(window.timeline._plot, Qt.Key.Key_Home)
    assert window.timeline.view_range_ms() == pytest.approx(full) != zoomed



def test_a_drag_without_pauses_still_updates_the_picture(make_window, qtbot):
    calls = []

    def run(config, backend, device, cancel):
        calls.append(config.streams)
        return run_pipeline(config, backend, device, cancel)

    window = make_window(run_function=run)
    _wait_for_run(qtbot, window)
    slider = window.controls.streams_slider
    inner = slider._slider._slider
    inner.setSliderDown(True)
    for step in range(30):  # an edit every 20 ms, never a 60 ms pause, for 0.6 s
        inner.setValue(slider.values().index(5 + step % 2))
        qtbot.wait(20)
    during = list(calls)
    inner.setSliderDown(False)
    assert len(during) >= 2  # the first run, then at least one while the handle moved

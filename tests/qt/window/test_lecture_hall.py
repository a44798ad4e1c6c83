"""What a lecture hall needs of the window: no stale lesson, both axes, rows that fit, help, memory, undo."""

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics
from teaching_helpers import make_window_fixture, run_and_wait  # noqa: F401 (the make_window fixture)

from overlapviz._qt.main_window import MainWindow
from overlapviz._qt.widgets.metrics_panel import finding_text_rect
from overlapviz.app.glossary import GLOSSARY
from overlapviz.app.model import CompareAxis
from overlapviz.core.config import PipelineConfig
from overlapviz.presets import get_preset


def _focus_timeline(window, qtbot):
    window.activateWindow()
    window.timeline._plot.setFocus()
    qtbot.waitUntil(window.timeline._plot.hasFocus, timeout=5000)


def _lesson_index(window, name):
    return next(i for i, p in enumerate(window.teaching.lessons.lessons) if p.name == name)


def test_the_lesson_text_goes_or_is_marked_when_the_settings_leave_it(make_window, qtbot):
    window = make_window()
    window.teaching.lessons.start(_lesson_index(window, "pin-too-much"))
    qtbot.waitUntil(lambda: "refusing to pin" in window.banner.message(), timeout=10_000)
    window.teaching.presentation.enter()
    assert get_preset("pin-too-much").title in window.presentation_caption.text()
    run_and_wait(qtbot, window, PipelineConfig(size_bytes=192 * 2**20))  # a run of one's own ...
    window.controller.commit_config(PipelineConfig(size_bytes=192 * 2**20, streams=2))  # ... by the controls
    qtbot.waitUntil(lambda: window.shown() is not None, timeout=10_000)
    caption = window.presentation_caption.text()
    assert "Your own settings" in caption and get_preset("pin-too-much").text not in caption
    window.teaching.presentation.leave()
    assert not window.lesson_panel.departed.isHidden()
    window.teaching.lessons.close()
    assert window.lesson_panel.isHidden() and window.model.lesson is None


def test_stop_comparing_and_pageable_vs_pinned_take_the_lesson_away(make_window, qtbot):
    window = make_window()
    comparison = next(i for i, p in enumerate(window.teaching.lessons.lessons) if p.is_comparison)
    window.teaching.lessons.start(comparison)
    qtbot.waitUntil(window.compare.is_comparing, timeout=10_000)
    assert not window.lesson_panel.isHidden()
    window.teaching.actions.unpin.trigger()
    assert window.lesson_panel.isHidden()
    window.teaching.lessons.start(comparison)
    assert not window.lesson_panel.isHidden()
    window.teaching.actions.pageable_vs_pinned.trigger()
    assert window.lesson_panel.isHidden()
    qtbot.waitUntil(lambda: window.shown() is not None and window.shown().label == "pinned", timeout=10_000)


def test_each_side_on_its_own_axis_is_offered_and_marked(make_window, qtbot):
    window = make_window()
    run_and_wait(qtbot, window, PipelineConfig(memory="pageable", stream_kind="legacy"))  # about 67 ms
    window.teaching.compare.pin_current()
    run_and_wait(qtbot, window, PipelineConfig())  # about 6 ms
    a, b = window.compare.timeline_a, window.compare.timeline_b
    qtbot.waitUntil(lambda: b.view_range_ms()[1] > 60, timeout=5000)  # shared: B squeezed onto A's axis
    assert window.compare.axis_note.isHidden()
    window.teaching.actions.own_axis.trigger()
    assert window.model.axis is CompareAxis.OWN
    qtbot.waitUntil(lambda: b.view_range_ms()[1] < 10 and a.view_range_ms()[1] > 60, timeout=5000)
    assert not window.compare.axis_note.isHidden() and "own time axis" in window.compare.axis_note.text()
    b.zoom_by(4)
    qtbot.wait(50)
    assert a.view_range_ms()[1] > 60  # no longer linked
    window.teaching.actions.shared_axis.trigger()
    qtbot.waitUntil(lambda: b.view_range_ms()[1] > 60, timeout=5000)
    assert window.compare.axis_note.isHidden()


@pytest.mark.parametrize(("config", "bigger"), [
    (PipelineConfig(memory="pageable", stream_kind="legacy"), 3),
    (PipelineConfig(), 0),  # "Nothing stands out ...", two lines at the normal size
])  # fmt: skip
def test_findings_rows_grow_with_their_text(make_window, qtbot, config, bigger):
    window = make_window()
    run_and_wait(qtbot, window, config)
    window.resize(1366, 768)
    for _ in range(bigger):
        window.window_actions.bigger_text.trigger()
    qtbot.wait(50)
    findings = window.metrics.findings
    assert findings.count() > 0
    metrics = QFontMetrics(findings.font())
    for row in range(findings.count()):
        item = findings.item(row)
        text_rect = finding_text_rect(findings, findings.visualItemRect(item))  # inside the style sheet's padding
        needed = metrics.boundingRect(0, 0, text_rect.width(), 10_000, Qt.TextFlag.TextWordWrap, item.text())
        assert text_rect.height() >= needed.height(), item.text()
    window.window_actions.normal_text.trigger()


def test_help_lists_the_shortcuts_and_the_glossary_f1_opens_it(make_window, qtbot):
    window = make_window()
    _focus_timeline(window, qtbot)
    qtbot.keyClick(window.timeline._plot, Qt.Key.Key_F1)
    dialog = window.help.dialog
    assert dialog is not None and dialog.isVisible()
    texts = [window.help.tabs.widget(i).widget().text() for i in range(window.help.tabs.count())]
    assert "Ctrl+Z" in texts[0] and "F5" in texts[0] and "Presentation mode" in texts[0]
    terms = ("Pinned", "Pageable", "Registered", "Write-combined", "Depth first", "Legacy default", "Hardware")
    terms += ("Partial bar",)
    for term in terms:
        assert term in texts[1]
    assert texts[1].count("In the app:") == len(GLOSSARY)  # every entry says where the app shows it
    window.window_actions.help_glossary.trigger()
    assert window.help.tabs.currentIndex() == 1


def test_undo_and_redo_of_control_changes_by_keyboard(make_window, qtbot):
    window = make_window()
    assert not window.window_actions.undo.isEnabled()
    window.controls.streams_slider.set_value(2)
    window.controls.streams_slider.value_committed.emit(2)
    assert window.model.config.streams == 2 and window.window_actions.undo.isEnabled()
    _focus_timeline(window, qtbot)  # a focused number box keeps Ctrl+Z for its own text
    qtbot.keyClick(window.timeline._plot, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert window.model.config.streams == 4 and window.controls.streams_slider.value() == 4
    shift_control = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    qtbot.keyClick(window.timeline._plot, Qt.Key.Key_Z, shift_control)
    assert window.model.config.streams == 2 and window.controls.streams_slider.value() == 2


def test_settings_are_remembered_between_launches_and_reset(qtbot, settings):
    first = MainWindow(settings, live=False)
    qtbot.addWidget(first)
    first.controller.commit_config(PipelineConfig(streams=2, chunks=8))
    first.window_actions.themes["dark"].trigger()
    first.teaching.actions.explanations.trigger()  # off
    first.close()
    second = MainWindow(settings, live=False)
    qtbot.addWidget(second)
    assert second.controls.config() == PipelineConfig(streams=2, chunks=8) and second.theme_name() == "dark"
    assert not second.model.explanations and not second.teaching.actions.explanations.isChecked()
    second.window_actions.reset_defaults.trigger()
    assert second.model.config == PipelineConfig() and second.theme_name() == "light" and second.model.explanations
    qtbot.waitUntil(lambda: second.shown() is not None, timeout=10_000)  # the defaults are live again
    second.close()
    third = MainWindow(settings, live=False)
    qtbot.addWidget(third)
    assert third.model.config == PipelineConfig() and third.theme_name() == "light"
    third.close()

"""Presentation mode (F5) in Simplified Chinese on a projector's screen: every lesson's text fits, nothing overlaps.

Each lesson is stepped to as a lecturer does (the arrow key), its run awaited, and the
window's text checked at the two common slide sizes; then an exercise is put to the room in
the Exercises dock, which stays on show while presenting.
"""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import Qt, QTimer

from overlapviz.core.config import PipelineConfig
from overlapviz.presets import lessons
from tests.qt_i18n.teaching.text_fit import clipped_labels, overlapping_texts

SLIDE_SIZES = [(1920, 1080), (1280, 720)]
CJK = re.compile(r"[\u4e00-\u9fff]")
RUN_MS = 20_000


def _present_at(window, qtbot, monkeypatch, size):
    """Enter presentation mode on a screen of `size` (its window manager answers a moment later, as X's does)."""
    monkeypatch.setattr(window, "showFullScreen", lambda: QTimer.singleShot(50, lambda: window.resize(*size)))
    with qtbot.waitSignal(window.teaching.presentation.settled, timeout=10_000):
        window.teaching.actions.presentation.trigger()
    assert window.size().toTuple() == size


def _lesson_done(window, preset):
    """Whether the lesson's run is on show (or its refusal in the error strip), as the lesson set it up."""
    if window.runner.busy:
        return False
    if window.banner.message():
        return True
    shown = window.shown()
    return (
        shown is not None
        and PipelineConfig.from_dict(shown.result.trace.meta.config) == preset.configs[-1]
        and window.compare.is_comparing() == preset.is_comparison
    )


@pytest.mark.parametrize("size", SLIDE_SIZES, ids=[f"{w}x{h}" for w, h in SLIDE_SIZES])
def test_every_presented_lesson_fits_in_chinese(chinese_window, qtbot, monkeypatch, size):
    window = chinese_window
    _present_at(window, qtbot, monkeypatch, size)
    caption = window.presentation_caption
    assert CJK.search(caption.text()), caption.text()  # the caption speaks Chinese before any lesson
    for number, preset in enumerate(lessons(), start=1):
        qtbot.keyClick(window, Qt.Key.Key_Right)
        assert window.teaching.lessons.index == number - 1
        qtbot.waitUntil(lambda preset=preset: _lesson_done(window, preset), timeout=RUN_MS)
        qtbot.wait(50)  # the caption's new height through the layouts
        assert preset.title in caption.text() and CJK.search(preset.title), preset.name
        assert window.size().toTuple() == size, f"{preset.name}: a widget's minimum width widened the window"
        assert clipped_labels(window) == [], preset.name
        assert overlapping_texts(window) == [], preset.name
    window.teaching.presentation.leave()


@pytest.mark.parametrize("size", SLIDE_SIZES, ids=[f"{w}x{h}" for w, h in SLIDE_SIZES])
def test_an_exercise_put_to_the_room_fits_in_chinese(chinese_window, qtbot, monkeypatch, size):
    window = chinese_window
    dock = window.exercises
    dock.action.trigger()
    _present_at(window, qtbot, monkeypatch, size)
    assert dock.dock.isVisible()
    for index, exercise in enumerate(dock.session.exercises):
        dock.session.choose(index)
        qtbot.wait(20)
        detail = dock.panel.detail
        assert CJK.search(detail.kind.text()) and exercise.title in detail.title.text()
        assert CJK.search(detail.check_button.text()), detail.check_button.text()
        assert window.size().toTuple() == size, exercise.name
        assert clipped_labels(window) == [], exercise.name
        assert overlapping_texts(window) == [], exercise.name
    window.teaching.presentation.leave()

"""Driving the Exercises panel as a learner does: open it, pick an exercise, answer, press Run and check."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QPushButton, QWidget

from overlapviz.app.exercise_session import Phase
from tests.app.exercise_samples import exercises_with_number, named


def open_exercises(window, tmp_path):
    """The window's Exercises dock, opened with F7's action, offering the shipped exercises and a number prediction."""
    dock = window.exercises
    dock.set_exercises(exercises_with_number(tmp_path))
    dock.action.trigger()
    assert dock.dock.isVisible()
    return dock


def choose(qtbot, dock, name):
    """Click exercise `name` in the list."""
    panel = dock.panel
    row = named(dock.session.exercises, name)
    rect = panel.list.visualItemRect(panel.list.item(row))
    qtbot.mouseClick(panel.list.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert dock.session.on_show.index == row


def run_and_check(qtbot, dock):
    """Press Run and check and wait for the reveal."""
    button = dock.panel.detail.check_button
    assert button.isEnabled(), f"{button.text()!r} is not enabled"
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dock.session.on_show.phase is Phase.REVEALED, timeout=20_000)
    return dock.session.on_show.reveal


def clipped(widget: QWidget) -> list[str]:
    """The labels and buttons on show under `widget` whose text does not fit them."""
    cut = []
    for label in widget.findChildren(QLabel):
        shown = label.isVisible() and label.text() and label.wordWrap()
        if shown and label.heightForWidth(label.contentsRect().width()) > label.contentsRect().height() + 1:
            cut.append(label.text())
    for button in widget.findChildren(QPushButton):
        if button.isVisible() and button.sizeHint().width() > button.width() + 1:
            cut.append(button.text())
    return cut

"""Stepping through a run's findings with the keys; progress kept across windows; the panel presented (F5)."""

from __future__ import annotations

from exercise_helpers import choose, clipped, open_exercises, run_and_check
from PySide6.QtCore import QSettings, Qt
from teaching_helpers import (
    SIM_TARGETS,
    make_window_fixture,  # noqa: F401 (the make_window fixture)
    model_run,
)

from overlapviz._qt.main_window import MainWindow
from overlapviz.app.exercise_steps import stops_of


def revealed_fermi_run(qtbot, window, tmp_path):
    """The outcome prediction checked: a run on the C2050 model with three findings."""
    dock = open_exercises(window, tmp_path)
    choose(qtbot, dock, "fermi-runs")
    dock.panel.detail.answer_box.choose("runs")
    assert run_and_check(qtbot, dock).passed
    return dock


def test_step_through_moves_across_the_findings_and_esc_leaves(make_window, qtbot, tmp_path):
    window = make_window()
    dock = revealed_fermi_run(qtbot, window, tmp_path)
    stops = stops_of(window.shown().view)
    assert len(stops) >= 2, "the run needs two findings to step between"
    outlined = window.timeline._highlight.tolist()
    qtbot.mouseClick(dock.panel.detail.steps_button, Qt.MouseButton.LeftButton)
    box = dock.panel.steps
    assert box.isVisible() and box.heading.text().startswith(f"<b>Finding 1 of {len(stops)}</b>")
    assert window.timeline.cursor_ms() == stops[0].cursor_ms
    window.timeline.take_focus()  # a focused timeline would pan on the arrows: the steps take them first
    qtbot.keyClick(window.timeline, Qt.Key.Key_Right)
    assert box.heading.text().startswith(f"<b>Finding 2 of {len(stops)}</b>") and box.text.text() == stops[1].text
    assert window.timeline.cursor_ms() == stops[1].cursor_ms
    assert window.timeline._highlight.tolist() == stops[1].rows.tolist()
    qtbot.keyClick(window, Qt.Key.Key_P)
    assert dock.steps.stop.index == 0
    qtbot.keyClick(window, Qt.Key.Key_N)
    assert dock.steps.stop.index == 1
    qtbot.keyClick(window, Qt.Key.Key_Escape)
    assert not box.isVisible() and window.timeline.cursor_ms() is None
    assert window.timeline._highlight.tolist() == outlined, "the explanation's outlines come back"
    qtbot.keyClick(window, Qt.Key.Key_Right)
    assert not dock.steps.active, "the keys are the window's own again"


def test_progress_persists_into_a_new_window_and_resets(qtbot, tmp_path):
    settings_path = str(tmp_path / "settings.ini")

    def new_window():
        settings = QSettings(settings_path, QSettings.Format.IniFormat)
        window = MainWindow(settings, live=False, targets=SIM_TARGETS, run_function=model_run)
        qtbot.addWidget(window)
        window.show()
        return window

    first = new_window()
    dock = open_exercises(first, tmp_path)
    choose(qtbot, dock, "free-pinned-memory")
    dock.panel.detail.answer_box.choose("cudaFreeHost")
    assert run_and_check(qtbot, dock).passed
    first.close()
    second = new_window()
    dock = open_exercises(second, tmp_path)
    count = len(dock.session.exercises)
    assert dock.panel.progress.text().startswith(f"1 of {count} done")
    assert "\u2713 Giving pinned memory back" in dock.panel.item_texts()
    qtbot.mouseClick(dock.panel.reset_button, Qt.MouseButton.LeftButton)
    assert dock.panel.progress.text().startswith(f"0 of {count} done")
    second.close()
    assert new_window().exercises.session.progress.done_count(["free-pinned-memory"]) == 0


def test_presented_the_panel_stays_with_text_that_fits(make_window, qtbot, tmp_path):
    window = make_window()
    dock = revealed_fermi_run(qtbot, window, tmp_path)
    qtbot.keyClick(window, Qt.Key.Key_F5)
    qtbot.waitUntil(lambda: window.isFullScreen() or window.model.presenting, timeout=5_000)
    qtbot.wait(50)
    assert dock.dock.isVisible(), "an exercise can be put to the room"
    assert window.theme_name() == "projector"
    assert clipped(dock.panel) == []
    qtbot.mouseClick(dock.panel.detail.steps_button, Qt.MouseButton.LeftButton)
    qtbot.keyClick(window, Qt.Key.Key_Right)
    assert dock.steps.stop.index == 1, "in presentation mode the arrows step through the findings, not the lessons"
    assert window.model.lesson is None
    qtbot.keyClick(window, Qt.Key.Key_Escape)
    assert not dock.steps.active and window.model.presenting, "Esc leaves the steps first"
    qtbot.keyClick(window, Qt.Key.Key_Escape)
    assert not window.model.presenting

"""The Exercises panel in the window: predict, run on the model, reveal; a challenge on the controls; quiz and hints."""

from __future__ import annotations

import numpy as np
from exercise_helpers import choose, open_exercises, run_and_check
from PySide6.QtCore import Qt
from teaching_helpers import make_window_fixture  # noqa: F401 (the make_window fixture)

from overlapviz._qt.exercises.exercise_detail import RUN_AND_CHECK
from overlapviz._qt.exercises.exercise_dock import SHORTCUT
from overlapviz._qt.help import shortcut_rows
from overlapviz.core.trace.spans import OpKind
from tests.app.exercise_samples import GOOD_GUESS_MS, WRONG_GUESS_MS


def test_a_prediction_is_run_and_revealed_beside_what_was_measured(make_window, qtbot, tmp_path):
    window = make_window()
    dock = open_exercises(window, tmp_path)
    choose(qtbot, dock, "default-makespan")
    detail = dock.panel.detail
    assert detail.check_button.text() == RUN_AND_CHECK
    assert not detail.check_button.isEnabled(), "no run before the learner commits to an answer"
    assert window.shown() is None, "the last run is taken off, so it gives nothing away"
    qtbot.keyClicks(detail.answer_box.number, f"{WRONG_GUESS_MS:g}")
    assert detail.answer_box.unit.text() == "ms"
    reveal = run_and_check(qtbot, dock)
    makespan_ms = window.shown().result.metrics.makespan_ns / 1e6
    assert detail.said.text() == f"You said ~{WRONG_GUESS_MS:g} ms; measured {makespan_ms:.2f} ms."
    assert detail.verdict.text() == "<b>\u2717 Not this time</b>" and not reveal.passed
    assert detail.marks.text() == "\u2717 your guess of the makespan (within 1.48 ms counts as right)"
    assert detail.explanation.text().startswith("The H2D copies take about 5.3 ms")
    h2d = np.flatnonzero(window.shown().view.trace.mask(OpKind.H2D))
    assert window.timeline._highlight.tolist() == h2d.tolist(), "the explanation's spans are outlined"
    assert dock.panel.item_texts()[-2].startswith("\u25cb"), "not done"


def test_a_right_number_passes_and_marks_the_exercise_done(make_window, qtbot, tmp_path):
    window = make_window()
    dock = open_exercises(window, tmp_path)
    choose(qtbot, dock, "default-makespan")
    qtbot.keyClicks(dock.panel.detail.answer_box.number, f"{GOOD_GUESS_MS:g}")
    assert run_and_check(qtbot, dock).passed
    assert "\u2713 How long does the default pipeline take?" in dock.panel.item_texts()
    assert dock.panel.progress.text().startswith(f"1 of {len(dock.session.exercises)} done")


def test_a_choice_prediction_runs_both_sides_as_a_comparison(make_window, qtbot, tmp_path):
    window = make_window()
    dock = open_exercises(window, tmp_path)
    choose(qtbot, dock, "overlap-which-first")
    dock.panel.detail.answer_box.choose("pinned")
    reveal = run_and_check(qtbot, dock)
    assert reveal.passed and window.model.pinned is not None
    assert "the pinned run 0.825 ms" in dock.panel.detail.said.text()


def test_a_challenge_passes_with_the_reference_settings_and_fails_with_the_wrong_ones(make_window, qtbot, tmp_path):
    window = make_window()
    dock = open_exercises(window, tmp_path)
    challenge = next(e for e in dock.session.exercises if e.name == "pinned-overlap")
    for config, passed in ((challenge.wrong, False), (challenge.reference, True)):
        choose(qtbot, dock, "pinned-overlap")
        detail = dock.panel.detail
        assert window.model.config == challenge.setup.configs[0], "the setup is on the controls"
        assert "copy time hidden at least 50 %" in detail.goals.text()
        window.controller.commit_config(config)  # as the sliders' final change does
        reveal = run_and_check(qtbot, dock)
        assert reveal.passed is passed
        last = detail.marks.text().splitlines()[-1]
        assert last.startswith("\u2713" if passed else "\u2717") and "copy time hidden at least 50 %" in last
        qtbot.mouseClick(detail.again_button, Qt.MouseButton.LeftButton)


def test_a_quiz_is_checked_and_hints_come_one_at_a_time(make_window, qtbot, tmp_path):
    window = make_window()
    dock = open_exercises(window, tmp_path)
    choose(qtbot, dock, "pinned-overlap")
    detail = dock.panel.detail
    assert detail.hint_button.text() == "Show a hint (3 left)" and detail.hints.isHidden()
    qtbot.mouseClick(detail.hint_button, Qt.MouseButton.LeftButton)
    assert detail.hints.text().startswith("Hint 1: Look at the host lane")
    assert "Hint 2" not in detail.hints.text() and detail.hint_button.text() == "Show a hint (2 left)"
    choose(qtbot, dock, "free-pinned-memory")
    assert detail.check_button.text() == "Check" and not detail.check_button.isEnabled()
    dock.panel.detail.answer_box.choose("free")
    reveal = run_and_check(qtbot, dock)
    assert not reveal.passed
    assert detail.said.text() == "You chose \u201cfree(ptr)\u201d; the answer is \u201ccudaFreeHost(ptr)\u201d."
    qtbot.waitUntil(lambda: len(window.timeline._highlight) > 0, timeout=20_000)  # its run points at the calls


def test_view_exercises_has_a_free_key_listed_in_help_and_toggles_the_panel(make_window, qtbot):
    window = make_window()
    rows = shortcut_rows(window)
    assert [what for keys, what in rows if keys == SHORTCUT] == ["Exercises"], "F7 is no other action's"
    dock = window.exercises.dock
    window.activateWindow()  # a window's keys reach the active window only
    qtbot.waitUntil(window.isActiveWindow)
    qtbot.keyClick(window, Qt.Key.Key_F7)
    assert dock.isVisible() and window.exercises.action.isChecked()
    qtbot.keyClick(window, Qt.Key.Key_F7)
    assert not dock.isVisible()

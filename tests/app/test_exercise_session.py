"""The exercise flow without Qt: choose, answer, run on the model through the executor, reveal, progress."""

from __future__ import annotations

import pytest
from fakes import DictSettings

from overlapviz.app.exercise_progress import PROGRESS_KEY, ExerciseProgress
from overlapviz.app.exercise_session import PREDICT_FIRST, Exercising, Phase
from overlapviz.app.runs import Controls
from tests.app.exercise_samples import GOOD_GUESS_MS, WRONG_GUESS_MS, exercises_with_number, named


@pytest.fixture
def exercising(app, tmp_path):
    """The exercises (the shipped ones and a number prediction) on the test controller, progress in a dict."""
    store = DictSettings()
    session = Exercising(
        app.runs, exercises_with_number(tmp_path), ExerciseProgress(store), app.targets, app.default_target
    )
    session.store, session.executor = store, app.executor
    return session


def check_and_run(session):
    assert session.check()
    assert session.on_show.phase is Phase.RUNNING
    session.executor.run_all()
    return session.on_show


def test_a_prediction_asks_for_an_answer_before_it_runs_and_hides_the_last_run(exercising, app):
    app.run()
    app.executor.run_all()
    assert app.model.shown is not None
    assert exercising.choose(named(exercising.exercises, "default-makespan"))
    assert app.model.shown is None, "the run on show could give the answer away"
    assert app.messages.notices[-1] == PREDICT_FIRST
    assert not exercising.on_show.can_check and not exercising.check()
    exercising.answer(WRONG_GUESS_MS)
    assert exercising.on_show.can_check


@pytest.mark.parametrize(("guess", "passed"), [(WRONG_GUESS_MS, False), (GOOD_GUESS_MS, True)])
def test_a_number_prediction_is_revealed_beside_what_the_run_measured(exercising, app, guess, passed):
    exercising.choose(named(exercising.exercises, "default-makespan"))
    exercising.answer(guess)
    revealed = check_and_run(exercising)
    makespan_ms = app.model.shown.result.metrics.makespan_ns / 1e6
    assert revealed.phase is Phase.REVEALED
    assert revealed.reveal.said == f"You said ~{guess:g} ms; measured {makespan_ms:.2f} ms."
    assert revealed.reveal.passed is passed
    assert len(revealed.reveal.rows) == int(app.model.shown.view.trace.mask(0).sum()), "the H2D copies outlined"
    assert exercising.progress.record("default-makespan").done is passed


def test_a_choice_prediction_runs_both_sides_and_names_each_figure(exercising, app):
    exercising.choose(named(exercising.exercises, "overlap-which-first"))
    exercising.answer("pageable")
    revealed = check_and_run(exercising)
    assert app.model.pinned is not None, "the pageable run is A, the pinned one B"
    assert not revealed.reveal.passed
    assert "the run shows \u201cthe pinned run\u201d" in revealed.reveal.said
    assert "Measured makespan: the pageable run 8.92 ms, the pinned run 0.825 ms." in revealed.reveal.said


def test_a_challenge_passes_with_the_reference_settings_and_fails_with_the_wrong_ones(exercising, app):
    index = named(exercising.exercises, "pinned-overlap")
    challenge = exercising.exercises[index]
    for config, passed in ((challenge.wrong, False), (challenge.reference, True)):
        exercising.choose(index)
        assert app.model.config == challenge.setup.configs[0], "the setup is on the controls"
        app.runs.apply(Controls(config, app.model.target))
        revealed = check_and_run(exercising)
        assert revealed.reveal.passed is passed
        assert [m.passed for m in revealed.reveal.marks] == [True, True, passed]
    assert exercising.progress.record("pinned-overlap").tries == 2


def test_a_quiz_is_checked_at_once_and_its_run_points_at_what_it_explains(exercising, app):
    exercising.choose(named(exercising.exercises, "free-pinned-memory"))
    exercising.answer("cudaFreeHost")
    assert exercising.check()
    assert exercising.on_show.reveal.passed and not len(exercising.on_show.reveal.rows)
    app.executor.run_all()
    trace = app.model.shown.view.trace
    assert {trace.name_of(row) for row in exercising.on_show.reveal.rows} >= {"cudaFreeHost"}


def test_hints_show_one_at_a_time_and_are_remembered(exercising):
    index = named(exercising.exercises, "pinned-overlap")
    exercising.choose(index)
    assert exercising.on_show.hints == 0
    assert exercising.show_hint() and exercising.show_hint()
    assert exercising.on_show.hints == 2
    exercising.choose(index)
    assert exercising.on_show.hints == 2, "the hints read stay read"
    assert exercising.show_hint() and not exercising.show_hint()


def test_a_run_the_learner_starts_meanwhile_supersedes_the_check(exercising, app):
    exercising.choose(named(exercising.exercises, "default-makespan"))
    exercising.answer(GOOD_GUESS_MS)
    exercising.check()
    app.run()
    app.executor.run_all()
    assert exercising.on_show.phase is Phase.ASKING and exercising.on_show.reveal is None
    assert app.messages.notices[-1].startswith("Another run took the check's place")


def test_progress_lives_in_the_settings_store_and_resets(exercising, app, tmp_path):
    exercising.choose(named(exercising.exercises, "free-pinned-memory"))
    exercising.answer("cudaFreeHost")
    exercising.check()
    again = ExerciseProgress(exercising.store)
    assert again.record("free-pinned-memory").done and again.note is None
    again.reset()
    assert PROGRESS_KEY not in exercising.store
    assert not ExerciseProgress(exercising.store).record("free-pinned-memory").done


def test_a_shipped_trace_is_opened_and_judged_like_a_run(exercising, app):
    exercising.choose(named(exercising.exercises, "real-legacy-trace"))
    exercise = exercising.on_show.exercise
    exercising.answer(float(exercise.prediction.answer))
    revealed = check_and_run(exercising)
    assert app.model.shown.source.name == exercise.setup.trace
    assert revealed.reveal.passed, revealed.reveal.said


def test_a_refused_run_is_the_outcome_a_prediction_may_name(exercising, app):
    exercising.choose(named(exercising.exercises, "pin-too-much"))
    exercise = exercising.on_show.exercise
    exercising.answer(exercise.prediction.answer)
    revealed = check_and_run(exercising)
    assert revealed.reveal.passed, revealed.reveal.said
    assert exercise.prediction.answer == "refused"
    assert "The run was refused:" in revealed.reveal.said and app.messages.error == ""

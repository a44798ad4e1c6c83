"""Every shipped exercise loads, and what it claims is what the model measures."""

import pytest

from overlapviz.exercises import ExerciseKind, exercise_names, load_exercises
from overlapviz.exercises.grading import check_answer, check_settings
from overlapviz.exercises.measure import measure, predicted_answer
from overlapviz.presets import lessons

EXERCISES = load_exercises()


def _of_kind(kind):
    return [name for name, exercise in EXERCISES.items() if exercise.kind is kind]


def test_every_file_loads_with_its_name():
    assert list(EXERCISES) == exercise_names()
    assert len(EXERCISES) >= 12
    assert all(exercise.name == name for name, exercise in EXERCISES.items())


def test_every_kind_is_there():
    assert {exercise.kind for exercise in EXERCISES.values()} == set(ExerciseKind)


def test_the_lessons_they_follow_are_lessons():
    lesson_names = {preset.name for preset in lessons()}
    assert {exercise.lesson for exercise in EXERCISES.values()} <= lesson_names


@pytest.mark.parametrize("name", _of_kind(ExerciseKind.CHALLENGE))
def test_reference_passes_and_wrong_fails(name):
    exercise = EXERCISES[name]
    reference = check_settings(exercise, exercise.reference, "sim")
    wrong = check_settings(exercise, exercise.wrong, "sim")
    assert reference.passed, reference.to_dict()
    assert not wrong.passed, wrong.to_dict()
    assert len(reference.goals) == len(exercise.goals) + len(exercise.limits)


@pytest.mark.parametrize("name", _of_kind(ExerciseKind.PREDICT))
def test_the_files_answer_is_what_the_model_measures(name):
    exercise = EXERCISES[name]
    measured = predicted_answer(exercise, measure(exercise, "sim"))
    stated = exercise.prediction.answer
    if isinstance(stated, float):
        assert measured == pytest.approx(stated, rel=0.01, abs=0.05)
    else:
        assert measured == stated


@pytest.mark.parametrize("name", _of_kind(ExerciseKind.PREDICT) + _of_kind(ExerciseKind.QUIZ))
def test_the_right_answer_passes_and_every_other_choice_fails(name):
    exercise = EXERCISES[name]
    right = exercise.answer if exercise.kind is ExerciseKind.QUIZ else exercise.prediction.answer
    assert check_answer(exercise, str(right), "sim").passed
    for choice in exercise.choices:
        if choice.key != right:
            assert not check_answer(exercise, choice.key, "sim").passed


@pytest.mark.parametrize("name", [n for n in _of_kind(ExerciseKind.PREDICT) if not EXERCISES[n].choices])
def test_a_number_far_outside_the_tolerance_fails(name):
    exercise = EXERCISES[name]
    grade = check_answer(exercise, "1000", "sim")
    assert not grade.passed
    assert grade.goals[0].measured == pytest.approx(exercise.prediction.answer, rel=0.01, abs=0.05)


def test_pinned_overlap_passes_pinned_on_several_streams_and_fails_pageable():
    exercise = EXERCISES["pinned-overlap"]
    setup = exercise.setup.configs[0]
    for streams in (4, 8):  # 2 streams hide about 44 %: the lesson's claim is for several
        assert check_settings(exercise, setup.replace(memory="pinned", streams=streams), "sim").passed
    for streams in (1, 4, 8):
        assert not check_settings(exercise, setup.replace(memory="pageable", streams=streams), "sim").passed
    assert not check_settings(exercise, setup.replace(memory="pinned", streams=1), "sim").passed


def test_pinned_overlap_shows_the_lessons_superpower():
    (goal,) = EXERCISES["pinned-overlap"].goals
    assert (goal.figure, goal.compare, goal.value) == ("copy_hidden_pct", ">=", 50)

"""Grading: run an exercise's setup, measure, and judge the learner's settings or answer.

`check_settings` grades a challenge, `check_answer` a prediction or a quiz; both return a
`Grade` whose `to_dict` is what ``overlapviz exercise check --json`` prints. A prediction is
judged against what this very run measures (on the model, a calibrated profile or a GPU),
not against the number in the file, which the tests hold to the model's measurement.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from overlapviz.core.config import PipelineConfig
from overlapviz.exercises.fields import ExerciseError
from overlapviz.exercises.format import read_toml, settings_config
from overlapviz.exercises.goals import GoalResult, check_goal, check_limit
from overlapviz.exercises.measure import Measured, measure, predicted_answer
from overlapviz.exercises.model import Exercise, ExerciseKind, Prediction
from overlapviz.presets import SIDE_KEYS

# What a learner's settings file may hold: a preset's keys; only [config] is graded, the
# backend and the device are the course's to choose (--backend, --device).
_SETTINGS_FILE_KEYS = {"title", "text", "device", "backend", "lesson", "config"}


@dataclass(frozen=True, slots=True)
class Grade:
    """The verdict on one answer: each goal with what was measured, and whether all held."""

    exercise: str
    kind: str
    goals: tuple[GoalResult, ...]
    answer: str | float | None = None  # the learner's answer to a prediction or a quiz
    expected: str | float | None = None  # the right answer, as measured (a prediction) or given (a quiz)
    measured: Measured | None = None  # the runs, for a view to draw; None for a quiz

    @property
    def passed(self) -> bool:
        """Whether every goal held (and there was at least one)."""
        return bool(self.goals) and all(goal.passed for goal in self.goals)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``passed``, ``exercise``, ``kind``, ``goals``, and the answers where there are some."""
        report: dict[str, Any] = {
            "passed": self.passed,
            "exercise": self.exercise,
            "kind": str(self.kind),
            "goals": [goal.to_dict() for goal in self.goals],
        }
        if self.kind != ExerciseKind.CHALLENGE:
            report |= {"answer": self.answer, "expected": self.expected}
        if self.measured is not None:
            report |= self.measured.where()
        return report


def read_settings(path: Any, exercise: Exercise) -> PipelineConfig:
    """The learner's settings file (a preset-style TOML file with a [config] table) over the setup's.

    Raises
    ------
    ExerciseError
        The file cannot be read, is not TOML, or its [config] is not valid; the message names the file.
    """
    try:
        data = read_toml(path, "settings")
        unknown = sorted(set(data) - _SETTINGS_FILE_KEYS)
        if unknown:
            raise ExerciseError(f"{unknown[0]}: unknown key; a settings file gives its settings in [config]")
        table = data.get("config")
        if not isinstance(table, dict):
            raise ExerciseError("config: missing; give the settings in a [config] table")
        return learner_config(exercise, table)
    except ExerciseError as error:
        raise ExerciseError(f"{path}: {error}") from None


def learner_config(exercise: Exercise, table: dict[str, Any]) -> PipelineConfig:
    """The settings of a [config] table over the challenge's setup (keys it leaves out keep the setup's)."""
    if exercise.kind is not ExerciseKind.CHALLENGE or exercise.setup is None:
        raise ExerciseError(f"{exercise.name} is a {exercise.kind} exercise: answer it with --answer, not settings")
    settings = {key: value for key, value in table.items() if key not in SIDE_KEYS}
    return settings_config(settings, "config", exercise.setup.configs[0])


def check_settings(
    exercise: Exercise, config: PipelineConfig, backend: str | None = None, device: str | None = None
) -> Grade:
    """Grade a challenge: check the limits on `config`, run it, check each goal on the run.

    A run the backend refuses (pinning too much, say) fails every goal, with nothing measured.

    Raises
    ------
    ExerciseError
        The exercise is no challenge.
    UnknownDeviceError, BackendError
        The backend or device cannot be used.
    """
    if exercise.kind is not ExerciseKind.CHALLENGE:
        raise ExerciseError(f"{exercise.name} is a {exercise.kind} exercise: answer it with --answer, not settings")
    limits = tuple(check_limit(limit, config) for limit in exercise.limits)
    measured = measure(exercise, backend, device, (config,))
    if measured.refused is not None:
        goals = tuple(GoalResult(goal.describe(), None, False) for goal in exercise.goals)
    else:
        goals = tuple(check_goal(goal, measured.reports[0]) for goal in exercise.goals)
    return Grade(exercise.name, exercise.kind, limits + goals, measured=measured)


def check_answer(exercise: Exercise, answer: str, backend: str | None = None, device: str | None = None) -> Grade:
    """Grade a prediction (against what the setup measures) or a quiz (against its answer).

    Raises
    ------
    ExerciseError
        The exercise is a challenge, or `answer` is none of its choices (or no number where
        a number is asked for); the message lists what it takes.
    UnknownDeviceError, BackendError
        The backend or device cannot be used.
    """
    given = _learner_answer(exercise, answer)
    if exercise.kind is ExerciseKind.QUIZ:
        return _graded(exercise, given, exercise.answer, None)
    measured = measure(exercise, backend, device)
    return _graded(exercise, given, predicted_answer(exercise, measured), measured)


def _graded(exercise: Exercise, given: str | float, expected: str | float | None, measured: Measured | None) -> Grade:
    prediction = exercise.prediction
    if isinstance(given, float) and isinstance(expected, float) and prediction is not None:
        margin = tolerance_of(prediction, expected)
        passed = abs(given - expected) <= margin
        goal = f"answer within {margin:g} of the measured {prediction.figure}"
    else:
        passed = expected is not None and given == expected
        goal = "answer is the right choice"
    return Grade(exercise.name, exercise.kind, (GoalResult(goal, expected, passed),), given, expected, measured)


def tolerance_of(prediction: Prediction, measured: float) -> float:
    """How far from the measured number an answer may be: the file's tolerance, or its share of `measured`."""
    if prediction.tolerance is not None:
        return prediction.tolerance
    return abs(measured) * (prediction.tolerance_pct or 0.0) / 100


def _learner_answer(exercise: Exercise, answer: str) -> str | float:
    if exercise.kind is ExerciseKind.CHALLENGE:
        raise ExerciseError(f"{exercise.name} is a challenge: answer it with --settings FILE.toml, not --answer")
    if exercise.choices:
        keys = [choice.key for choice in exercise.choices]
        if answer.strip() not in keys:
            raise ExerciseError(f"--answer {answer!r} is none of the choices of {exercise.name}: {', '.join(keys)}")
        return answer.strip()
    try:
        number = float(answer)
    except ValueError:
        number = math.nan
    if not math.isfinite(number):
        raise ExerciseError(f"--answer {answer!r}: {exercise.name} asks for a number") from None
    return number


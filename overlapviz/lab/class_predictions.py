"""The class's predictions for the exercises the instructor sends: one per learner per round, counted without names.

Each send of an exercise starts a new round (numbered across the server, so a round names
one send) and forgets that exercise's earlier predictions. A learner's prediction is kept
under a digest of their client id, only so that a second one replaces the first; what the
instructor reads back is counts: per choice for a multiple-choice question, per bin for a
number. No framework here: `class_exercises` puts it behind HTTP.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, field
from typing import Any

from overlapviz.core.i18n import _
from overlapviz.exercises import Exercise, ExerciseKind
from overlapviz.exercises.grading import tolerance_of

MAX_NUMBER = 1e9  # no figure of a run comes near: a larger answer is a slip of the keyboard
MAX_PREDICTIONS = 10_000  # per round: more learners than any lecture hall holds
NUMBER_BINS = 8  # equal-width bins over the answers' range, unless the tolerance is wider

Answer = str | float


class PredictionError(ValueError):
    """A prediction the server does not count; the one-line message says why."""


class RoundFull(PredictionError):
    """The round holds `MAX_PREDICTIONS` learners' predictions already."""


@dataclass
class _Round:
    number: int
    answers: dict[str, Answer] = field(default_factory=dict)  # by a digest of the client id


class ClassRounds:
    """The latest round of each exercise sent, and the predictions made in it."""

    def __init__(self) -> None:
        self._last = 0
        self._rounds: dict[str, _Round] = {}

    def send(self, exercise: Exercise) -> int:
        """Start a new round of `exercise` (its earlier predictions forgotten); its number."""
        self._last += 1
        self._rounds[exercise.name] = _Round(self._last)
        return self._last

    def predict(self, exercise: Exercise, round_number: Any, client: str, given: Any) -> None:
        """Count `client`'s prediction `given` in round `round_number` of `exercise`, in place of any before.

        Raises
        ------
        PredictionError
            Not the exercise's current round, or an answer the exercise does not take.
        RoundFull
            The round is full.
        """
        answer = answer_of(exercise, given)
        current = self._rounds.get(exercise.name)
        if current is None:
            message = _("the instructor has not sent {exercise}: nothing to predict yet")
            raise PredictionError(message.format(exercise=repr(exercise.name)))
        if isinstance(round_number, bool) or not isinstance(round_number, int) or round_number != current.number:
            message = _("round {round} of {exercise} is over; the round now is {current}")
            raise PredictionError(
                message.format(round=repr(round_number), exercise=repr(exercise.name), current=current.number)
            )
        key = _digest(client)
        if key not in current.answers and len(current.answers) >= MAX_PREDICTIONS:
            message = _("round {round} already holds {count} predictions")
            raise RoundFull(message.format(round=current.number, count=MAX_PREDICTIONS))
        current.answers[key] = answer

    def summary(self, exercise: Exercise) -> dict[str, Any]:
        """``{"exercise", "round", "count", "histogram", "measured"?}``: counts only, never who (round 0: not sent)."""
        current = self._rounds.get(exercise.name) or _Round(0)
        answers = list(current.answers.values())
        report: dict[str, Any] = {"exercise": exercise.name, "round": current.number, "count": len(answers)}
        if exercise.choices:
            report["histogram"] = [
                {"answer": choice.key, "count": answers.count(choice.key)} for choice in exercise.choices
            ]
        else:
            numbers = [float(answer) for answer in answers]
            report["histogram"] = [
                {"bin": [low, high], "count": count} for low, high, count in number_bins(numbers, _tolerance(exercise))
            ]
        if exercise.kind is ExerciseKind.PREDICT and exercise.prediction is not None:
            report["measured"] = exercise.prediction.answer
        return report


def answer_of(exercise: Exercise, given: Any) -> Answer:
    """`given` as an answer `exercise` takes: one of its choices' keys, or a number within `MAX_NUMBER`.

    Raises
    ------
    PredictionError
        A challenge (it takes settings), a key that is no choice, or no sane number.
    """
    if exercise.kind is ExerciseKind.CHALLENGE:
        message = _("{exercise} is a challenge: it takes settings, not a prediction")
        raise PredictionError(message.format(exercise=repr(exercise.name)))
    if exercise.choices:
        keys = [choice.key for choice in exercise.choices]
        if not isinstance(given, str) or given not in keys:
            message = _("answer: give one of the choices of {exercise}: {keys}")
            raise PredictionError(message.format(exercise=repr(exercise.name), keys=", ".join(keys)))
        return given
    if isinstance(given, bool) or not isinstance(given, int | float) or not math.isfinite(given):
        raise PredictionError(_("answer: {exercise} asks for a number").format(exercise=repr(exercise.name)))
    if abs(given) > MAX_NUMBER:
        message = _("answer: {given} is out of range (at most {most} either way)")
        raise PredictionError(message.format(given=f"{given:g}", most=f"{MAX_NUMBER:g}"))
    return float(given)


def number_bins(numbers: list[float], tolerance: float = 0.0) -> list[tuple[float, float, int]]:
    """(low, high, count) of equal bins covering `numbers`: `NUMBER_BINS` over their range, or `tolerance` wide.

    The bins start at a multiple of their width, so that the edges read as round numbers;
    each holds the numbers from its low edge up to (not including) its high one.
    """
    if not numbers:
        return []
    low, high = min(numbers), max(numbers)
    width = max((high - low) / NUMBER_BINS, tolerance) or max(abs(low) / NUMBER_BINS, 1.0)
    start = math.floor(low / width) * width
    count = min(int((high - start) // width) + 1, NUMBER_BINS + 1)
    counts = [0] * count
    for number in numbers:
        counts[min(int((number - start) // width), count - 1)] += 1
    return [(_edge(start + index * width), _edge(start + (index + 1) * width), n) for index, n in enumerate(counts)]


def _edge(value: float) -> float:
    return float(f"{value:.12g}")  # 0.3, not 0.30000000000000004


def _tolerance(exercise: Exercise) -> float:
    prediction = exercise.prediction
    if prediction is None or isinstance(prediction.answer, str):
        return 0.0
    return tolerance_of(prediction, prediction.answer)


def _digest(client: str) -> str:
    return hashlib.sha256(f"overlapviz prediction\n{client}".encode()).hexdigest()

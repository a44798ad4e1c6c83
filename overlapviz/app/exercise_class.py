"""An exercise put to the class through the lab server: the rounds sent, the learner's prediction, the histogram.

Qt-free. A learner following the instructor hears of each exercise sent (`ClassRounds.sent`);
once they commit an answer to it, `prediction_to_send` says what goes to the server, once per
answer. The instructor reads the class's answers as `ClassHistogram`, counts only, from the
server's ``GET /v1/predictions`` answer (docs/lab.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from overlapviz.app.exercise_session import ExerciseOnShow, Phase
from overlapviz.core.i18n import N_, _, ncount
from overlapviz.exercises import Exercise, ExerciseKind

SENT_NOTICE = N_("Your instructor sent an exercise: {title}")  # said with `_` where shown


@dataclass(frozen=True, slots=True)
class Bar:
    """One bar: what it counts (a choice's key, or a range of numbers) and how many answered so."""

    label: str
    count: int
    low: float | None = None  # a number bin's edges; None for a choice
    high: float | None = None


@dataclass(frozen=True, slots=True)
class ClassHistogram:
    """The class's predictions of one round of an exercise, counted: no names."""

    exercise: str
    round: int
    count: int
    bars: tuple[Bar, ...]
    measured: str | float | None = None  # what the model measures, as the exercise file states it

    @property
    def heading(self) -> str:
        """``The class: 12 predictions (round 3)``, or that none came yet."""
        if self.count == 0:
            none_yet = (
                _("The class: no predictions yet (round {round})") if self.round else _("The class: no predictions yet")
            )
            return none_yet.format(round=self.round)
        return ncount(
            "The class: {count} prediction (round {round})",
            "The class: {count} predictions (round {round})",
            self.count,
            round=self.round,
        )


UNREADABLE = N_("the lab server sent predictions this version cannot read")


class HistogramError(ValueError):
    """The server's answer is not a histogram this version reads."""


def histogram_of(answer: dict[str, Any]) -> ClassHistogram:
    """The `ClassHistogram` in a ``GET /v1/predictions`` answer.

    Raises
    ------
    HistogramError
        A key is missing or of the wrong type.
    """
    try:
        bars = tuple(_bar(item) for item in answer["histogram"])
        exercise, round_number, count = answer["exercise"], answer["round"], answer["count"]
    except (KeyError, TypeError, ValueError):
        raise HistogramError(_(UNREADABLE)) from None
    if not isinstance(exercise, str) or not isinstance(round_number, int) or not isinstance(count, int):
        raise HistogramError(_(UNREADABLE))
    measured = answer.get("measured")
    return ClassHistogram(exercise, round_number, count, bars, measured if isinstance(measured, str | float) else None)


def _bar(item: dict[str, Any]) -> Bar:
    count = int(item["count"])
    if "answer" in item:
        return Bar(str(item["answer"]), count)
    low, high = (float(edge) for edge in item["bin"])
    return Bar(f"{low:g}\u2013{high:g}", count, low, high)


class ClassRounds:
    """The exercises the instructor sent, each with its round, and the predictions sent for them."""

    def __init__(self) -> None:
        self._rounds: dict[str, int] = {}
        self._sent: dict[str, tuple[int, str | float]] = {}  # the last prediction sent, per exercise

    def sent(self, exercise: str, round_number: int) -> None:
        """The instructor sent `exercise` as round `round_number`."""
        self._rounds[exercise] = round_number

    def round_of(self, exercise: str) -> int | None:
        """The round the instructor sent `exercise` as; None when they did not send it."""
        return self._rounds.get(exercise)

    def prediction_to_send(self, on_show: ExerciseOnShow | None) -> tuple[str, int, str | float] | None:
        """(exercise, round, answer) to send once the learner committed an answer; None: nothing new to send."""
        if on_show is None or on_show.phase is Phase.ASKING or on_show.answer is None:
            return None
        name = on_show.exercise.name
        round_number = self._rounds.get(name)
        if round_number is None or on_show.exercise.kind is ExerciseKind.CHALLENGE:
            return None
        if self._sent.get(name) == (round_number, on_show.answer):
            return None
        self._sent[name] = (round_number, on_show.answer)
        return name, round_number, on_show.answer


def index_of(exercises: list[Exercise], name: str) -> int | None:
    """The place of exercise `name` in `exercises`; None when this window lacks it."""
    return next((index for index, exercise in enumerate(exercises) if exercise.name == name), None)

"""The reveal: the learner's answer beside what the run measured, a mark per goal, the explanation, the spans.

Judged by the exercises' own rules (`overlapviz.exercises.grading`, `goals`, `measure`), on the
runs the window made: a prediction against what this run measured ("you said ~4 ms; measured
6.2 ms"), a challenge's limits on the learner's settings and its goals on the run, a quiz
against its answer. The score is the share of goals held (0 to 1).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from overlapviz.app.exercise_highlight import highlight_rows
from overlapviz.app.exercise_runs import ExerciseRuns, RunFailed
from overlapviz.app.exercise_text import figure_words, given_text, goal_text, limit_text, value_text
from overlapviz.core.config import PipelineConfig, format_size
from overlapviz.core.i18n import _, pgettext
from overlapviz.exercises import Exercise, ExerciseKind, Goal, Limit
from overlapviz.exercises.figures import figure_table, figure_value
from overlapviz.exercises.goals import GoalResult, check_goal, check_limit
from overlapviz.exercises.grading import tolerance_of
from overlapviz.exercises.measure import Measured, predicted_answer

Answer = str | float | None
NO_ROWS: npt.NDArray[np.int64] = np.zeros(0, dtype=np.int64)
RIGHT, NOT_YET = "\u2713", "\u2717"


@dataclass(frozen=True)
class Mark:
    """One goal (or limit, or the prediction) in words, and whether it held."""

    text: str
    passed: bool

    @property
    def line(self) -> str:
        """``✓ copy time hidden at least 50 %: measured 86.2 %``."""
        return f"{RIGHT if self.passed else NOT_YET} {self.text}"


@dataclass(frozen=True)
class Reveal:
    """What the panel shows once the answer is checked; `rows` are the spans of the run on show to outline."""

    passed: bool
    score: float
    said: str
    marks: tuple[Mark, ...]
    explanation: str
    rows: npt.NDArray[np.int64] = dataclasses.field(default_factory=lambda: NO_ROWS)

    @property
    def verdict(self) -> str:
        """``✓ Right`` or ``✗ Not this time``."""
        return _("{mark} Right").format(mark=RIGHT) if self.passed else _("{mark} Not this time").format(mark=NOT_YET)

    def pointing_at(self, runs: ExerciseRuns, exercise: Exercise) -> Reveal:
        """The same reveal, outlining the spans of `runs` that the explanation names."""
        view = runs.on_show.view
        return dataclasses.replace(self, rows=highlight_rows(exercise.highlight, view.trace, view.findings))


def grade_quiz(exercise: Exercise, answer: Answer) -> Reveal:
    """A quiz's answer against its own."""
    passed = answer is not None and answer == exercise.answer
    said = _("You chose {choice}; the answer is {answer}.").format(
        choice=_choice_words(exercise, answer), answer=_choice_words(exercise, exercise.answer)
    )
    return _reveal(exercise, (Mark(_("your answer"), passed),), said)


def reveal_of(
    exercise: Exercise, answer: Answer, runs: ExerciseRuns | RunFailed, settings: PipelineConfig | None = None
) -> Reveal:
    """A prediction, or a challenge run with the learner's `settings`, judged on `runs`.

    A refused run is one outcome a prediction may name; it fails a challenge's goals.
    """
    measured = _for_grading(runs)
    if exercise.kind is ExerciseKind.CHALLENGE:
        reveal = _challenge(exercise, settings, measured)
    else:
        reveal = _prediction(exercise, answer, measured)
    return reveal.pointing_at(runs, exercise) if isinstance(runs, ExerciseRuns) else reveal


def _for_grading(runs: ExerciseRuns | RunFailed) -> Measured:
    if isinstance(runs, RunFailed):
        return Measured((), (), refused=runs.reason)
    sides = list(runs.sides.values())
    return Measured(tuple(side.view.result for side in sides), tuple(side.report() for side in sides))


def _challenge(exercise: Exercise, settings: PipelineConfig | None, measured: Measured) -> Reveal:
    checked = exercise.limits if settings is not None else ()  # without the settings, no limit to check
    limits = [check_limit(limit, settings) for limit in checked] if settings is not None else []
    if measured.refused is not None:
        goals = [GoalResult(goal.describe(), None, False) for goal in exercise.goals]
        said = _("The run was refused: {reason}").format(reason=measured.refused)
    else:
        goals = [check_goal(goal, measured.reports[0]) for goal in exercise.goals]
        said = ""
    marks = [Mark(_limit_line(limit, result), result.passed) for limit, result in zip(checked, limits, strict=True)]
    marks += [Mark(_goal_line(goal, result), result.passed) for goal, result in zip(exercise.goals, goals, strict=True)]
    return _reveal(exercise, tuple(marks), said)


def _prediction(exercise: Exercise, answer: Answer, measured: Measured) -> Reveal:
    prediction = exercise.prediction
    expected = predicted_answer(exercise, measured)
    if prediction is not None and prediction.pick is None and isinstance(answer, float):
        figure = prediction.figure or ""
        margin = None if expected is None else tolerance_of(prediction, float(expected))
        passed = margin is not None and expected is not None and abs(answer - float(expected)) <= margin
        said = _("You said ~{guess}; measured {measured}.").format(
            guess=given_text(figure, answer), measured=value_text(figure, _number(expected))
        )
        written = prediction.tolerance is not None  # the file's own number, else a share of what was measured
        shown = "" if margin is None else (given_text if written else value_text)(figure, margin)
        guess = (
            _("your guess of the {figure} (within {margin} counts as right)")
            if shown
            else _("your guess of the {figure}")
        ).format(figure=figure_words(figure), margin=shown)
        return _reveal(exercise, (Mark(guess, passed),), said)
    passed = expected is not None and answer == expected
    said = _("You said {choice}; the run shows {shown}.").format(
        choice=_choice_words(exercise, answer), shown=_choice_words(exercise, expected)
    )
    figures = _choice_figures(exercise, measured)
    return _reveal(exercise, (Mark(_("your prediction"), passed),), f"{said} {figures}".strip())


def _choice_figures(exercise: Exercise, measured: Measured) -> str:
    """``Measured makespan: the pageable run 8.12 ms, the pinned run 0.95 ms.`` where choices name figures."""
    prediction = exercise.prediction
    if prediction is None or prediction.figure is None or not measured.reports:
        return _("The run was refused: {reason}").format(reason=measured.refused) if measured.refused else ""
    figure, parts = prediction.figure, []
    for choice in exercise.choices:
        if choice.side:
            index = "ab".index(choice.side)
            value = figure_value(measured.reports[index], figure) if index < len(measured.reports) else None
        else:
            value = figure_table(measured.reports["ab".index(prediction.side)], figure).get(choice.key)
        if value is not None:
            parts.append(f"{choice.text} {value_text(_unit_of(figure, choice.side), value)}")
    if not parts:
        return ""
    return _("Measured {figure}: {values}.").format(
        figure=figure_words(figure), values=pgettext("list", ", ").join(parts)
    )


def _unit_of(figure: str, side: str | None) -> str:
    return figure if side else f"{figure}.x"  # a table's keys carry the table's unit


def _goal_line(goal: Goal, result: GoalResult) -> str:
    measured = result.measured
    if not isinstance(measured, int | float):
        return _("{goal}: nothing measured").format(goal=goal_text(goal))
    return _("{goal}: measured {value}").format(goal=goal_text(goal), value=value_text(goal.figure, float(measured)))


def _limit_line(limit: Limit, result: GoalResult) -> str:
    yours = result.measured
    shown = format_size(yours) if limit.setting == "size" and isinstance(yours, int) else str(yours)
    return _("{limit}: yours is {value}").format(limit=limit_text(limit), value=shown)


def _choice_words(exercise: Exercise, key: object) -> str:
    if key is None:
        return _("nothing")
    text = next((choice.text for choice in exercise.choices if choice.key == key), str(key))
    return f"\u201c{text}\u201d"


def _number(value: object) -> float | None:
    return float(value) if isinstance(value, int | float) else None


def _reveal(exercise: Exercise, marks: tuple[Mark, ...], said: str) -> Reveal:
    score = sum(mark.passed for mark in marks) / len(marks) if marks else 0.0
    passed = bool(marks) and all(mark.passed for mark in marks)
    return Reveal(passed, score, said, marks, exercise.explanation.strip())

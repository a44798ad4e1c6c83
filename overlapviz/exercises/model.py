"""What an exercise is: its kind, its setup, what the learner answers and how it is judged.

Plain frozen values, read from the TOML files by `overlapviz.exercises.format` and judged by
`overlapviz.exercises.grading`; docs/exercises.md describes the file each one comes from.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from overlapviz.core.config import PipelineConfig


class ExerciseKind(StrEnum):
    """The three kinds of exercise."""

    PREDICT = "predict"  # guess what a run will show, then run it
    CHALLENGE = "challenge"  # choose settings that reach goals on measured figures
    QUIZ = "quiz"  # a question with no run


class Pick(StrEnum):
    """How a predict exercise's right choice follows from the measured run."""

    LOWEST = "lowest"  # the choice whose side (or key of a table figure) has the lowest figure
    HIGHEST = "highest"  # ... the highest
    FINDING = "finding"  # the choice whose finding code the run reports
    OUTCOME = "outcome"  # "runs" or "refused": whether the run was refused


OUTCOME_CHOICES = ("runs", "refused")  # the keys an outcome prediction's choices must have
COMPARISONS = ("<", "<=", ">", ">=", "==")


@dataclass(frozen=True, slots=True)
class Choice:
    """One answer the learner may pick: a short key and the words shown for it."""

    key: str
    text: str
    side: str | None = None  # for a prediction across a comparison's sides: "a" or "b"


@dataclass(frozen=True, slots=True)
class Setup:
    """What the exercise opens: a preset (with some settings changed) or a shipped trace."""

    preset: str | None = None  # a preset name; None for a trace
    trace: str | None = None  # a file name under assets/traces; None for a preset
    configs: tuple[PipelineConfig, ...] = ()  # the preset's configs (or the one `side` of them), [setup.config] applied
    labels: tuple[str, ...] = ()  # one per config ("a"/"b" sides keep the preset's labels)
    device: str | None = None  # the preset's device, if it names one
    backend: str | None = None  # the preset's backend, if it names one

    @property
    def sides(self) -> tuple[str, ...]:
        """``("a",)`` for one pipeline or a trace, ``("a", "b")`` for a comparison."""
        return ("a", "b")[: max(1, len(self.configs))]


@dataclass(frozen=True, slots=True)
class Prediction:
    """How a predict exercise's answer is measured, and the answer the file states.

    A choice prediction (`choices` given) picks by `pick`; a number prediction compares the
    learner's number with `figure` as measured, within `tolerance` (in the figure's unit) or
    `tolerance_pct` (percent of the measured value).
    """

    figure: str | None  # a run-report figure (see `overlapviz.exercises.figures`); None for FINDING/OUTCOME
    answer: str | float  # the right choice's key, or the number the model measures
    pick: Pick | None = None  # None for a number
    side: str = "a"  # the side a number (or a table figure's pick) is read from
    tolerance: float | None = None
    tolerance_pct: float | None = None


@dataclass(frozen=True, slots=True)
class Goal:
    """A figure of the measured run, a comparison and a value: ``copy_hidden_pct >= 80``."""

    figure: str
    compare: str
    value: float

    def describe(self) -> str:
        """``copy_hidden_pct >= 80``."""
        return f"{self.figure} {self.compare} {self.value:g}"


@dataclass(frozen=True, slots=True)
class Limit:
    """A bound on one of the learner's settings: ``chunks <= 8``, ``memory == pinned``."""

    setting: str  # a PipelineConfig field name
    compare: str
    value: int | str
    shown: str = ""  # the value as the file writes it ("32MiB"); empty: `value`

    def describe(self) -> str:
        """``chunks <= 8``, ``size == 32MiB``."""
        return f"{self.setting} {self.compare} {self.shown or self.value}"


@dataclass(frozen=True, slots=True)
class Exercise:
    """One exercise, as its file gives it."""

    name: str
    kind: ExerciseKind
    title: str
    question: str
    explanation: str  # shown after the learner answered: what the timeline shows
    setup: Setup | None  # None only for a quiz with nothing to show
    hints: tuple[str, ...] = ()
    highlight: tuple[str, ...] = ()  # span kinds ("h2d"), "finding:CODE", "span:NAME" to point at afterwards
    choices: tuple[Choice, ...] = ()  # predict (by choice) and quiz
    prediction: Prediction | None = None  # predict only
    answer: str | None = None  # quiz only: the right choice's key
    goals: tuple[Goal, ...] = ()  # challenge only
    limits: tuple[Limit, ...] = ()  # challenge only
    reference: PipelineConfig | None = None  # challenge only: settings that pass
    wrong: PipelineConfig | None = None  # challenge only: settings that fail
    lesson: str | None = None  # the preset whose lesson the exercise follows, if any

    @property
    def runs(self) -> bool:
        """Whether checking an answer runs (or opens) the setup."""
        return self.kind is not ExerciseKind.QUIZ

"""The exercise on show and its flow: choose, answer, run, reveal; hints one at a time.

Choosing a predict exercise puts its setup on the controls and takes the last run off the
timeline, so the answer is not on show before the learner commits to one; a challenge puts its
setup on the controls for the learner to change. Checking runs on the executor, the run path
every run of the window takes (never on the GUI thread): the setup for a prediction, the
controls for a challenge; a quiz is graded at once and its setup, if any, runs to show what
its explanation points at. The reveal (`exercise_reveal`) goes into the exercise on show, and
the score into the learner's progress (`exercise_progress`). A run the learner starts
meanwhile (live mode, the Run button) supersedes the check: the exercise asks again.
"""

from __future__ import annotations

import contextlib
import dataclasses
from dataclasses import dataclass
from enum import StrEnum

from overlapviz.app.events import Event
from overlapviz.app.executor import Job
from overlapviz.app.exercise_progress import ExerciseProgress
from overlapviz.app.exercise_reveal import Answer, Reveal, grade_quiz, reveal_of
from overlapviz.app.exercise_runs import ExerciseRuns, RunFailed, setup_sides, sides_job, trace_job
from overlapviz.app.lesson_plan import LessonUnavailableError
from overlapviz.app.model import Pinned, Shown
from overlapviz.app.pair_run import Side, SideRequest
from overlapviz.app.run_targets import RunTarget
from overlapviz.app.runs import NO_BACKEND, Controls, Runs
from overlapviz.core.config import PipelineConfig
from overlapviz.core.i18n import N_, _
from overlapviz.exercises import Exercise, ExerciseKind, Pick, Setup

__all__ = ["Answer", "ExerciseOnShow", "Exercising", "Phase"]
SUPERSEDED = N_("Another run took the check's place: run and check again.")
PREDICT_FIRST = N_("Predict first: the run shows once you run and check.")


class Phase(StrEnum):
    """Where the exercise on show stands."""

    ASKING = "asking"  # waiting for an answer, or for the learner to check
    RUNNING = "running"  # the check's run is on its way
    REVEALED = "revealed"  # the answer is checked: the reveal is on show


@dataclass(frozen=True)
class ExerciseOnShow:
    """The exercise chosen (its place in the list), the answer given, the hints shown, the phase, the reveal."""

    exercise: Exercise
    index: int
    answer: Answer = None
    hints: int = 0
    phase: Phase = Phase.ASKING
    reveal: Reveal | None = None

    @property
    def can_check(self) -> bool:
        """Whether Run and check (or Check) may be pressed: an answer is given where one is asked, nothing runs."""
        if self.phase is Phase.RUNNING:
            return False
        return self.exercise.kind is ExerciseKind.CHALLENGE or self.answer is not None


class Exercising:
    """The exercises, the one on show (`changed` gives it; None: none) and the learner's `progress`."""

    def __init__(
        self, runs: Runs, exercises: list[Exercise], progress: ExerciseProgress, targets: list[RunTarget],
        default: RunTarget | None,
    ) -> None:  # fmt: skip
        self._runs, self._model = runs, runs.model
        self.exercises = exercises
        self.progress = progress
        self._targets, self._default = targets, default
        self.changed: Event[ExerciseOnShow | None] = Event()
        self.on_show: ExerciseOnShow | None = None
        self._showing_own = False  # the check's own run is going on show
        self._model.shown_changed.connect(self._on_shown)

    def choose(self, index: int) -> bool:
        """Put exercise `index` on show, its hints as far as the learner had read them, its setup on the controls."""
        if not 0 <= index < len(self.exercises):
            return False
        exercise = self.exercises[index]
        self._set(ExerciseOnShow(exercise, index, hints=self.progress.record(exercise.name).hints))
        setup = exercise.setup
        if exercise.kind is not ExerciseKind.QUIZ and setup is not None and setup.configs:
            self._put_on_controls(setup)
        if exercise.kind is ExerciseKind.QUIZ:
            return True
        self._model.set_pinned(None)
        if exercise.kind is ExerciseKind.PREDICT:
            self._runs.clear_result()  # the answer is not on show before the learner gives one
            self._runs.messages.show_notice(_(PREDICT_FIRST))
        elif self._model.live:  # a challenge's starting point, as any change of the controls runs in live mode
            self._runs.run()
        return True

    def close(self) -> None:
        """No exercise on show."""
        self._set(None)

    def answer(self, value: Answer) -> None:
        """The learner's answer so far (None: none); a checked answer stands."""
        now = self.on_show
        if now is not None and now.phase is Phase.ASKING:
            self._set(dataclasses.replace(now, answer=value))

    def show_hint(self) -> bool:
        """Reveal the next hint; False when every hint is on show."""
        now = self.on_show
        if now is None or now.hints >= len(now.exercise.hints):
            return False
        self.progress.note_hint(now.exercise.name, now.hints + 1)
        self._set(dataclasses.replace(now, hints=now.hints + 1))
        return True

    def try_again(self) -> None:
        """Ask the exercise on show afresh (the answer cleared, the hints kept)."""
        now = self.on_show
        if now is not None:
            self.choose(now.index)

    def check(self) -> bool:
        """Run and check (Check, for a quiz); False when there is nothing to check yet."""
        now = self.on_show
        if now is None or not now.can_check:
            return False
        exercise = now.exercise
        if exercise.kind is ExerciseKind.QUIZ:
            reveal = grade_quiz(exercise, now.answer)
            self._reveal(now, reveal)
            if exercise.setup is not None:  # to point at what the explanation names
                self._submit(dataclasses.replace(now, phase=Phase.REVEALED, reveal=reveal))
            return True
        return self._submit(dataclasses.replace(now, phase=Phase.RUNNING))

    def _submit(self, state: ExerciseOnShow) -> bool:
        job = self._job(state.exercise)
        if job is None:
            return False
        self._set(state)
        settings = self._model.config  # a challenge's limits are on the settings it ran with
        self._runs.submit(job, lambda measured: self._on_measured(state, measured, settings))
        return True

    def _job(self, exercise: Exercise) -> Job[ExerciseRuns | RunFailed] | None:
        setup = exercise.setup
        if exercise.kind is ExerciseKind.CHALLENGE or setup is None:
            target = self._model.target
            if target is None:
                self._runs.messages.show_error(_(NO_BACKEND))
                return None
            sides: tuple[SideRequest, ...] = (SideRequest(self._model.config, target),)
        elif setup.trace is not None:
            return trace_job(setup.trace)
        else:
            try:
                sides = setup_sides(setup, self._targets, self._default)
            except LessonUnavailableError as error:
                self._runs.messages.show_error(str(error))
                return None
            self._runs.apply(Controls(sides[-1].config, sides[-1].target))
        return sides_job(sides, self._runs.run_function())

    def _on_measured(self, asked: ExerciseOnShow, measured: ExerciseRuns | RunFailed, settings: PipelineConfig) -> None:
        now = self.on_show
        if now is None or now.exercise is not asked.exercise or now.phase is not asked.phase:
            return  # the learner moved on meanwhile
        if isinstance(measured, RunFailed) and not _refusal_answers(now.exercise):
            self._runs.messages.show_error(
                _("The exercise's run did not complete: {reason}").format(reason=measured.reason)
            )
            self._set(dataclasses.replace(now, phase=Phase.ASKING))
            return
        if isinstance(measured, ExerciseRuns):
            self._show(measured)
            if now.phase is Phase.REVEALED and now.reveal is not None:  # a quiz: its run only points
                self._set(dataclasses.replace(now, reveal=now.reveal.pointing_at(measured, now.exercise)))
                return
        self._reveal(now, reveal_of(now.exercise, now.answer, measured, settings))

    def _reveal(self, now: ExerciseOnShow, reveal: Reveal) -> None:
        self.progress.note_attempt(now.exercise.name, reveal.score, reveal.passed)
        self._set(dataclasses.replace(now, phase=Phase.REVEALED, reveal=reveal))

    def _show(self, measured: ExerciseRuns) -> None:
        self._showing_own = True
        try:
            sides = measured.sides
            if "b" in sides:
                a = sides["a"]
                self._model.set_pinned(Pinned(Side(a.view, a.label, a.source)))
            else:
                self._model.set_pinned(None)
            shown = measured.on_show
            self._runs.show(Shown(shown.view, shown.source, shown.label if "b" in sides else ""))
        finally:
            self._showing_own = False

    def _on_shown(self, _shown: Shown | None) -> None:
        now = self.on_show
        if self._showing_own or now is None or now.phase is not Phase.RUNNING:
            return
        self._runs.messages.show_notice(_(SUPERSEDED))
        self._set(dataclasses.replace(now, phase=Phase.ASKING))

    def _put_on_controls(self, setup: Setup) -> None:
        target = self._model.target
        with contextlib.suppress(LessonUnavailableError):  # said when the learner checks
            target = setup_sides(setup, self._targets, self._default)[-1].target
        self._model.set_lesson(None)
        self._runs.apply(Controls(setup.configs[-1], target))

    def _set(self, state: ExerciseOnShow | None) -> None:
        self.on_show = state
        self.changed.emit(state)


def _refusal_answers(exercise: Exercise) -> bool:
    """Whether a refused run is itself the measurement: a challenge's goals fail, an outcome is "refused"."""
    prediction = exercise.prediction
    return exercise.kind is ExerciseKind.CHALLENGE or (prediction is not None and prediction.pick is Pick.OUTCOME)

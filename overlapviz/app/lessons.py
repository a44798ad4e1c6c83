"""Runs a lesson: its words in the model (the lesson on show), its pipeline(s) on show.

A comparison lesson opens the comparison (A pinned, B on show); a single one shows its run
alone. Each runs on the lesson's own device(s) (see `lesson_plan`). A run the backend refuses
(the RAM guard, say) shows its reason in the window's error strip, with the lesson's words
beside the empty timeline.
"""

from __future__ import annotations

from overlapviz.app.comparing import Comparing
from overlapviz.app.lesson_plan import LessonUnavailableError, plan_lesson
from overlapviz.app.model import LessonOnShow
from overlapviz.app.run_targets import RunTarget
from overlapviz.app.runs import Controls, Runs
from overlapviz.presets import Preset


class Lessons:
    """The lessons in order, and stepping through them."""

    def __init__(
        self, runs: Runs, compare: Comparing, lessons: list[Preset], targets: list[RunTarget],
        default: RunTarget | None,
    ) -> None:  # fmt: skip
        self._runs = runs
        self._model = runs.model
        self._compare = compare
        self._targets = targets
        self._default = default
        self.lessons = lessons

    @property
    def index(self) -> int | None:
        """The lesson on show (from 0), if any."""
        lesson = self._model.lesson
        return None if lesson is None else lesson.index

    def current(self) -> Preset | None:
        """The lesson on show, if any."""
        lesson = self._model.lesson
        return None if lesson is None else lesson.preset

    def start(self, index: int) -> bool:
        """Show lesson `index` (from 0) and run it."""
        if not 0 <= index < len(self.lessons):
            return False
        preset = self.lessons[index]
        try:
            plan = plan_lesson(preset, self._targets, self._default)
        except LessonUnavailableError as error:
            self._runs.messages.show_error(str(error))
            return False
        self._runs.messages.clear_error()
        self._runs.clear_result()
        self._compare.unpin()
        self._model.set_lesson(LessonOnShow(preset, index, len(self.lessons), plan.note))
        if len(plan.sides) == 2:
            self._compare.run_pair((plan.sides[0], plan.sides[1]), f"{preset.lesson}. {preset.title}")
        else:
            side = plan.sides[0]
            self._runs.apply(Controls(side.config, side.target))
            self._runs.run()
        return True

    def next(self) -> bool:
        """The next lesson (the first when none is on show)."""
        index = self.index
        return self.start(0 if index is None else index + 1)

    def previous(self) -> bool:
        """The previous lesson (the first when none is on show)."""
        index = self.index
        return self.start(0 if index is None else index - 1)

    def close(self) -> None:
        """No lesson on show."""
        self._model.set_lesson(None)

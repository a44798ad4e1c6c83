"""Runs a lesson in the window: its words in the lesson panel, its pipeline(s) on the timeline.

A comparison lesson opens the comparison (A pinned, B on show); a single one shows its run
alone. Each runs on the lesson's own device(s) (see `lesson_plan`). A run the backend refuses
(the RAM guard, say) shows its reason in the window's error strip, with the lesson's words
beside the empty timeline.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from overlapviz.app.lesson_plan import LessonUnavailableError, plan_lesson
from overlapviz.presets import Preset, PresetError, lessons

if TYPE_CHECKING:
    from overlapviz._qt.main_window import MainWindow
    from overlapviz._qt.teaching.compare_controller import CompareController


class LessonController(QObject):
    """The lessons in order and the one on show; `started` gives (preset, index, count)."""

    started = Signal(object, int, int)

    def __init__(self, window: MainWindow, compare: CompareController) -> None:
        super().__init__(window)
        self._window = window
        self._compare = compare
        self._index: int | None = None
        try:
            self.lessons: list[Preset] = lessons()
        except PresetError as error:
            self.lessons = []
            window.show_error(f"The lessons could not be read: {error}")
        window.lesson_panel.previous_clicked.connect(self.previous)
        window.lesson_panel.next_clicked.connect(self.next)

    @property
    def index(self) -> int | None:
        """The lesson on show (from 0), if any."""
        return self._index

    def current(self) -> Preset | None:
        """The lesson on show, if any."""
        return None if self._index is None else self.lessons[self._index]

    def start(self, index: int) -> bool:
        """Show lesson `index` (from 0) and run it."""
        if not 0 <= index < len(self.lessons):
            return False
        preset = self.lessons[index]
        window = self._window
        targets = window.targets()
        try:
            plan = plan_lesson(preset, targets, window.default_target())
        except LessonUnavailableError as error:
            window.show_error(str(error))
            return False
        self._index = index
        window.banner.clear()
        window.clear_result()
        window.lesson_panel.show_lesson(preset, index, len(self.lessons), plan.note)
        self._compare.unpin()
        if len(plan.sides) == 2:
            self._compare.run_pair((plan.sides[0], plan.sides[1]), f"{preset.lesson}. {preset.title}")
        else:
            side = plan.sides[0]
            window.controls.set_config(side.config)
            window.select_target(side.target.backend, side.target.device)
            window.runner.request(side.config, side.target.backend, side.target.device)
        self.started.emit(preset, index, len(self.lessons))
        return True

    def next(self) -> bool:
        """The next lesson (the first when none is on show)."""
        return self.start(0 if self._index is None else self._index + 1)

    def previous(self) -> bool:
        """The previous lesson (the first when none is on show)."""
        return self.start(0 if self._index is None else self._index - 1)

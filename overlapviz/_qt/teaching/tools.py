"""The window's teaching tools, wired together.

Compare, lessons, presentation, replay, explanations on the timeline and the bandwidth
plot. Each tool owns its own module; this one creates them for a window and connects them to its
actions, so the window only has to make room for them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject

from overlapviz._qt.bandwidth.bandwidth_dialog import BandwidthDialog
from overlapviz._qt.teaching.compare_controller import CompareController
from overlapviz._qt.teaching.lesson_controller import LessonController
from overlapviz._qt.teaching.presentation import PresentationMode
from overlapviz._qt.teaching.replay import ReplayController
from overlapviz._qt.teaching.teaching_actions import build_teaching_actions
from overlapviz._qt.themes import get_theme
from overlapviz.app.pair_run import RunFunction

if TYPE_CHECKING:
    from overlapviz._qt.main_window import MainWindow


class TeachingTools(QObject):
    """Creates and connects the teaching tools of `window`."""

    def __init__(self, window: MainWindow, run_function: RunFunction) -> None:
        super().__init__(window)
        self._window = window
        self.compare = CompareController(window, run_function)
        self.lessons = LessonController(window, self.compare)
        self.replay = ReplayController(window.compare.timelines, self)
        self.presentation = PresentationMode(window, self.lessons, self.replay)
        self.actions = build_teaching_actions(window, self.lessons.lessons)
        self.bandwidth: BandwidthDialog | None = None
        self._connect()

    def _connect(self) -> None:
        a, w = self.actions, self._window
        a.pin_a.triggered.connect(self.compare.pin_current)
        a.pageable_vs_pinned.triggered.connect(self.compare.pageable_vs_pinned)
        a.unpin.triggered.connect(self.compare.unpin)
        self.compare.changed.connect(a.unpin.setEnabled)
        a.explanations.toggled.connect(w.compare.set_explanations)
        a.replay_play.triggered.connect(lambda _checked: self.toggle_replay())
        a.replay_restart.triggered.connect(self.replay.restart)
        a.replay_speed.currentIndexChanged.connect(self.replay.set_speed)
        self.replay.playing_changed.connect(a.replay_play.setChecked)
        w.timeline_drawn.connect(self.replay.stop)
        self.compare.changed.connect(lambda _comparing: self.replay.stop())
        a.bandwidth.triggered.connect(self.open_bandwidth)
        a.presentation.triggered.connect(lambda _checked: self.presentation.toggle())
        self.presentation.changed.connect(a.presentation.setChecked)
        for index, action in enumerate(a.lessons):
            action.triggered.connect(lambda _checked, i=index: self.lessons.start(i))
        a.next_lesson.triggered.connect(self.lessons.next)
        a.previous_lesson.triggered.connect(self.lessons.previous)

    def toggle_replay(self) -> None:
        """Play or pause the replay; the button shows whether it plays (not with nothing to play)."""
        self.replay.toggle()
        self.actions.replay_play.setChecked(self.replay.playing)

    def open_bandwidth(self) -> BandwidthDialog | None:
        """Open the bandwidth plot for the chosen device and sweep it."""
        target = self._window.controls.target()
        if target is None:
            self._window.show_error("No backend can run here: see `overlapviz devices` for why.")
            return None
        self.close_bandwidth()
        dialog = BandwidthDialog(target, get_theme(self._window.theme_name()), self._window)
        self.bandwidth = dialog
        dialog.show()
        dialog.sweep()
        return dialog

    def close_bandwidth(self) -> None:
        """Close the bandwidth plot, if open (its sweep thread stops)."""
        if self.bandwidth is not None:
            self.bandwidth.close()
            self.bandwidth.deleteLater()
            self.bandwidth = None

    def shutdown(self) -> None:
        """Stop the replay, leave presentation mode and stop the sweep thread."""
        self.replay.stop()
        self.presentation.leave()
        self.close_bandwidth()

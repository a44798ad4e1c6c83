"""The window's teaching tools, wired together.

Compare, lessons, presentation, replay, explanations on the timeline and the bandwidth
plot. What each does is the controller's (`app.comparing`, `app.lessons`) or its own view's
module; this one creates the views for a window, connects the actions to the controller and
keeps the actions' checks in step with the model, so the window only has to make room.
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QObject
from PySide6.QtWidgets import QMainWindow

from overlapviz._qt.bandwidth.bandwidth_dialog import BandwidthDialog
from overlapviz._qt.teaching.compare_panel import ComparePanel
from overlapviz._qt.teaching.lesson_panel import LessonPanel
from overlapviz._qt.teaching.presentation import PresentationHost, PresentationMode
from overlapviz._qt.teaching.replay import ReplayController
from overlapviz._qt.teaching.teaching_actions import build_teaching_actions
from overlapviz._qt.themes import get_theme
from overlapviz._qt.translation import translate
from overlapviz._qt.widgets.font_scale import FontScale
from overlapviz.app.controller import AppController
from overlapviz.app.lab_connection import is_lab
from overlapviz.app.model import CompareAxis
from overlapviz.app.run_targets import RunTarget
from overlapviz.app.runs import NO_BACKEND
from overlapviz.core.i18n import _

# The sweep times copies on a device of this machine; the lab server runs pipelines only, so on
# the lab GPU the action is off rather than measuring something other than what the window shows.
# (In English; shown translated. QT_TRANSLATE_NOOP marks it for the catalogue and gives it back unchanged.)
BANDWIDTH_HERE_ONLY = str(
    QT_TRANSLATE_NOOP(
        "TeachingTools",
        "Bandwidth vs transfer size measures a device of this machine, not the lab GPU:"
        " choose one of this machine's devices in Run on to sweep it",
    )
)


class TeachingTools(QObject):
    """Creates the teaching tools' views and actions on `window` and connects them to `controller`."""

    def __init__(
        self, window: QMainWindow, host: PresentationHost, controller: AppController, compare: ComparePanel,
        lesson_panel: LessonPanel, fonts: FontScale | None,
    ) -> None:  # fmt: skip
        super().__init__(window)
        self._window = window
        self._host = host
        self._controller = controller
        self._model = controller.model
        self.compare = controller.compare
        self.lessons = controller.lessons
        self.replay = ReplayController(compare.timelines, self)
        self.presentation = PresentationMode(host, self._model, self.lessons, fonts, self.toggle_replay, self)
        self.actions = build_teaching_actions(window, self.lessons.lessons)
        self.bandwidth: BandwidthDialog | None = None
        self._connect(lesson_panel)

    def _connect(self, panel: LessonPanel) -> None:
        a, m, ctl = self.actions, self._model, self._controller
        a.pin_a.triggered.connect(self.compare.pin_current)
        a.pageable_vs_pinned.triggered.connect(self.compare.pageable_vs_pinned)
        a.unpin.triggered.connect(self.compare.unpin)
        a.shared_axis.triggered.connect(lambda: self.compare.set_axis(CompareAxis.SHARED))
        a.own_axis.triggered.connect(lambda: self.compare.set_axis(CompareAxis.OWN))
        m.axis_changed.connect(self._show_axis)
        self._show_axis(m.axis)
        m.pinned_changed.connect(lambda pinned: a.unpin.setEnabled(pinned is not None))
        m.pinned_changed.connect(lambda _pinned: self.replay.stop())
        a.explanations.toggled.connect(ctl.set_explanations)
        a.replay_play.triggered.connect(lambda _checked: self.toggle_replay())
        a.replay_restart.triggered.connect(self.replay.restart)
        a.replay_speed.currentIndexChanged.connect(self.replay.set_speed)
        self.replay.playing_changed.connect(a.replay_play.setChecked)
        m.shown_changed.connect(lambda _shown: self.replay.stop())
        a.bandwidth.triggered.connect(self.open_bandwidth)
        self._bandwidth_tip = a.bandwidth.toolTip()
        m.target_changed.connect(self._show_bandwidth_reach)
        self._show_bandwidth_reach(m.target)
        a.presentation.triggered.connect(lambda _checked: self.presentation.toggle())
        m.presenting_changed.connect(a.presentation.setChecked)
        for index, action in enumerate(a.lessons):
            action.triggered.connect(lambda _checked, i=index: self.lessons.start(i))
        a.next_lesson.triggered.connect(self.lessons.next)
        a.previous_lesson.triggered.connect(self.lessons.previous)
        panel.previous_clicked.connect(self.lessons.previous)
        panel.next_clicked.connect(self.lessons.next)
        panel.close_clicked.connect(self.lessons.close)
        m.lesson_changed.connect(panel.show_lesson)

    def _show_axis(self, axis: CompareAxis) -> None:
        (self.actions.shared_axis if axis is CompareAxis.SHARED else self.actions.own_axis).setChecked(True)

    def _show_bandwidth_reach(self, target: RunTarget | None) -> None:
        on_lab = is_lab(target)
        self.actions.bandwidth.setEnabled(not on_lab)
        here_only = translate("TeachingTools", BANDWIDTH_HERE_ONLY)
        self.actions.bandwidth.setToolTip(here_only if on_lab else self._bandwidth_tip)

    def toggle_replay(self) -> None:
        """Play or pause the replay; the button shows whether it plays (not with nothing to play)."""
        self.replay.toggle()
        self.actions.replay_play.setChecked(self.replay.playing)

    def open_bandwidth(self) -> BandwidthDialog | None:
        """Open the bandwidth plot for the chosen device and sweep it."""
        target = self._model.target
        if target is None:
            self._controller.runs.messages.show_error(_(NO_BACKEND))
            return None
        if is_lab(target):
            self._controller.runs.messages.show_error(translate("TeachingTools", BANDWIDTH_HERE_ONLY))
            return None
        self.close_bandwidth()
        dialog = BandwidthDialog(target, get_theme(self._host.theme_name()), self._window)
        self.bandwidth = dialog
        dialog.show()
        dialog.sweep()
        return dialog

    def close_bandwidth(self) -> None:
        """Close the bandwidth plot, if open (its sweep thread stops)."""
        if self.bandwidth is not None:
            self.bandwidth.shutdown()  # hidden with Esc, the dialog gets no close event to stop its thread
            self.bandwidth.close()
            self.bandwidth.deleteLater()
            self.bandwidth = None

    def shutdown(self) -> None:
        """Stop the replay, leave presentation mode and stop the sweep thread."""
        self.replay.stop()
        self.presentation.leave()
        self.close_bandwidth()

"""The Exercises dock on the window (View ▸ Exercises, F7), wired to the session, the timeline and the step-through.

The session (`app.exercise_session`) runs a check through the window's controller, so it runs
on the backend the window runs on, off the GUI thread; the reveal outlines the spans the
explanation names on the timeline, as a finding clicked in the metrics panel does. The dock
stays on show in presentation mode, in its large type, so an exercise can be put to a room.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QColor, QFont, QKeySequence
from PySide6.QtWidgets import QDockWidget, QMainWindow

from overlapviz._qt.exercises.exercise_panel import ExercisePanel
from overlapviz._qt.exercises.step_through import StepThroughView
from overlapviz._qt.teaching.window_menus import view_menu
from overlapviz._qt.themes import Theme
from overlapviz._qt.timeline.widget import TimelineWidget
from overlapviz._qt.translation import translate
from overlapviz._qt.widgets.font_scale import FontScale
from overlapviz.app.controller import AppController
from overlapviz.app.exercise_progress import ExerciseProgress
from overlapviz.app.exercise_session import ExerciseOnShow, Exercising, Phase
from overlapviz.app.exercise_steps import StepThrough
from overlapviz.app.main_view import MainView
from overlapviz.app.ports import SettingsStore
from overlapviz.exercises import Exercise, ExerciseError, load_exercises

SHORTCUT = "F7"
# The verdict's colours: green and red that read on the light, projector and dark backgrounds.
VERDICT_COLOURS = {True: ("#1A7F37", "#3FB950"), False: ("#CF222E", "#FF7B72")}


class ExerciseDock(QObject):
    """Builds the dock, its View menu entry and the session on `window`, and connects them."""

    def __init__(
        self, window: QMainWindow, controller: AppController, store: SettingsStore, timeline: TimelineWidget,
        fonts: FontScale | None, view: MainView,
    ) -> None:  # fmt: skip
        super().__init__(window)
        self._timeline, self._view, self._model = timeline, view, controller.model
        progress = ExerciseProgress(store)
        targets = controller.targets
        self.session = Exercising(controller.runs, self._load(), progress, targets, controller.default_target)
        self.panel = ExercisePanel()
        self.dock = self._dock(window)
        self.action = self._action(window)
        self.steps = StepThrough()
        self.step_view = StepThroughView(self.steps, timeline, self._model, self)
        self._dark = False
        self._connect()
        if fonts is not None:
            fonts.changed.connect(self._follow_font)
        if progress.note:
            view.show_notice(progress.note)
        self._show_list()
        self.panel.detail.show_exercise(None)

    def _dock(self, window: QMainWindow) -> QDockWidget:
        dock = QDockWidget(translate("ExerciseDock", "Exercises"), window)
        dock.setObjectName("exercises_dock")
        dock.setWidget(self.panel)
        dock.setMinimumWidth(380)
        window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
        dock.hide()
        return dock

    def _action(self, window: QMainWindow) -> QAction:
        action = self.dock.toggleViewAction()
        action.setText(translate("ExerciseDock", "E&xercises"))
        action.setShortcut(QKeySequence(SHORTCUT))
        action.setStatusTip(
            translate("ExerciseDock", "Predict what a run will show, then run it and check; challenges; quizzes")
        )
        view = view_menu(window)
        if view is not None:
            view.addSeparator()
            view.addAction(action)
        window.addAction(action)  # its key works with the menu bar hidden (presentation mode)
        return action

    def _connect(self) -> None:
        s, panel, detail = self.session, self.panel, self.panel.detail
        panel.chosen.connect(s.choose)
        panel.reset_clicked.connect(s.progress.reset)
        detail.answered.connect(s.answer)
        detail.check_clicked.connect(s.check)
        detail.hint_clicked.connect(s.show_hint)
        detail.again_clicked.connect(s.try_again)
        detail.steps_clicked.connect(self.step_through)
        s.changed.connect(self._show)
        s.progress.changed.connect(lambda _name: self._show_list())
        self.steps.moved.connect(panel.steps.show_stop)
        panel.steps.next_clicked.connect(self.steps.next)
        panel.steps.previous_clicked.connect(self.steps.previous)
        panel.steps.leave_clicked.connect(self.steps.leave)

    def _load(self) -> list[Exercise]:
        try:
            return list(load_exercises().values())
        except ExerciseError as error:
            unread = translate("ExerciseDock", "The exercises could not be read: {error}")
            self._view.show_error(unread.format(error=error))
            return []

    def set_exercises(self, exercises: list[Exercise]) -> None:
        """Offer `exercises` instead (a course's own, a test's); none is on show."""
        self.session.close()
        self.session.exercises = list(exercises)
        self._show_list()

    def open(self) -> None:
        """Show the dock, as View ▸ Exercises does."""
        self.dock.show()
        self.dock.raise_()

    def step_through(self) -> bool:
        """Step through the findings of the run on show; False (and why) when it has none."""
        shown = self._model.shown
        if shown is None or not self.step_view.start(shown.view, self._outline_reveal):
            self._view.show_notice(translate("ExerciseDock", "This run has no findings to step through."))
            return False
        return True

    def _show(self, on_show: ExerciseOnShow | None) -> None:
        self.steps.leave()
        self.panel.detail.show_exercise(on_show)
        self.panel.mark_current(None if on_show is None else on_show.index)
        self._colour_verdict(on_show)
        self._outline_reveal()

    def _outline_reveal(self) -> None:
        on_show = self.session.on_show
        reveal = None if on_show is None or on_show.phase is not Phase.REVEALED else on_show.reveal
        self._timeline.highlight_rows(() if reveal is None else reveal.rows)

    def _show_list(self) -> None:
        self.panel.show_exercises(self.session.exercises, self.session.progress)
        on_show = self.session.on_show
        self.panel.mark_current(None if on_show is None else on_show.index)

    def _colour_verdict(self, on_show: ExerciseOnShow | None) -> None:
        reveal = None if on_show is None else on_show.reveal
        if reveal is None:
            return
        colour = VERDICT_COLOURS[reveal.passed][1 if self._dark else 0]
        self.panel.detail.verdict.setStyleSheet(f"color: {colour};")

    def set_theme(self, theme: Theme) -> None:
        """Colour the verdict for `theme`'s background."""
        self._dark = QColor(theme.background).lightness() < 128
        self._colour_verdict(self.session.on_show)

    def _follow_font(self, font: QFont) -> None:
        self.panel.set_font(font)

    def shutdown(self) -> None:
        """Stop taking the step-through's keys."""
        self.step_view.shutdown()

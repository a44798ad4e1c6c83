"""View ▸ Time window and the drag along the time axis, wired to the controller's `Windowing`.

The menu offers the whole trace, the span the timeline shows and each named range of the run on
show (of both runs when comparing, A's own after B's); the one whose figures are on show is
checked. A span dragged out on either timeline's axis is chosen as the window; Esc (the "Whole
trace" shortcut) drops a drag in progress and puts the whole run back.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QActionGroup

from overlapviz._qt.menus import WindowActions
from overlapviz._qt.timeline.widget import TimelineWidget
from overlapviz.app.model import AppModel
from overlapviz.app.time_window import window_choices
from overlapviz.app.time_window_control import Windowing


class TimeWindowMenu(QObject):
    """Keeps View ▸ Time window in step with the runs on show; hands choices and drags to `windows`.

    `timelines` are those whose axes measure a window by dragging, the window's own (B's) first.
    """

    def __init__(
        self, actions: WindowActions, model: AppModel, windows: Windowing, timelines: Sequence[TimelineWidget],
        parent: QObject | None = None,
    ) -> None:  # fmt: skip
        super().__init__(parent)
        self._actions = actions
        self._model = model
        self._windows = windows
        self._timelines = list(timelines)
        self._group = QActionGroup(self)
        self._range_actions: list[QAction] = []
        actions.whole_trace.setCheckable(True)
        self._group.addAction(actions.whole_trace)
        actions.time_window_menu.addActions([actions.whole_trace, actions.window_on_show])
        actions.whole_trace.triggered.connect(self.whole_trace)
        actions.window_on_show.triggered.connect(self._span_on_show)
        for timeline in self._timelines:
            timeline.window_dragged.connect(windows.choose_span)
        model.shown_changed.connect(lambda _shown: self.refresh())
        model.pinned_changed.connect(lambda _pinned: self.refresh())
        self.refresh()

    def whole_trace(self) -> None:
        """Drop any drag in progress; the figures of the whole run (runs, when comparing) again."""
        for timeline in self._timelines:
            timeline.window_drag.cancel()
        self._windows.whole_trace()

    def refresh(self) -> None:
        """The menu for the runs on show: their ranges, the window on show checked."""
        a, shown, pinned = self._actions, self._model.shown, self._model.pinned
        menu = a.time_window_menu
        for action in self._range_actions:
            menu.removeAction(action)
            self._group.removeAction(action)
            action.deleteLater()
        self._range_actions = []
        traces = [] if shown is None else [(shown.whole or shown.view).trace]
        if pinned is not None and shown is not None:
            traces.append(pinned.lined_up.trace)
        windows = (None if shown is None else shown.window, None if pinned is None else pinned.window)
        chosen = {window.name for window in windows if window is not None}
        a.whole_trace.setChecked(not chosen)
        names = window_choices(*traces)
        if names:
            self._range_actions.append(menu.addSeparator())
        for name in names:
            action = menu.addAction(name.replace("&", "&&"))
            action.setCheckable(True)
            action.setChecked(name in chosen)
            action.triggered.connect(partial(self._choose_range, name))
            self._group.addAction(action)
            self._range_actions.append(action)
        menu.setEnabled(shown is not None)

    def _choose_range(self, name: str, _checked: bool = False) -> None:
        self._windows.choose_range(name)

    def _span_on_show(self) -> None:
        self._windows.choose_span(*self._timelines[0].view_range_ms())

"""Step through on the timeline: the replay's cursor at each finding, its spans outlined, the keys to move.

While a step-through is on, Right or N goes to the next finding, Left or P to the one before and
Esc leaves; the keys are taken before any widget sees them (a focused timeline would pan), as
presentation mode takes its own. The filter is installed again when presentation mode starts,
so that the step-through's keys come first there too (the filter installed last is asked first).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QApplication

from overlapviz._qt.timeline.widget import TimelineWidget
from overlapviz._qt.widgets.taken_keys import take_key
from overlapviz.app.exercise_steps import StepThrough, Stop
from overlapviz.app.model import AppModel
from overlapviz.view.prepared import PreparedView


class StepThroughView(QObject):
    """Shows `steps` on `timeline`; takes the keys while a stop is on show."""

    def __init__(
        self, steps: StepThrough, timeline: TimelineWidget, model: AppModel, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self._steps, self._timeline = steps, timeline
        self._outline_after: Callable[[], object] = lambda: timeline.highlight_rows(())
        self._keys: dict[Qt.Key, Callable[[], object]] = {
            Qt.Key.Key_Right: steps.next, Qt.Key.Key_N: steps.next,
            Qt.Key.Key_Left: steps.previous, Qt.Key.Key_P: steps.previous,
            Qt.Key.Key_Escape: steps.leave,
        }  # fmt: skip
        steps.moved.connect(self._show)
        model.shown_changed.connect(lambda _shown: steps.leave())  # its stops were of the run before
        model.presenting_changed.connect(lambda _presenting: self._listen(steps.active))

    def start(self, view: PreparedView, outline_after: Callable[[], object]) -> bool:
        """Step through the findings of `view`; `outline_after` puts back the outlines once the steps end."""
        self._outline_after = outline_after
        return self._steps.start(view)

    def _show(self, stop: Stop | None) -> None:
        self._listen(stop is not None)
        if stop is None:
            self._timeline.set_cursor_ms(None)
            self._outline_after()
            return
        self._timeline.set_cursor_ms(stop.cursor_ms)
        self._timeline.highlight_rows(stop.rows)

    def _listen(self, on: bool) -> None:
        app = QApplication.instance()
        if app is None:
            return
        app.removeEventFilter(self)
        if on:
            app.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        """Take the step keys before any widget or shortcut does."""
        return take_key(event, self._keys)

    def shutdown(self) -> None:
        """Stop taking keys."""
        self._listen(False)

"""A new picture painted in a turn of the event loop of its own, after the turn that built it.

Showing a big trace takes the GUI thread two long steps: building the picture's items
(10 to 15 ms for a trace of 10^6 spans, on a 2-core machine) and painting them (15 to 20 ms). Qt
handles the paint it posts before the timers and the input that came due meanwhile, so the
two ran as one stretch in which the window answered nothing: over 40 ms with another thread
busy. Held here, the paint waits for a timer: the timers and the input that came due while the
picture was built are handled first (`_qt.event_turns` says why a zero-time
`QTimer.singleShot` would not do). Then the paint has a turn of its own, and no stretch
takes the time of both.

While held, the widget is not painted, nor is it in a grab of its window: whoever waits
for the new picture waits for `when_released`.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Qt, QTimer
from PySide6.QtWidgets import QWidget

from overlapviz._qt.event_turns import TURN_MS


class PaintTurn(QObject):
    """Holds `widget`'s painting from `hold` until `TURN_MS` later; `when_released` calls back after."""

    def __init__(self, widget: QWidget, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._widget = widget
        self._waiting: list[Callable[[], None]] = []
        self._timer = QTimer(self, singleShot=True, interval=TURN_MS)
        self._timer.setTimerType(Qt.TimerType.PreciseTimer)
        self._timer.timeout.connect(self._release)

    @property
    def holding(self) -> bool:
        """Whether the widget's painting is held now."""
        return self._timer.isActive()

    def hold(self) -> None:
        """Hold the painting until the next turn (a hold already under way is kept, not made longer)."""
        if not self._timer.isActive():
            self._widget.setUpdatesEnabled(False)
            self._timer.start()

    def when_released(self, then: Callable[[], None]) -> None:
        """Call `then` once the widget may paint: now where nothing is held."""
        if self._timer.isActive():
            self._waiting.append(then)
        else:
            then()

    def _release(self) -> None:
        self._widget.setUpdatesEnabled(True)  # Qt paints it whole on its next turn
        waiting, self._waiting = self._waiting, []
        for then in waiting:
            then()

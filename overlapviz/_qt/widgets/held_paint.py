"""A window's painting held while it changes, so that its first paint after shows the final layout.

A change of theme, text size and window state (presentation mode) makes several layout passes:
the style sheet and the font resize every widget, the window manager resizes the window some
time after `showFullScreen` (on X, a turn or many of the event loop later), and the timelines
place their lanes again at each new height. Painted as it goes, the window shows each pass in
turn, half drawn, over the old window. Held, it is painted once: after the new size has arrived
(or `RESIZE_WAIT_MS` passed without one) and no widget of the window has changed size for
`QUIET_MS` (wrapped text and the timelines' lanes take a few passes to agree on their heights),
or at the latest `MAX_HOLD_MS` after the change began.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QTimer, Signal
from PySide6.QtWidgets import QApplication, QWidget

RESIZE_WAIT_MS = 1000  # a window manager that ignores the request: paint at the size there is
QUIET_MS = 30  # no widget resized for this long: the layout passes are over
MAX_HOLD_MS = 2000  # a layout that never settles is painted all the same


class HeldPaint(QObject):
    """Holds `window`'s painting from `hold` until the change has settled; `released` says when."""

    released = Signal()

    def __init__(self, window: QWidget, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._window = window
        self._resize_wait = QTimer(self, singleShot=True, interval=RESIZE_WAIT_MS)
        self._resize_wait.timeout.connect(self._settle)
        self._settling = QTimer(self, singleShot=True, interval=QUIET_MS)
        self._settling.timeout.connect(self._release)
        self._longest = QTimer(self, singleShot=True, interval=MAX_HOLD_MS)
        self._longest.timeout.connect(self.release_now)
        self._resize_awaited = False

    @property
    def holding(self) -> bool:
        """Whether the window's painting is held."""
        return not self._window.updatesEnabled()

    def hold(self) -> None:
        """Paint nothing of the window until `release_when_resized` has let go."""
        if not self.holding:
            self._longest.start()
        self._window.setUpdatesEnabled(False)

    def release_when_resized(self, resize_coming: bool) -> None:
        """Let go once the window has its new size (if `resize_coming`) and its layouts have run."""
        _application().installEventFilter(self)  # resizes anywhere in the window
        self._resize_awaited = resize_coming
        if resize_coming:
            self._resize_wait.start()
        else:
            self._settle()

    def release_now(self) -> None:
        """Let go at once (a layout that never settles)."""
        for timer in (self._resize_wait, self._settling, self._longest):
            timer.stop()
        self._release()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        """A widget of the window changed size: wait for the next quiet moment (or the window's new size)."""
        if event.type() != QEvent.Type.Resize or not isinstance(watched, QWidget):
            return False
        if watched is self._window and self._resize_awaited:
            self._settle()
        elif watched.window() is self._window and not self._resize_awaited:
            self._settling.start()
        return False

    def _settle(self) -> None:
        self._resize_awaited = False
        self._resize_wait.stop()
        self._settling.start()

    def _release(self) -> None:
        _application().removeEventFilter(self)
        self._longest.stop()
        QApplication.sendPostedEvents()  # the last layout requests, so that the one paint is of the final layout
        self._window.setUpdatesEnabled(True)
        self._window.repaint()  # now, in one pass: an update() asked for here was at times never painted
        self.released.emit()


def _application() -> QCoreApplication:
    app = QApplication.instance()
    if app is None:
        raise RuntimeError("holding a window's painting needs a running QApplication")
    return app

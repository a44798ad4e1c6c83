"""Work done on the GUI thread in short steps, one per turn of the event loop.

Some work must happen on the GUI thread (drawing a widget into a picture) yet takes longer
than the window can wait between two events. Written as a generator that yields between
steps, it is run here one step at a time, each from a zero-length timer, so that repaints,
the mouse and the keyboard are handled in between. `finished` gives the generator's return
value; `failed` the exception a step raised.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal


class Stepwise(QObject):
    """Runs `steps` from `start` on; reports once, then is done (and deletes itself later)."""

    finished = Signal(object)
    failed = Signal(object)

    def __init__(self, steps: Generator[None, None, Any], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._steps = steps
        self._timer = QTimer(self, singleShot=True, interval=0)
        self._timer.timeout.connect(self._step)

    def start(self) -> None:
        """Take the first step at the next turn of the event loop."""
        self._timer.start()

    def cancel(self) -> None:
        """Stop before the next step (the generator cleans up as it closes)."""
        self._timer.stop()
        self._steps.close()
        self.deleteLater()

    def _step(self) -> None:
        try:
            next(self._steps)
        except StopIteration as done:
            self.finished.emit(done.value)
            self.deleteLater()
        except Exception as error:  # the caller words it; the window carries on
            self.failed.emit(error)
            self.deleteLater()
        else:
            self._timer.start()

"""Run ▸ Release buffers: give back the pinned memory the real backend keeps for its next run.

The real GPU's backend keeps its host and device buffers between runs (pinning 512 MiB again
on every slider move would cost about 180 ms a time); the status bar says how much it keeps.
Releasing frees them off the GUI thread: `cudaFreeHost` of large buffers takes tens of ms, and
a run in flight is waited for first.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QT_TRANSLATE_NOOP, QObject

from overlapviz._qt.files.background import BackgroundTasks, TaskOutcome
from overlapviz._qt.translation import translate
from overlapviz.backends.registry import release_kept_buffers
from overlapviz.core.cancel import CancelToken

# in English; the status bar says it in the window's language
RELEASED = str(
    QT_TRANSLATE_NOOP("BufferRelease", "Buffers released: the next run allocates (and pins) its buffers anew.")
)


class BufferRelease(QObject):
    """Frees what the backends keep, one request at a time; `say` hears how it went."""

    def __init__(self, say: Callable[[str], None], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._say = say
        self._tasks = BackgroundTasks("overlapviz-buffers", self)
        self._tasks.done.connect(self._on_done)

    def release(self) -> None:
        """Free the kept buffers (after any run in flight)."""
        self._tasks.submit(_release)

    def shutdown(self) -> None:
        """Stop the thread (waits for a release in progress)."""
        self._tasks.shutdown()

    def _on_done(self, outcome: TaskOutcome) -> None:
        if outcome.error is not None:
            failed = translate("BufferRelease", "The buffers could not be released: {error}")
            self._say(failed.format(error=outcome.error))
        elif not outcome.cancelled:
            self._say(translate("BufferRelease", RELEASED))


def _release(_cancel: CancelToken) -> None:
    release_kept_buffers()

"""A cancel token: set from any thread, checked by the work between its steps."""

from __future__ import annotations

import threading

from overlapviz.core.run_errors import RunCancelled


class CancelToken:
    """Set from any thread; a backend checks it between steps and stops cleanly."""

    def __init__(self) -> None:
        self._event = threading.Event()

    def cancel(self) -> None:
        """Ask the run to stop."""
        self._event.set()

    @property
    def cancelled(self) -> bool:
        """Whether `cancel` was called."""
        return self._event.is_set()

    def check(self) -> None:
        """Raise `RunCancelled` if the run was cancelled."""
        if self._event.is_set():
            raise RunCancelled("run cancelled")

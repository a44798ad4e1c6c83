"""How many follow the instructor, for the status bar: the lab server's status asked every few seconds.

Asked only while the window runs on the lab GPU, on a plain thread (the network may be slow),
and the answer crosses to the GUI thread by a queued signal.
"""

from __future__ import annotations

import threading

from PySide6.QtCore import QObject, Signal

from overlapviz._qt.thread_owner import ThreadOwner
from overlapviz.lab.client import LabClient, LabError
from overlapviz.lab.client_status import followers, is_instructor

PRESENCE_S = 2.0  # how often the status is asked: a count of people, not a race
JOIN_S = 6.0  # a status request's time-out and a little more


class LabPresence(ThreadOwner):
    """`counted` gets (followers, whether the caller is the instructor) after each answer."""

    counted = Signal(int, bool)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._stop: threading.Event | None = None
        self._thread: threading.Thread | None = None

    def start(self, client: LabClient) -> None:
        """Ask the server `client` speaks to from now on (stopping any asking before)."""
        self.stop()
        stop = self._stop = threading.Event()  # each thread its own: an old one ending late says nothing
        self._thread = threading.Thread(target=self._ask, args=(client, stop), name="lab-presence", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop asking; a request in flight ends on its own and says nothing (the GUI never waits on the network)."""
        if self._stop is not None:
            self._stop.set()
        self._stop = None

    def shutdown(self) -> None:
        """Stop asking as the window closes, and wait for a request in flight (a few seconds at most)."""
        self.stop()
        thread, self._thread = self._thread, None
        if thread is not None:
            thread.join(JOIN_S)

    def _ask(self, client: LabClient, stop: threading.Event) -> None:
        while True:
            try:
                status = client.status()
            except LabError:
                status = None
            if stop.is_set():
                return
            if status is not None:
                self.counted.emit(followers(status), is_instructor(status))
            if stop.wait(PRESENCE_S):
                return

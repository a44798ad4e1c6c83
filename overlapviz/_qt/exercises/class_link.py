"""The class's exercise traffic with the lab server, off the GUI thread: send, predict, watch the histogram.

Each request runs on a plain thread (the network may be slow) and its answer crosses to the
GUI thread by a queued signal. Watching asks for the class's predictions every `WATCH_S`;
the first answer says the credential is the instructor's, a refusal (403) that it is a
learner's, and watching stops there.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from PySide6.QtCore import QObject, Signal

from overlapviz._qt.thread_owner import ThreadOwner
from overlapviz._qt.translation import translate
from overlapviz.app.exercise_class import HistogramError, histogram_of
from overlapviz.lab.client import LabClient, LabError, LabForbidden

WATCH_S = 1.0  # how often the instructor's histogram is asked for: live enough for a room
JOIN_S = 6.0  # a request's time-out and a little more


class ClassLink(ThreadOwner):
    """`histogram` gets a `ClassHistogram`, `role_found` whether the credential is the instructor's, `failed` why."""

    histogram = Signal(object)
    role_found = Signal(bool)
    sent = Signal(str, int)  # the exercise, its round
    failed = Signal(str)
    watch_failed = Signal(str)  # watching stopped: the server is unreachable, or lacks the exercise

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._watch: threading.Event | None = None
        self._threads: list[threading.Thread] = []

    def send(self, client: LabClient, name: str) -> None:
        """Send exercise `name` to the class; `sent` or `failed` tells how it went."""

        def work() -> None:
            answer = client.send_exercise(name)
            number = answer.get("round")
            self.sent.emit(name, number if isinstance(number, int) else 0)

        self._start(work, "class-send")

    def predict(self, client: LabClient, name: str, round_number: int, answer: str | float) -> None:
        """Send the learner's prediction; only a failure is told."""
        self._start(lambda: client.predict(name, round_number, answer), "class-predict")

    def watch(self, client: LabClient, name: str) -> None:
        """Ask for the class's predictions of `name` every `WATCH_S` (stopping any watching before)."""
        self.stop_watching()
        stop = self._watch = threading.Event()  # each thread its own: an old one ending late says nothing
        self._start(lambda: self._ask(client, name, stop), "class-watch")

    def stop_watching(self) -> None:
        """Stop asking; a request in flight ends on its own and says nothing."""
        if self._watch is not None:
            self._watch.set()
        self._watch = None

    def shutdown(self) -> None:
        """Stop asking as the window closes, and wait for the requests in flight (a few seconds at most)."""
        self.stop_watching()
        threads, self._threads = self._threads, []
        for thread in threads:
            thread.join(JOIN_S)

    def _ask(self, client: LabClient, name: str, stop: threading.Event) -> None:
        found = False
        while not stop.is_set():
            try:
                histogram = histogram_of(client.class_predictions(name))
            except LabForbidden:
                if not stop.is_set():
                    self.role_found.emit(False)
                return
            except (LabError, HistogramError) as error:
                if not stop.is_set():
                    self.watch_failed.emit(str(error))
                return
            if stop.is_set():
                return
            if not found:
                found = True
                self.role_found.emit(True)
            self.histogram.emit(histogram)
            if stop.wait(WATCH_S):
                return

    def _start(self, work: Callable[[], object], name: str) -> None:
        def run() -> None:
            try:
                work()
            except LabError as error:
                self.failed.emit(str(error))
            except Exception as error:  # a bug must not end the thread in silence nor reach the user as a traceback
                # (Qt translates on any thread)
                said = translate("ClassLink", "the class's exercise stopped unexpectedly: {error}")
                self.failed.emit(said.format(error=f"{type(error).__name__}: {error}"))

        self._threads = [thread for thread in self._threads if thread.is_alive()]
        thread = threading.Thread(target=run, name=name, daemon=True)
        self._threads.append(thread)
        thread.start()

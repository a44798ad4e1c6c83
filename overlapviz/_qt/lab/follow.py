"""Follow the instructor: each run the instructor makes arrives on a thread of its own and goes on show.

The stream (`lab.follow_client`) blocks on the network, so it is read on a plain thread that
also rebuilds and prepares each run for the timeline; only the prepared run crosses to the
GUI thread, by a queued signal. Stopping closes the stream, which ends the wait at once.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from PySide6.QtCore import QObject, Signal

from overlapviz._qt.thread_owner import ThreadOwner
from overlapviz._qt.translation import translate
from overlapviz.lab.client import LabClient, LabError
from overlapviz.lab.client_result import LabRun, lab_run
from overlapviz.lab.follow_client import ExerciseSent, FollowStream
from overlapviz.view.prepared import PreparedView, prepare_view

JOIN_S = 5.0  # how long stopping waits for the thread to see its stream closed


@dataclass(frozen=True)
class FollowedRun:
    """One of the instructor's runs, ready for the timeline."""

    run: LabRun
    view: PreparedView


class LabFollow(ThreadOwner):
    """Reads the instructor's runs while following; `arrived` gets a `FollowedRun`, `ended` why it stopped."""

    arrived = Signal(object)
    exercise_sent = Signal(object)  # an `ExerciseSent`: the instructor put an exercise to the class
    ended = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._stream: FollowStream | None = None
        self._thread: threading.Thread | None = None

    def is_following(self) -> bool:
        """Whether a stream is open (or opening)."""
        return self._thread is not None and self._thread.is_alive()

    def start(self, client: LabClient) -> None:
        """Follow the instructor of the server `client` speaks to (stopping any stream before)."""
        self.stop()
        stream = self._stream = FollowStream(client)
        self._thread = threading.Thread(target=self._read, args=(stream, client.url), name="lab-follow", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop following; blocks until the reading thread has seen it (a few seconds at most)."""
        stream, thread = self._stream, self._thread
        self._stream = self._thread = None
        if stream is not None:
            stream.close()
        if thread is not None:
            thread.join(JOIN_S)

    def shutdown(self) -> None:
        """Stop following as the window closes."""
        self.stop()

    def _read(self, stream: FollowStream, url: str) -> None:
        try:
            for answer in stream.events():
                if isinstance(answer, ExerciseSent):
                    if stream is self._stream:
                        self.exercise_sent.emit(answer)
                    continue
                run = lab_run(answer, url)
                followed = FollowedRun(run, prepare_view(run.result))
                if stream is self._stream:  # not stopped meanwhile
                    self.arrived.emit(followed)
        except LabError as error:
            self._end(stream, str(error))
        except Exception as error:  # a bug must not end the thread in silence nor reach the user as a traceback
            said = translate("LabFollow", "following stopped unexpectedly: {error_type}: {error}")
            self._end(stream, said.format(error_type=type(error).__name__, error=error))

    def _end(self, stream: FollowStream, reason: str) -> None:
        if stream is self._stream:
            self.ended.emit(reason)

"""The app's executor: jobs run off the GUI thread; a newer job supersedes the one in flight.

One long-lived QThread carries every job, one at a time. Submitting while a job is in flight
cancels that job (through its `CancelToken`) and waits as the one pending job; jobs submitted
meanwhile replace it. Only the newest job's outcome reaches its callback, on the GUI thread,
so a slow, stale run can never overwrite a newer picture. The jobs themselves are plain
functions (`app.executor`): a run prepared for the timeline, both sides of a comparison, a
bandwidth sweep. This implements `app.executor.Executor` for the controller.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from PySide6.QtCore import QObject, Signal, Slot

from overlapviz._qt.thread_owner import ThreadOwner
from overlapviz._qt.worker_thread import start_worker_thread
from overlapviz.app.executor import Job, Outcome, outcome_of
from overlapviz.app.garbage_collection import collections_paused
from overlapviz.core.cancel import CancelToken

T = TypeVar("T")


@dataclass(frozen=True, eq=False)
class _Request(Generic[T]):
    """One submitted job, its number and where its outcome goes."""

    job: Job[T]
    done: Callable[[Outcome[T]], None]
    number: int
    cancel: CancelToken = field(default_factory=CancelToken)


@dataclass(frozen=True, eq=False)
class _Finished(Generic[T]):
    request: _Request[T]
    outcome: Outcome[T]


class _RunWorker(QObject):
    """Lives on the run thread; runs one request per `run` call."""

    done = Signal(object)  # _Finished

    @Slot(object)
    def run(self, request: _Request[Any]) -> None:
        with collections_paused():  # a run's many objects die with it: no collection stops the window meanwhile
            outcome = outcome_of(request.job, request.cancel)
        self.done.emit(_Finished(request, outcome))


class RunController(ThreadOwner):
    """Accepts jobs from the GUI thread and reports the newest one's outcome to its callback."""

    busy_changed = Signal(bool)
    _submit = Signal(object)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._numbers = itertools.count(1)
        self._active: _Request[Any] | None = None
        self._pending: _Request[Any] | None = None
        self._last_number = 0
        self._discard_through = 0  # outcomes of requests up to this number are dropped
        self._worker = _RunWorker()
        self._thread = start_worker_thread("overlapviz-run", self._worker, self._submit, self._worker.run,
                                           self._worker.done, self._on_done)  # fmt: skip

    @property
    def busy(self) -> bool:
        """Whether a job is in flight."""
        return self._active is not None

    def submit(self, job: Job[T], done: Callable[[Outcome[T]], None]) -> None:
        """Run `job` as soon as possible, superseding whatever is in flight or waiting."""
        request = _Request(job, done, next(self._numbers))
        self._last_number = request.number
        if self._active is None:
            self._start(request)
        else:
            self._active.cancel.cancel()
            self._pending = request

    def cancel(self) -> None:
        """Drop every job submitted so far: none of their outcomes will be reported."""
        self._pending = None
        self._discard_through = self._last_number
        if self._active is not None:
            self._active.cancel.cancel()

    def shutdown(self) -> None:
        """Cancel what is in flight and stop the thread (blocks until it has stopped)."""
        self._pending = None
        if self._active is not None:
            self._active.cancel.cancel()
        self._thread.quit()
        self._thread.wait()

    def _start(self, request: _Request[Any]) -> None:
        self._active = request
        self.busy_changed.emit(True)
        self._submit.emit(request)

    def _on_done(self, finished: _Finished[Any]) -> None:
        self._active = None
        if self._pending is not None:
            pending, self._pending = self._pending, None
            self._start(pending)
            return
        self.busy_changed.emit(False)
        if finished.request.number > self._discard_through and not finished.outcome.cancelled:
            finished.request.done(finished.outcome)

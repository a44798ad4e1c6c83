"""Runs pipelines off the GUI thread; a newer request supersedes the one in flight.

One long-lived QThread carries every run, one at a time. A request while a run is in flight
cancels that run (through its `CancelToken`) and waits as the one pending request; requests
that arrive meanwhile replace it. Only the newest request's result reaches the window, so a
slow, stale run can never overwrite a newer picture. The work itself is a plain function:
`session.run_pipeline` for a request, or any job (a function of a `CancelToken`, such as
running both sides of a comparison, opening a file or a bandwidth sweep) handed to `submit`.
A request's run is also prepared for the timeline here (`prepared.prepare_view`), so that
the GUI thread gets a result it only has to show.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QObject, QThread, Signal, Slot

from overlapviz.app.heap import collections_paused
from overlapviz.app.pair_run import RunFunction
from overlapviz.backends.base import BackendError, CancelToken, RunCancelled
from overlapviz.core.config import ConfigError, PipelineConfig
from overlapviz.session import run_pipeline
from overlapviz.view.prepared import prepare_view

Job = Callable[[CancelToken], Any]  # any work that checks its token between steps


@dataclass(frozen=True)
class RunRequest:
    """What to run, and where (or, for a job, the job alone)."""

    config: PipelineConfig | None = None
    backend: str = "auto"
    device: str | None = None
    number: int = 0
    cancel: CancelToken = field(default_factory=CancelToken, compare=False)
    job: Job | None = field(default=None, compare=False)  # runs instead of the run function


@dataclass(frozen=True)
class RunOutcome:
    """How a request ended: a result, an error in words, or cancelled.

    The result is a `PreparedView` for a pipeline request, and whatever its job returned
    for a job.
    """

    request: RunRequest
    result: Any = None
    error: str | None = None

    @property
    def cancelled(self) -> bool:
        """Neither a result nor an error: the run was superseded."""
        return self.result is None and self.error is None


class _RunWorker(QObject):
    """Lives on the run thread; runs one request per `run` call."""

    done = Signal(object)

    def __init__(self, run_function: RunFunction) -> None:
        super().__init__()
        self._run_function = run_function

    @Slot(object)
    def run(self, request: RunRequest) -> None:
        with collections_paused():  # a run's many objects die with it: no collection stops the window meanwhile
            outcome = self._outcome(request)
        self.done.emit(outcome)

    def _outcome(self, request: RunRequest) -> RunOutcome:
        try:
            if request.job is not None:
                result = request.job(request.cancel)
            elif request.config is not None:
                run = self._run_function(request.config, request.backend, request.device, request.cancel)
                request.cancel.check()
                result = prepare_view(run, request.cancel)
            else:
                raise ValueError("a request needs a config or a job")
            outcome = RunOutcome(request, result=result)
        except RunCancelled:
            outcome = RunOutcome(request)
        except (BackendError, ConfigError, OSError) as error:
            outcome = RunOutcome(request, error=str(error))
        except Exception as error:  # a bug in a backend must not take the window down with it
            outcome = RunOutcome(request, error=f"the run failed unexpectedly: {type(error).__name__}: {error}")
        return outcome


class RunController(QObject):
    """Accepts run requests from the GUI thread and reports the newest one's outcome."""

    finished = Signal(object)  # RunOutcome with a result
    failed = Signal(object)  # RunOutcome with an error
    busy_changed = Signal(bool)
    _submit = Signal(object)

    def __init__(self, run_function: RunFunction = run_pipeline, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._numbers = itertools.count(1)
        self._active: RunRequest | None = None
        self._pending: RunRequest | None = None
        self._last_number = 0
        self._discard_through = 0  # results of requests up to this number are dropped
        self._thread = QThread()
        self._thread.setObjectName("overlapviz-run")
        self._worker = _RunWorker(run_function)
        self._worker.moveToThread(self._thread)
        self._submit.connect(self._worker.run)
        self._worker.done.connect(self._on_done)
        self._thread.start()

    @property
    def busy(self) -> bool:
        """Whether a run is in flight."""
        return self._active is not None

    def request(self, config: PipelineConfig, backend: str = "auto", device: str | None = None) -> RunRequest:
        """Run `config` as soon as possible, superseding whatever is in flight or waiting."""
        return self._enqueue(RunRequest(config, backend, device, next(self._numbers)))

    def submit(self, job: Job) -> RunRequest:
        """Run `job` as soon as possible, superseding whatever is in flight or waiting."""
        return self._enqueue(RunRequest(number=next(self._numbers), job=job))

    def _enqueue(self, request: RunRequest) -> RunRequest:
        self._last_number = request.number
        if self._active is None:
            self._start(request)
        else:
            self._active.cancel.cancel()
            self._pending = request
        return request

    def cancel(self) -> None:
        """Drop every request made so far: none of their outcomes will be reported."""
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

    def _start(self, request: RunRequest) -> None:
        self._active = request
        self.busy_changed.emit(True)
        self._submit.emit(request)

    def _on_done(self, outcome: RunOutcome) -> None:
        self._active = None
        if self._pending is not None:
            pending, self._pending = self._pending, None
            self._start(pending)
            return
        self.busy_changed.emit(False)
        if outcome.request.number <= self._discard_through:
            return
        if outcome.result is not None:
            self.finished.emit(outcome)
        elif outcome.error is not None:
            self.failed.emit(outcome)

"""Work done off the GUI thread one task at a time, in order, each outcome reported.

Files are read and written here: opening a trace, saving a session, encoding and writing an
exported picture. Unlike the runs (`worker`), no task replaces another: two exports asked for
one after the other both happen and both say how they went. A task is a plain function of a
`CancelToken`; the caller cancels the ones it no longer wants (an open that a newer open
replaced) and words the errors, which arrive as the exceptions themselves.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QObject, Signal, Slot

from overlapviz._qt.thread_owner import ThreadOwner
from overlapviz._qt.worker_thread import start_worker_thread
from overlapviz.app.garbage_collection import collections_paused
from overlapviz.core.cancel import CancelToken
from overlapviz.core.run_errors import RunCancelled

Work = Callable[[CancelToken], Any]


@dataclass(frozen=True, eq=False)
class Task:
    """One piece of work, its cancel token and its place in the order of submission."""

    work: Work
    number: int
    cancel: CancelToken = field(default_factory=CancelToken)


@dataclass(frozen=True)
class TaskOutcome:
    """How a task ended: its result, the exception it raised, or cancelled."""

    task: Task
    result: Any = None
    error: Exception | None = None
    cancelled: bool = False


class _TaskWorker(QObject):
    """Lives on the task thread; runs each task it is handed."""

    done = Signal(object)

    @Slot(object)
    def run(self, task: Task) -> None:
        with collections_paused():  # see `heap`: no collection stops the window while a file is read or written
            outcome = self._outcome(task)
        self.done.emit(outcome)

    @staticmethod
    def _outcome(task: Task) -> TaskOutcome:
        try:
            task.cancel.check()
            return TaskOutcome(task, result=task.work(task.cancel))
        except RunCancelled:
            return TaskOutcome(task, cancelled=True)
        except Exception as error:  # the caller says what went wrong; the thread goes on
            return TaskOutcome(task, error=error)


class BackgroundTasks(ThreadOwner):
    """Runs submitted work on a thread of its own, in order; `done` gives each `TaskOutcome`."""

    done = Signal(object)
    busy_changed = Signal(bool)
    _submit = Signal(object)

    def __init__(self, name: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._numbers = itertools.count(1)
        self._waiting: list[Task] = []  # submitted and not yet reported, oldest first
        self._worker = _TaskWorker()
        self._thread = start_worker_thread(name, self._worker, self._submit, self._worker.run,
                                           self._worker.done, self._on_done)  # fmt: skip

    @property
    def busy(self) -> bool:
        """Whether a task is running or waiting."""
        return bool(self._waiting)

    def submit(self, work: Work) -> Task:
        """Run `work` after the tasks already submitted."""
        task = Task(work, next(self._numbers))
        self._waiting.append(task)
        if len(self._waiting) == 1:
            self.busy_changed.emit(True)
        self._submit.emit(task)
        return task

    def shutdown(self) -> None:
        """Cancel every task and stop the thread (blocks until the running task has returned)."""
        for task in self._waiting:
            task.cancel.cancel()
        self._waiting.clear()
        self._thread.quit()
        self._thread.wait()

    def _on_done(self, outcome: TaskOutcome) -> None:
        if outcome.task not in self._waiting:
            return  # shut down meanwhile
        self._waiting.remove(outcome.task)
        if not self._waiting:
            self.busy_changed.emit(False)
        self.done.emit(outcome)

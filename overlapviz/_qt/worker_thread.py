"""A worker object on a thread of its own: the one way the app starts its background threads."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Qt, QThread, SignalInstance

from overlapviz.core.background_priority import lower_this_thread


def start_worker_thread(name: str, worker: QObject, submit: SignalInstance, run: Callable[..., Any],
                        done: SignalInstance, on_done: Callable[..., Any]) -> QThread:  # fmt: skip
    """Move `worker` to a new thread called `name` and start it.

    `submit` (emitted on the GUI thread) reaches the worker's `run` on its thread; the worker's
    `done` comes back to `on_done` on the GUI thread. Quit and wait on the thread to stop it.
    The thread runs below the GUI thread's priority (`core.background_priority`), as does
    everything it starts.
    """
    thread = QThread()
    thread.setObjectName(name)
    worker.moveToThread(thread)
    submit.connect(run)
    done.connect(on_done)
    thread.started.connect(lower_this_thread, Qt.ConnectionType.DirectConnection)  # run on the new thread
    thread.start(QThread.Priority.LowPriority)  # where Qt can set it (not Linux, where the nice value does)
    return thread

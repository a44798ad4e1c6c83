"""A worker object on a thread of its own: the one way the app starts its background threads."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QThread, SignalInstance


def start_worker_thread(name: str, worker: QObject, submit: SignalInstance, run: Callable[..., Any],
                        done: SignalInstance, on_done: Callable[..., Any]) -> QThread:  # fmt: skip
    """Move `worker` to a new thread called `name` and start it.

    `submit` (emitted on the GUI thread) reaches the worker's `run` on its thread; the worker's
    `done` comes back to `on_done` on the GUI thread. Quit and wait on the thread to stop it.
    """
    thread = QThread()
    thread.setObjectName(name)
    worker.moveToThread(thread)
    submit.connect(run)
    done.connect(on_done)
    thread.start()
    return thread

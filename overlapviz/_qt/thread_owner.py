"""What owns a background thread, and how a window stops every one of them before it goes.

A QThread destroyed while it runs aborts the whole process ("QThread: Destroyed while
thread ... is still running"), so every thread must be stopped and waited for before its
owner dies. Each object that starts one (the run executors, the file and buffer tasks) is a
`ThreadOwner` and lives under the window it serves in Qt's object tree; that tree is the one
registry of what must be stopped: `stop_threads_under` finds them all, a dialog's own
executor included, so the window's shutdown holds no list that a new thread could be missing
from. A child process (`files.child_process`) runs inside a task of such a thread and is
stopped and joined as its cancelled task returns, so stopping the threads stops the children.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject


class ThreadOwner(QObject):
    """A QObject that runs work on a thread of its own; `shutdown` stops that thread."""

    def shutdown(self) -> None:
        """Cancel the work in flight and stop the thread (blocks until it has stopped; again: nothing)."""
        raise NotImplementedError


def stop_threads_under(root: QObject) -> None:
    """Stop the thread of every `ThreadOwner` under `root` (and of `root` itself, if one); block until stopped."""
    owners = root.findChildren(ThreadOwner)
    for owner in [root, *owners] if isinstance(root, ThreadOwner) else owners:
        owner.shutdown()


def stops_threads_on_failure(init: Callable[..., None]) -> Callable[..., None]:
    """Wrap a QObject's `__init__` so that, should it raise, the threads it started are stopped first.

    Without this a failure part way through building a window leaves its executor's thread
    running, and the process aborts as the half-built window is freed instead of reporting
    the failure.
    """

    @functools.wraps(init)
    def guarded(self: QObject, *args: Any, **kwargs: Any) -> None:
        try:
            init(self, *args, **kwargs)
        except BaseException:
            stop_threads_under(self)
            raise

    return guarded

"""Background work yields the CPU to the window: a lower scheduling priority for worker threads and children.

On two cores, opening a big file keeps a reader process, the file thread and its drawing
thread busy at once. At equal priority the GUI thread then waits its turn for a core (74 ms
of one 100 ms gap, measured on a 2-core machine), and the window stutters. A worker at nice `BACKGROUND_NICE` still gets
every core nobody else wants (on a quiet machine it runs as fast as before), but a GUI thread
that wakes up runs first. Linux keeps a nice value per thread, and a thread or process
started from a thread inherits it, so lowering a worker thread lowers everything it starts.
Other systems keep it per process: there the app asks Qt for a low-priority thread instead,
and a child process lowers itself (`lower_this_process`). Priority is only ever lowered,
never raised, which needs no privilege.
"""

from __future__ import annotations

import os
import sys
import threading

BACKGROUND_NICE = 10  # a tenth of a normal thread's share of a busy core (Linux's weight 110 against 1024)


def lower_this_thread() -> None:
    """On Linux, run the calling thread (and what it starts) at `BACKGROUND_NICE`; elsewhere nothing.

    Elsewhere a nice value belongs to the whole process, and lowering it from a worker would
    lower the GUI thread with it.
    """
    if sys.platform.startswith("linux"):
        _lower(threading.get_native_id())


def lower_this_process() -> None:
    """At the start of a child process: run it at `BACKGROUND_NICE` (nothing where there are no nice values).

    On Linux this lowers the calling thread, the child's only one at its start, whose later
    threads inherit it.
    """
    if hasattr(os, "setpriority"):
        _lower(0)


def _lower(who: int) -> None:
    try:
        if os.getpriority(os.PRIO_PROCESS, who) < BACKGROUND_NICE:
            os.setpriority(os.PRIO_PROCESS, who, BACKGROUND_NICE)
    except OSError:  # a sandbox that forbids it: the work runs, at the priority it has
        pass

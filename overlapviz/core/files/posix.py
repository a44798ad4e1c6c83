"""Whether this system offers POSIX's calls: the one switch that every POSIX-only call sits behind.

Opening without blocking (``O_NONBLOCK``), asking whether a process lives (``os.kill(pid, 0)``,
which on Windows would end it), owners and permission bits of open files (``fchmod``,
``fchown``, ``geteuid``), flushing a folder (``fsync`` of a directory), ``/proc`` and
``sysconf`` exist on Linux and macOS, not on Windows. Each caller asks `available` first and
has a plain path without them, so a learner's laptop runs the same code; a test turns the
switch off to run that path here.
"""

from __future__ import annotations

import os

_POSIX = os.name == "posix"


def available() -> bool:
    """Whether POSIX's calls can be made here."""
    return _POSIX

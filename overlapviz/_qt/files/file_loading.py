"""Opening a session or trace file off the GUI thread: read, check and prepare it whole first.

`load_file` returns everything the window will show of a file (its settings, device and
prepared trace) or raises; the window changes nothing until it has all of it, so a file that
fails at any step leaves the controls, live mode, the device and the timeline as they were.
A file too long to parse beside the GUI thread is read in a child process (`child_process`);
the trace it sends back is prepared here, on the run thread, in steps the GUI thread can
come in between. Pure: no Qt here.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path

from overlapviz._qt.files.child_process import read_in_child
from overlapviz.app.session_file import SessionData, open_file
from overlapviz.core.cancel import CancelToken
from overlapviz.core.files.columnar_read import is_columnar
from overlapviz.core.files.columnar_write import ZIP_MAGIC
from overlapviz.core.files.safe_read import GZIP_MAGIC, machine_memory_bytes, read_flags
from overlapviz.view.opening import opening_ms
from overlapviz.view.prepared import PreparedView, prepare_trace

IN_THREAD_MAX_BYTES = 1024**2  # JSON this long parses in well under the GUI's 50 ms budget
GZIP_RATIO = 16  # about how much a trace's JSON shrinks under gzip
IN_THREAD_MEMORY_SHARE = 4  # a columnar file up to this share of the machine's memory is read in the thread


@dataclass(frozen=True)
class OpenedFile:
    """A file read whole: what it holds, and its trace prepared for the timeline (None: settings only)."""

    path: Path
    data: SessionData
    view: PreparedView | None


def load_file(path: Path, cancel: CancelToken) -> OpenedFile:
    """Read, check, analyse and prepare the session or trace at `path`.

    Raises
    ------
    OSError, ValueError
        The file cannot be read or is not a session or trace overlapviz wrote (the
        message says why; see `session_file.open_file`).
    RunCancelled
        `cancel` was set meanwhile.
    """
    data = read_in_child(path, cancel) if reads_in_child(path) else open_file(path)
    return prepared_file(path, data, cancel)


def prepared_file(path: Path, data: SessionData, cancel: CancelToken) -> OpenedFile:
    """What `path` held, read as `data`, prepared for the timeline (`RunCancelled` where `cancel` was set)."""
    cancel.check()
    view = None if data.trace is None else prepare_trace(data.trace, cancel=cancel)
    if data.trace is not None:
        opening_ms(data.trace)  # worked out here, kept with the trace: the timeline reads it on the GUI thread
    return OpenedFile(path, data, view)


def reads_in_child(path: Path) -> bool:
    """Whether `path` is a regular file too long to parse on a thread beside the GUI's.

    overlapviz's columnar file is not parsed: its columns are used where they lie in its
    bytes, checked by numpy and zlib, which let the GUI thread run meanwhile. Read here, it
    is not sent back from a child afterwards (a second of a 10^7-span open). A columnar file
    too large for this machine to hold twice is still left to a child, which alone fails.
    """
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return False  # reading it in the thread says why it cannot be read
    if not stat.S_ISREG(info.st_mode):
        return False
    size = info.st_size
    head = _first_bytes(path)
    if is_columnar(head) and size <= machine_memory_bytes() // IN_THREAD_MEMORY_SHARE:
        return False
    if size > IN_THREAD_MAX_BYTES // GZIP_RATIO and head.startswith(GZIP_MAGIC):
        size *= GZIP_RATIO
    return size > IN_THREAD_MAX_BYTES


def _first_bytes(path: Path) -> bytes:
    """The first few bytes of the file at `path`; none where it cannot be read."""
    try:
        fd = os.open(path, read_flags())
    except OSError:
        return b""
    try:
        return os.read(fd, len(ZIP_MAGIC))
    except OSError:
        return b""
    finally:
        os.close(fd)

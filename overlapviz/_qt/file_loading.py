"""Opening a session or trace file off the GUI thread: read, check and prepare it whole first.

`load_file` returns everything the window will show of a file (its settings, device and
prepared trace) or raises; the window changes nothing until it has all of it, so a file that
fails at any step leaves the controls, live mode, the device and the timeline as they were.

A large file is read in a child process. Parsing JSON is one call that holds Python's global
lock for as long as it takes (seconds for a trace of 10^6 spans), and the GUI thread needs
that lock for every event it handles. The child parses and checks the file, then sends back
the settings and the trace's columns as raw bytes; the run thread turns those into arrays
without copying and prepares the trace in small steps the GUI thread can come in between.
Pure: no Qt here, so that the child never loads it.
"""

from __future__ import annotations

import multiprocessing
import os
import stat
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from overlapviz._qt.file_problems import problem_of
from overlapviz._qt.session_file import SessionData, open_file
from overlapviz._qt.timeline.prepared import PreparedView, prepare_trace
from overlapviz.backends.base import CancelToken
from overlapviz.core.safe_read import GZIP_MAGIC
from overlapviz.core.trace import COLUMNS, Trace

IN_THREAD_MAX_BYTES = 1024**2  # JSON this long parses in well under the GUI's 50 ms budget
GZIP_RATIO = 16  # about how much a trace's JSON shrinks under gzip
POLL_S = 0.05  # how often a wait on the child looks at the cancel token


class UnreadableFileError(ValueError):
    """The child process could not read the file; the message says why (without the path)."""


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
    data = _read_in_child(path, cancel) if reads_in_child(path) else open_file(path)
    cancel.check()
    view = None if data.trace is None else prepare_trace(data.trace, cancel=cancel)
    return OpenedFile(path, data, view)


def reads_in_child(path: Path) -> bool:
    """Whether `path` is a regular file too long to parse on a thread beside the GUI's."""
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return False  # reading it in the thread says why it cannot be read
    if not stat.S_ISREG(info.st_mode):
        return False
    size = info.st_size
    if size > IN_THREAD_MAX_BYTES // GZIP_RATIO and _starts_like_gzip(path):
        size *= GZIP_RATIO
    return size > IN_THREAD_MAX_BYTES


def _starts_like_gzip(path: Path) -> bool:
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return False
    try:
        return os.read(fd, len(GZIP_MAGIC)) == GZIP_MAGIC
    except OSError:
        return False
    finally:
        os.close(fd)


# --- the child's side and the parent's -------------------------------------------------------


def read_for_parent(connection: Connection, path: str) -> None:
    """In the child: read `path` and send the header, then each column's bytes (or why not)."""
    try:
        data = open_file(path)
    except Exception as error:  # every failure goes back as words; the parent says them
        connection.send(("refused", problem_of(error, path)))
        return
    trace = data.trace
    if trace is None:
        connection.send(("settings", data, None, None))
        return
    settings = SessionData(data.config, None, data.backend, data.device)
    connection.send(("trace", settings, trace.names, trace.meta))
    for name in COLUMNS:
        connection.send_bytes(np.ascontiguousarray(trace[name]).tobytes())


def _read_in_child(path: Path, cancel: CancelToken) -> SessionData:
    context = multiprocessing.get_context("spawn")  # never fork a process that runs Qt threads
    receiving, sending = context.Pipe(duplex=False)
    child = context.Process(target=read_for_parent, args=(sending, os.fspath(path)), daemon=True)
    child.start()
    sending.close()
    try:
        return _receive(receiving, child, cancel)
    finally:
        receiving.close()
        if child.is_alive():
            child.terminate()
        child.join()


def _receive(receiving: Connection, child: Any, cancel: CancelToken) -> SessionData:
    header = _next(receiving, child, cancel, raw=False)
    if header[0] == "refused":
        raise UnreadableFileError(header[1])
    if header[0] == "settings":
        data: SessionData = header[1]
        return data
    _kind, settings, names, meta = header
    columns: dict[str, npt.NDArray[Any]] = {}
    for name, dtype in COLUMNS.items():
        columns[name] = np.frombuffer(_next(receiving, child, cancel, raw=True), dtype=dtype)
    trace = Trace(columns, names, meta)  # checked whole in the child; the bytes are its own columns
    return SessionData(settings.config, trace, settings.backend, settings.device)


def _next(receiving: Connection, child: Any, cancel: CancelToken, *, raw: bool) -> Any:
    """The child's next message, waiting for it in short steps that look at `cancel`."""
    while not receiving.poll(POLL_S):
        cancel.check()
        if not child.is_alive() and not receiving.poll(0):
            raise UnreadableFileError(f"the process reading it stopped without an answer (exit code {child.exitcode})")
    try:
        return receiving.recv_bytes() if raw else receiving.recv()
    except EOFError:
        raise UnreadableFileError("the process reading it stopped part way through") from None

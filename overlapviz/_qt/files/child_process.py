"""Reading and writing large files in a child process, so that this one stays responsive.

Parsing or writing JSON (and joining a large text) is one call that holds Python's global
lock for as long as it takes: seconds for a trace of 10^6 spans, while the GUI thread needs
that lock for every event it handles. In a child process those calls stop nothing here. The
child and this process exchange a session's settings as one small message and a trace's
columns as raw bytes, each turned back into an array without a copy; every wait for the
child looks at the cancel token in short steps, and a cancelled child is stopped.

The child is started fresh (``spawn``: a process that runs Qt's threads is never forked),
so, as with any use of `multiprocessing`, a script that opens the window must keep its own
top-level code under ``if __name__ == "__main__":``. The child speaks the language this
process speaks (a fresh process would take the environment's, not the one chosen in the
window), and runs below the window's priority (`core.background_priority`). Pure: no Qt
here, so that the child never loads it.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

import numpy as np
import numpy.typing as npt

from overlapviz.app.file_problems import problem_of
from overlapviz.app.session_file import SessionData, open_file, save_session
from overlapviz.core.background_priority import lower_this_process
from overlapviz.core.cancel import CancelToken
from overlapviz.core.files.columnar_write import export_columnar, is_columnar_name
from overlapviz.core.files.trace_export import export_chrome, export_csv
from overlapviz.core.i18n import current_language, set_language
from overlapviz.core.trace.columns import COLUMNS
from overlapviz.core.trace.spans import Trace

POLL_S = 0.05  # how often a wait on the child looks at the cancel token
IN_THREAD_MAX_ROWS = 4096  # a trace this short is encoded and written here in well under the GUI's 50 ms
WRITERS: dict[str, Callable[[str, SessionData], None]] = {
    "session": save_session,
    "chrome": lambda path, data: _export_trace(_trace_of(data), path),
    "csv": lambda path, data: export_csv(_trace_of(data), path),
}


class ChildRefusedError(ValueError):
    """The child could not do the work; the message says why (without the file's path)."""


class ChildStoppedError(ChildRefusedError):
    """The child ended before it answered; `exit_code` is None where it stopped part way through a message.

    The message is for the log; the window words it in the user's language (`problem_words`).
    """

    def __init__(self, message: str, exit_code: int | None) -> None:
        super().__init__(message)
        self.exit_code = exit_code


# --- in this process ----------------------------------------------------------------------------


def read_in_child(path: str | os.PathLike[str], cancel: CancelToken) -> SessionData:
    """`session_file.open_file(path)`, done in a child process (see the module docstring)."""
    with _Child(_read_for_parent, current_language(), os.fspath(path)) as child:
        return child.receive_session(cancel)


def write_file(kind: str, path: str | os.PathLike[str], data: SessionData, cancel: CancelToken) -> None:
    """Write `data` to `path` as `kind` (a key of `WRITERS`): here for a short trace, in a child for a long one."""
    if data.trace is not None and len(data.trace) > IN_THREAD_MAX_ROWS:
        write_in_child(kind, path, data, cancel)
    else:
        WRITERS[kind](os.fspath(path), data)


def write_in_child(kind: str, path: str | os.PathLike[str], data: SessionData, cancel: CancelToken) -> None:
    """Write `data` to `path` as `kind` (a key of `WRITERS`) in a child process."""
    with _Child(_write_for_parent, current_language(), kind, os.fspath(path)) as child:
        send_session(child.connection, data)
        child.receive(cancel)


class _Child:
    """A child process running `target(connection, *args)`, and this end of its connection."""

    def __init__(self, target: Callable[..., None], *args: str) -> None:
        context = multiprocessing.get_context("spawn")  # never fork a process that runs Qt threads
        self.connection, theirs = context.Pipe(duplex=True)
        self._process: BaseProcess = context.Process(target=target, args=(theirs, *args), daemon=True)
        self._process.start()
        theirs.close()

    def __enter__(self) -> _Child:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.connection.close()
        if self._process.is_alive():
            self._process.terminate()
        self._process.join()

    def receive(self, cancel: CancelToken, *, raw: bool = False) -> Any:
        """The child's next message (raising `ChildRefusedError` when it refused)."""
        while not self.connection.poll(POLL_S):
            cancel.check()
            if not self._process.is_alive() and not self.connection.poll(0):
                code = self._process.exitcode
                raise ChildStoppedError(f"the process doing it stopped without an answer (exit code {code})", code)
        try:
            message = self.connection.recv_bytes() if raw else self.connection.recv()
        except EOFError:
            raise ChildStoppedError("the process doing it stopped part way through", None) from None
        if not raw and message[0] == "refused":
            raise ChildRefusedError(message[1])
        return message

    def receive_session(self, cancel: CancelToken) -> SessionData:
        return receive_session(lambda raw: self.receive(cancel, raw=raw))


# --- both ends ------------------------------------------------------------------------------------


def send_session(connection: Connection, data: SessionData) -> None:
    """Send `data`: its settings in one message, then its trace's columns as raw bytes."""
    trace = data.trace
    settings = SessionData(data.config, None, data.backend, data.device)
    if trace is None:
        connection.send(("session", settings, None, None))
        return
    connection.send(("session", settings, trace.names, trace.meta))
    for name in COLUMNS:
        connection.send_bytes(np.ascontiguousarray(trace[name]).tobytes())


def receive_session(receive: Callable[[bool], Any]) -> SessionData:
    """A session sent by `send_session`; `receive(raw)` gives the next message (raw: bytes)."""
    _kind, settings, names, meta = receive(False)
    if names is None:
        return SessionData(settings.config, None, settings.backend, settings.device)
    columns: dict[str, npt.NDArray[Any]] = {}
    for name, dtype in COLUMNS.items():
        columns[name] = np.frombuffer(receive(True), dtype=dtype)
    trace = Trace(columns, names, meta)  # checked whole where it was read; the bytes are its own columns
    return SessionData(settings.config, trace, settings.backend, settings.device)


# --- in the child ---------------------------------------------------------------------------------


def _read_for_parent(connection: Connection, language: str, path: str) -> None:
    lower_this_process()  # below the window's GUI thread, as the thread that started it
    set_language(language)
    try:
        data = open_file(path)
    except Exception as error:  # every failure goes back as words; the parent says them
        connection.send(("refused", problem_of(error, path)))
        return
    send_session(connection, data)


def _write_for_parent(connection: Connection, language: str, kind: str, path: str) -> None:
    lower_this_process()  # below the window's GUI thread, as the thread that started it
    set_language(language)
    data = receive_session(lambda raw: connection.recv_bytes() if raw else connection.recv())
    try:
        WRITERS[kind](path, data)
    except Exception as error:  # every failure goes back as words; the parent says them
        connection.send(("refused", problem_of(error, path)))
        return
    connection.send(("written",))


def _export_trace(trace: Trace, path: str) -> None:
    """Chrome trace JSON, for Perfetto; columns where the name asks for them (FILE.ovz)."""
    (export_columnar if is_columnar_name(path) else export_chrome)(trace, path)


def _trace_of(data: SessionData) -> Trace:
    if data.trace is None:
        raise ValueError("there is no trace to write")
    return data.trace

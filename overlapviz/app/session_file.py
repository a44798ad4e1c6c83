"""Session files for the app: open any file it reads, save the settings and the trace on show.

A session file holds the pipeline settings and the trace on show in one JSON document
(`core.files.session_document`), or, saved under a columnar suffix (``.ovz``), as columns
(`core.files.columnar_write`). `open_file` reads a session, a plain Chrome trace written by
overlapviz or another tool's trace through the one door for files (`importers.read`), which
tells them apart by their content; it reads regular files only, up to the input size limit
(`core.files.safe_read`). Writes are atomic: a failed save leaves the old file as it was (see
`core.files.atomic_write`).
"""

from __future__ import annotations

import json
import os

from overlapviz.core.files.atomic_write import atomic_write_text
from overlapviz.core.files.columnar_write import is_columnar_name, save_columnar_session
from overlapviz.core.files.session_document import SessionData, session_dict
from overlapviz.core.files.trace_format import TraceFormatError
from overlapviz.importers.read import read_with_settings

__all__ = ["SessionData", "SessionFormatError", "open_file", "save_session"]


class SessionFormatError(ValueError):
    """A file is neither an overlapviz session nor a trace; the message says what is wrong."""


def save_session(path: str | os.PathLike[str], data: SessionData) -> None:
    """Write `data` to `path` atomically (a link is written through; a special file is refused).

    As columns where the suffix asks for them (`is_columnar_name`), else as JSON.
    """
    if is_columnar_name(path):
        save_columnar_session(path, data)
        return
    atomic_write_text(path, json.dumps(session_dict(data), indent=1))


def open_file(path: str | os.PathLike[str]) -> SessionData:
    """Read a session file, a Chrome trace JSON written by overlapviz, or another tool's trace.

    Another tool's trace (a PyTorch profiler trace, an Nsight Systems export; see
    `overlapviz.importers.read`) comes with no pipeline settings: the controls stay as they are.

    Raises
    ------
    SessionFormatError
        The file is not JSON, or neither kind of file; the message names the file.
    InputFileError
        The file cannot be read, is not a regular file, or is over the size limit (it is an
        `OSError`).
    """
    try:
        return read_with_settings(path)
    except TraceFormatError as error:
        raise SessionFormatError(str(error)) from None

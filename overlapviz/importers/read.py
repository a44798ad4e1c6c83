"""Open any trace file overlapviz reads, whatever tool wrote it, telling them apart by content.

- an Nsight Systems SQLite export (``nsys export --type sqlite``), by its SQLite header (any other
  SQLite file is refused as no such export);
- a PyTorch profiler (Kineto) trace, by its first bytes (`looks_like_kineto`);
- an Nsight Systems report (``.nsys-rep``) or overlapviz's own CSV export is refused with what
  to open instead (`other_files`);
- anything else is taken for overlapviz's own Chrome trace JSON.
Each may be gzip-compressed (`overlapviz.core.safe_read` un-gzips, by content too). Every
failure is a `TraceFormatError` or an `InputFileError`, one line naming the file.
"""

from __future__ import annotations

import os

from overlapviz.core.safe_read import read_input_bytes
from overlapviz.core.trace import Trace
from overlapviz.core.trace_io import TraceFormatError, parse_json, trace_from_chrome
from overlapviz.importers.kineto import SNIFF_BYTES, looks_like_kineto, read_kineto
from overlapviz.importers.kineto_errors import KinetoFormatError
from overlapviz.importers.nsys import NsysFormatError, read_nsys
from overlapviz.importers.other_files import what_to_open_instead
from overlapviz.importers.to_trace import EmptyTraceError, activities_to_trace
from overlapviz.importers.untrusted_sqlite import SQLITE_MAGIC


def read_trace_file(path: str | os.PathLike[str]) -> Trace:
    """The trace in the file at `path`, from whichever tool wrote it.

    Raises
    ------
    TraceFormatError
        The file is not a trace any importer reads, or is damaged; the message names the file.
    InputFileError
        The file cannot be read, is not a regular file, or is over the size limit (an `OSError`).
    """
    raw = read_input_bytes(path, what="trace")
    return trace_from_bytes(raw, os.fspath(path))


def trace_from_bytes(raw: bytes, source: str) -> Trace:
    """The trace in a file's bytes (see `read_trace_file`); `source` names it in messages."""
    trace = another_tools_trace(raw, source)
    return trace if trace is not None else _own_trace(raw, source)


def another_tools_trace(raw: bytes, source: str) -> Trace | None:
    """The trace in another tool's file (Nsight Systems, PyTorch profiler); None for any other file.

    Raises
    ------
    TraceFormatError
        The file is that tool's, but damaged or empty of copies and kernels; or it is a file
        overlapviz does not read (an Nsight report, a CSV export), and the message says what to
        open instead.
    """
    instead = what_to_open_instead(raw, source)
    if instead is not None:
        raise TraceFormatError(instead)
    try:
        if raw.startswith(SQLITE_MAGIC):  # a damaged export gets the Nsight reader's words, not JSON's
            return activities_to_trace(read_nsys(raw, source))
        if looks_like_kineto(raw[:SNIFF_BYTES]):
            return activities_to_trace(read_kineto(raw, source))
    except (KinetoFormatError, NsysFormatError, EmptyTraceError) as error:
        raise TraceFormatError(str(error)) from None
    return None


def _own_trace(raw: bytes, source: str) -> Trace:
    document = parse_json(raw, source)
    try:
        return trace_from_chrome(document)
    except TraceFormatError as error:
        raise TraceFormatError(f"{source}: {error}") from None

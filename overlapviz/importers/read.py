"""The one door for files: which format a file is gets decided here, by its content, and only here.

- an Nsight Systems SQLite export (``nsys export --type sqlite``), by its SQLite header (any other
  SQLite file is refused as no such export);
- a PyTorch profiler (Kineto) trace, by its first bytes (`looks_like_kineto`);
- an Nsight Systems report (``.nsys-rep``) or overlapviz's own CSV export is refused with what
  to open instead (`other_files`);
- a zip is overlapviz's columnar file, a trace or a session (`core.files.columnar_read`);
- anything else is overlapviz's own JSON: a session (`core.files.session_document`, read by
  `read_with_settings` only) or a Chrome trace it wrote (`core.files.trace_import`).
Each may be gzip-compressed (`overlapviz.core.files.safe_read` un-gzips, by content too). The command
line reads the trace (`read_trace_file`), the app the trace with its settings
(`read_with_settings`); every failure is a `TraceFormatError` or an `InputFileError`, one line
that names the file (but for a trace's own settings out of range, which the app alone reads).
Another tool's format is one entry of `IMPORTERS`.
"""

from __future__ import annotations

import contextlib
import mmap
import os
from collections.abc import Callable
from dataclasses import dataclass

from overlapviz.core.config import ConfigError
from overlapviz.core.files.columnar_read import columnar_session, columnar_trace, is_columnar
from overlapviz.core.files.safe_read import map_input
from overlapviz.core.files.session_document import SessionData, config_of, is_session, session_of
from overlapviz.core.files.trace_format import TraceFormatError, file_reason
from overlapviz.core.files.trace_import import parse_json, trace_at_once, trace_from_bytes, trace_from_chrome
from overlapviz.core.trace.spans import Trace
from overlapviz.importers.activity import Activities
from overlapviz.importers.kineto import SNIFF_BYTES, looks_like_kineto, read_kineto
from overlapviz.importers.kineto_errors import KinetoFormatError
from overlapviz.importers.nsys import NsysFormatError, read_nsys
from overlapviz.importers.other_files import what_to_open_instead
from overlapviz.importers.to_trace import EmptyTraceError, activities_to_trace
from overlapviz.importers.untrusted_sqlite import SQLITE_MAGIC


@dataclass(frozen=True)
class Importer:
    """Another tool's trace format: how its file is known, and its reader."""

    tool: str
    recognises: Callable[[bytes], bool]
    read: Callable[[bytes, str], Activities]
    refusal: type[ValueError]  # what `read` raises for a damaged file; its words reach the user as they are


def _starts_like_sqlite(raw: bytes) -> bool:
    # A damaged export gets the Nsight reader's words, not JSON's, so its header alone decides.
    return raw.startswith(SQLITE_MAGIC)


def _starts_like_kineto(raw: bytes) -> bool:
    return looks_like_kineto(raw[:SNIFF_BYTES])


IMPORTERS = (
    Importer("Nsight Systems", _starts_like_sqlite, read_nsys, NsysFormatError),
    Importer("PyTorch profiler", _starts_like_kineto, read_kineto, KinetoFormatError),
)


def read_trace_file(path: str | os.PathLike[str]) -> Trace:
    """The trace in the file at `path`, from whichever tool wrote it (a session is no trace here).

    Raises
    ------
    TraceFormatError
        The file is not a trace any importer reads, or is damaged; the message names the file.
    InputFileError
        The file cannot be read, is not a regular file, or is over the size limit (an `OSError`).
    """
    raw, source = _read(path, "trace"), os.fspath(path)
    if isinstance(raw, mmap.mmap):
        return _mapped_kineto_trace(raw, source)
    if is_columnar(raw):
        return columnar_trace(raw, source)
    trace = _another_tools_trace(raw, source)
    return trace if trace is not None else trace_from_bytes(raw, source)


def read_with_settings(path: str | os.PathLike[str]) -> SessionData:
    """What the file at `path` holds: a session, or a trace with the settings that made it.

    Another tool's trace comes with no pipeline settings; overlapviz's trace with those in its
    metadata.

    Raises
    ------
    TraceFormatError
        The file is neither a session nor a trace any importer reads, or is damaged; the
        message names the file.
    InputFileError
        As for `read_trace_file`.
    """
    raw, source = _read(path, "session"), os.fspath(path)
    if isinstance(raw, mmap.mmap):
        return SessionData(None, _mapped_kineto_trace(raw, source))
    if is_columnar(raw):
        return columnar_session(raw, source)
    trace = _another_tools_trace(raw, source)
    if trace is not None:
        return SessionData(None, trace)
    return _own_file(raw, source)


def _read(path: str | os.PathLike[str], what: str) -> bytes | mmap.mmap:
    """The file's bytes; a large PyTorch profiler trace as a map, which `read_kineto` lets go of as it reads."""
    data = map_input(path, what=what, mapped_if=_starts_like_kineto)
    if isinstance(data, bytes) or _starts_like_kineto(data[:SNIFF_BYTES]):
        return data
    with data:
        whole: bytes = data[:]  # the other readers want bytes
    return whole


def _another_tools_trace(raw: bytes, source: str) -> Trace | None:
    """The trace in another tool's file; None for any other file.

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
    importer = next((importer for importer in IMPORTERS if importer.recognises(raw)), None)
    if importer is None:
        return None
    try:
        return activities_to_trace(importer.read(raw, source))
    except (importer.refusal, EmptyTraceError) as error:
        raise TraceFormatError(str(error)) from None


def _mapped_kineto_trace(mapped: mmap.mmap, source: str) -> Trace:
    """The trace of a PyTorch profiler trace's mapped file, the map closed once read."""
    try:
        activities = read_kineto(mapped, source)
    except KinetoFormatError as error:
        raise TraceFormatError(str(error)) from None
    finally:
        with contextlib.suppress(BufferError):  # a failure's frames may still hold its bytes: it closes as they go
            mapped.close()
    try:
        return activities_to_trace(activities)
    except EmptyTraceError as error:
        raise TraceFormatError(str(error)) from None


def _own_file(raw: bytes, source: str) -> SessionData:
    """A session or a Chrome trace overlapviz wrote, with its settings."""
    trace = trace_at_once(raw)
    if trace is not None:
        try:
            return _with_settings(trace)
        except TraceFormatError:
            pass  # read again the slow way, which says what is wrong
    document = parse_json(raw, source)
    try:
        if is_session(document):
            return session_of(document)
        trace = trace_from_chrome(document)
    except (TraceFormatError, ConfigError, TypeError) as error:
        raise TraceFormatError(file_reason(source, error)) from None
    return _with_settings(trace)


def _with_settings(trace: Trace) -> SessionData:
    """`trace` with the settings, backend and device its metadata holds.

    Raises
    ------
    TraceFormatError
        The settings are not an object, or one is unknown or out of range; the message, as
        ever, does not name the file.
    """
    try:
        config = config_of(trace.meta.config)
    except (ConfigError, TypeError) as error:
        raise TraceFormatError(str(error)) from None
    return SessionData(config, trace, trace.meta.backend, trace.meta.device)

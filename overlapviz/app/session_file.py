"""Session files: the pipeline settings and the trace on show, in one JSON document.

A session file is ``{"overlapviz_session": 1, "config": ..., "backend": ..., "device": ...,
"trace": <Chrome trace JSON>}``: the trace part is exactly what `core.trace_io` exports, so a
session also holds a trace that opens in Perfetto once extracted. `open_file` reads a session,
a plain Chrome trace written by overlapviz or another tool's trace (a PyTorch profiler trace,
an Nsight Systems export), each gzip-compressed or not, telling them apart by their content;
it reads regular files only, up to the input size limit (`core.safe_read`). Writes are
atomic: a failed save leaves the old file as it was (see `core.atomic`).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any

from overlapviz.core.atomic import atomic_write_text
from overlapviz.core.config import ConfigError, PipelineConfig
from overlapviz.core.safe_read import read_input_bytes
from overlapviz.core.trace import Trace
from overlapviz.core.trace_io import TraceFormatError, chrome_dict, parse_json, trace_at_once, trace_from_chrome
from overlapviz.importers.read import another_tools_trace

SESSION_KEY = "overlapviz_session"
SESSION_VERSION = 1


class SessionFormatError(ValueError):
    """A file is neither an overlapviz session nor a trace; the message says what is wrong."""


@dataclass(frozen=True)
class SessionData:
    """What a session file holds (a plain trace file gives only a trace and its config)."""

    config: PipelineConfig | None
    trace: Trace | None
    backend: str | None = None
    device: str | None = None


def save_session(path: str | os.PathLike[str], data: SessionData) -> None:
    """Write `data` to `path` atomically (a link is written through; a special file is refused)."""
    document: dict[str, Any] = {
        SESSION_KEY: SESSION_VERSION,
        "config": None if data.config is None else data.config.to_dict(),
        "backend": data.backend,
        "device": data.device,
        "trace": None if data.trace is None else chrome_dict(data.trace),
    }
    atomic_write_text(path, json.dumps(document, indent=1))


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
    raw = read_input_bytes(path, what="session")
    try:
        other = another_tools_trace(raw, os.fspath(path))
    except TraceFormatError as error:
        raise SessionFormatError(str(error)) from None
    if other is not None:
        return SessionData(None, other)
    own = _own_trace_at_once(raw)
    if own is not None:
        return own
    try:
        document = parse_json(raw, path)
    except TraceFormatError as error:
        raise SessionFormatError(str(error)) from None
    try:
        if isinstance(document, dict) and SESSION_KEY in document:
            return _session_of(document)
        trace = trace_from_chrome(document)
    except (SessionFormatError, TraceFormatError, ConfigError, TypeError) as error:
        raise SessionFormatError(f"{path}: {error}") from None
    return SessionData(_config_of(trace.meta.config), trace, trace.meta.backend, trace.meta.device)


def _own_trace_at_once(raw: bytes) -> SessionData | None:
    """A well-formed trace file overlapviz wrote, read the fast way (`trace_at_once`); None for anything else."""
    trace = trace_at_once(raw)
    if trace is None:
        return None
    try:
        config = _config_of(trace.meta.config)
    except (SessionFormatError, ConfigError, TypeError):
        return None  # read again the slow way, which says what is wrong
    return SessionData(config, trace, trace.meta.backend, trace.meta.device)


def _session_of(document: dict[str, Any]) -> SessionData:
    version = document[SESSION_KEY]
    if isinstance(version, bool) or not isinstance(version, int) or not 1 <= version <= SESSION_VERSION:
        raise SessionFormatError(f"session format {version!r}: this overlapviz reads formats 1 to {SESSION_VERSION}")
    trace = None if document.get("trace") is None else trace_from_chrome(document["trace"])
    backend, device = document.get("backend"), document.get("device")
    return SessionData(
        _config_of(document.get("config")),
        trace,
        backend if isinstance(backend, str) else None,
        device if isinstance(device, str) else None,
    )


def _config_of(data: object) -> PipelineConfig | None:
    if data is None:
        return None
    if not isinstance(data, dict):
        raise SessionFormatError("the config is not an object of settings")
    return PipelineConfig.from_dict(data)

"""Session files' document: the pipeline settings and the trace on show, as one JSON object.

A session is ``{"overlapviz_session": 1, "config": ..., "backend": ..., "device": ...,
"trace": <Chrome trace JSON>}``: the trace part is exactly what `core.files.trace_export` writes, so a
session also holds a trace that opens in Perfetto once extracted. This module turns a
`SessionData` into that object and back; which file is a session, and reading it from disk,
is `overlapviz.importers.read`'s; writing it to disk is `overlapviz.app.session_file`'s.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from overlapviz.core.config import PipelineConfig
from overlapviz.core.files.trace_export import chrome_dict
from overlapviz.core.files.trace_format import TraceFormatError
from overlapviz.core.files.trace_import import trace_from_chrome
from overlapviz.core.i18n import _
from overlapviz.core.trace.spans import Trace

SESSION_KEY = "overlapviz_session"
SESSION_VERSION = 1


@dataclass(frozen=True)
class SessionData:
    """What a session file holds (a plain trace file gives only a trace and its config)."""

    config: PipelineConfig | None
    trace: Trace | None
    backend: str | None = None
    device: str | None = None


def session_dict(data: SessionData) -> dict[str, Any]:
    """The JSON object a session file holds for `data`."""
    return {
        SESSION_KEY: SESSION_VERSION,
        "config": None if data.config is None else data.config.to_dict(),
        "backend": data.backend,
        "device": data.device,
        "trace": None if data.trace is None else chrome_dict(data.trace),
    }


def is_session(document: object) -> bool:
    """Whether parsed JSON is a session (it says so by its key), whatever else it holds."""
    return isinstance(document, dict) and SESSION_KEY in document


def session_of(document: dict[str, Any]) -> SessionData:
    """What a session's parsed JSON holds.

    Raises
    ------
    TraceFormatError, ConfigError, TypeError
        A format this overlapviz does not read, a trace it cannot, or settings out of range;
        the message does not name the file.
    """
    version = document[SESSION_KEY]
    if isinstance(version, bool) or not isinstance(version, int) or not 1 <= version <= SESSION_VERSION:
        message = _("session format {version}: this overlapviz reads formats 1 to {newest}")
        raise TraceFormatError(message.format(version=repr(version), newest=SESSION_VERSION))
    trace = None if document.get("trace") is None else trace_from_chrome(document["trace"])
    backend, device = document.get("backend"), document.get("device")
    return SessionData(
        config_of(document.get("config")),
        trace,
        backend if isinstance(backend, str) else None,
        device if isinstance(device, str) else None,
    )


def config_of(data: object) -> PipelineConfig | None:
    """The pipeline settings a session or a trace's metadata holds (None: none).

    Raises
    ------
    TraceFormatError, ConfigError, TypeError
        `data` is not an object of settings, or a setting is unknown or out of range.
    """
    if data is None:
        return None
    if not isinstance(data, dict):
        raise TraceFormatError(_("the config is not an object of settings"))
    return PipelineConfig.from_dict(data)

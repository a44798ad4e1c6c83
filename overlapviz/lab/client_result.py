"""A lab server's answer made a run again: the trace drawn and summarised as a local run's.

The answer's ``trace`` is the Chrome trace that ``run --trace`` writes, so it is read by the
project's own reader of that format (`core.files.trace_import`); the figures are worked out
from it as for a local run, and the server's run time and its own words (``server``) are kept.
The trace's metadata names the server, so that the timeline can say where the run was made.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from overlapviz.core.config import ConfigError, PipelineConfig
from overlapviz.core.files.trace_format import TraceFormatError
from overlapviz.core.files.trace_import import trace_from_chrome
from overlapviz.core.i18n import _
from overlapviz.core.trace.meta import TraceMeta
from overlapviz.lab.client import LabError, server_host
from overlapviz.session import RunResult, analyse

LAB_SERVER_ENTRY = "lab_server"  # the trace metadata's entry naming the server (host:port) a run came from


@dataclass(frozen=True)
class LabRun:
    """One run made on the lab server: the run, its settings, and the server's answer without its trace."""

    result: RunResult
    config: PipelineConfig | None
    answer: dict[str, Any]

    @property
    def server(self) -> dict[str, Any]:
        """The server's own words on the run: device, backend, time queued, cached."""
        server = self.answer.get("server")
        return server if isinstance(server, dict) else {}


def lab_run(answer: dict[str, Any], url: str) -> LabRun:
    """The run in `answer` (a ``POST /v1/runs`` answer with ``trace``) from the server at `url`.

    Raises
    ------
    LabError
        The answer has no trace, or one (or settings) this version cannot read.
    """
    document = answer.get("trace")
    if not isinstance(document, dict):
        raise LabError(_("the lab server at {url} sent no trace with the run").format(url=url))
    try:
        trace = trace_from_chrome(document)
    except TraceFormatError as error:
        message = _("the lab server at {url} sent a trace this version cannot read: {error}")
        raise LabError(message.format(url=url, error=error)) from None
    trace = dataclasses.replace(trace, meta=trace.meta.replace(**{LAB_SERVER_ENTRY: server_host(url)}))
    wall_s = answer.get("wall_s")
    result = analyse(trace, float(wall_s) if isinstance(wall_s, (int, float)) else 0.0)
    kept = {key: value for key, value in answer.items() if key != "trace"}
    return LabRun(result, _config_of(answer.get("config"), url), kept)


def _config_of(table: object, url: str) -> PipelineConfig | None:
    if table is None:
        return None
    try:
        return PipelineConfig.from_dict(table) if isinstance(table, dict) else None
    except (ConfigError, TypeError) as error:
        message = _("the lab server at {url} sent settings this version cannot read: {error}")
        raise LabError(message.format(url=url, error=error)) from None


def lab_origin(meta: TraceMeta) -> str | None:
    """``measured on NVIDIA H200 at lab:8765`` for a run made on a lab server (active language); None for any other."""
    host = meta.extra.get(LAB_SERVER_ENTRY)
    if not isinstance(host, str) or not host:
        return None
    device = meta.device_name or meta.device or _("the lab GPU")
    origin = _("simulated on {device} at {host}") if meta.simulated else _("measured on {device} at {host}")
    return origin.format(device=device, host=host)

"""Run one job's payload on a backend: what a worker does with each job it is handed.

The report is `run_report.json_run`, exactly what ``overlapviz run --json`` prints for the
same settings, and the trace is `trace_export.chrome_dict`, what ``run --trace FILE.json``
writes. A failed run becomes `JobFailed` with a one-line reason, so the worker goes on.
"""

from __future__ import annotations

from typing import Any

from overlapviz.backends.base import Backend
from overlapviz.core.config import ConfigError, PipelineConfig
from overlapviz.core.files.trace_export import chrome_dict
from overlapviz.core.i18n import _
from overlapviz.core.run_errors import BackendError
from overlapviz.lab.job import JobFailed
from overlapviz.run_report import json_run
from overlapviz.session import run_on

Outcome = tuple[dict[str, Any], dict[str, Any]]  # the report and the Chrome trace


def run_payload(backend: Backend, payload: dict[str, Any]) -> Outcome:
    """Run a `Job.payload` on `backend`; its report and Chrome trace.

    Raises
    ------
    JobFailed
        The settings are not a pipeline, or the run failed (the backend refused, out of
        memory, any other error of the run); the message says why in one line.
    """
    try:
        config = PipelineConfig.from_dict(payload["config"])
        result = run_on(backend, config, payload["device"])
        return json_run(config, result), chrome_dict(result.trace)
    except (BackendError, ConfigError) as error:
        raise JobFailed(one_line(str(error))) from None
    except MemoryError:
        raise JobFailed(_("the server ran out of memory for this run")) from None
    except Exception as error:  # a bug of the run must not stop the worker that serves the class
        message = _("the run failed: {error}").format(error=f"{type(error).__name__}: {error}")
        raise JobFailed(one_line(message)) from None


def took_too_long(limit_s: float) -> str:
    """Why a run stopped at the server's time limit (its worker's words, in the worker's language)."""
    return _("the run took over the server's limit of {seconds} s and was stopped").format(seconds=f"{limit_s:g}")


def one_line(text: str, limit: int = 300) -> str:
    """`text` on one line, cut to `limit` characters (a reason may quote a long value)."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"

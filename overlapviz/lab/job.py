"""A job the lab server runs, and its result: settings in, the run's report out.

A job carries only a pipeline's settings and the device to run them on; it is sent to a
worker as plain JSON-ready values (`Job.payload`), so a queue in another process or on
another machine carries it the same way.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field, replace
from typing import Any

from overlapviz.core.config import PipelineConfig


class JobFailed(Exception):
    """The run itself failed (out of memory, over the run-time limit, the backend refused); the message says why."""


@dataclass(frozen=True, slots=True)
class Job:
    """One run asked for: the pipeline, the device key, and whether the answer carries the trace."""

    config: PipelineConfig
    device: str
    trace: bool = False
    alike: str = ""  # the devices whose answers equal this device's, when the job named none (`device_choice`)

    def payload(self) -> dict[str, Any]:
        """The job as plain values for a worker: the config's `to_dict` and the device key."""
        return {"config": self.config.to_dict(), "device": self.device}

    def cache_key(self) -> str:
        """sha256 of the canonical config JSON and the device key (or its model's): equal for equal answers."""
        canonical = json.dumps(self.config.to_dict(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(f"{canonical}\n{self.alike or self.device}".encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class JobResult:
    """A finished run: what ``overlapviz run --json`` prints for it, its Chrome trace, and where and when it ran.

    Times are on the server's clock (``time.time_ns()``): `started_ns` and `ended_ns` bracket
    the run on its device, `queued_ms` is how long the job waited for the device.
    """

    report: dict[str, Any]
    trace: dict[str, Any]
    device: str
    device_name: str
    backend: str
    queued_ms: float
    started_ns: int
    ended_ns: int
    cached: bool = False
    extra: dict[str, Any] = field(default_factory=dict)  # what a dispatcher adds to "server" (its worker, say)

    def as_cached(self) -> JobResult:
        """The same result, answered from the cache: it did not wait for a device."""
        return replace(self, cached=True, queued_ms=0.0)

    def answer(self, url: str, with_trace: bool) -> dict[str, Any]:
        """The body of a POST /v1/runs answer: the report, "server", and the trace when asked."""
        server = {
            "url": url,
            "device": self.device,
            "device_name": self.device_name,
            "backend": self.backend,
            "queued_ms": round(self.queued_ms, 3),
            "job_started_ns": self.started_ns,
            "job_ended_ns": self.ended_ns,
            "cached": self.cached,
            **self.extra,
        }
        return {**self.report, "server": server, **({"trace": self.trace} if with_trace else {})}

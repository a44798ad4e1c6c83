"""Runs pipelines and keeps what the views show: the config, the backend, the last result.

Qt-free: the app calls `run_pipeline` (or `Session.run`) on a worker thread, the command line
calls it directly. A result carries the trace with its metrics and findings, so every view
works the same for the model, a real GPU and a file.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from overlapviz.backends import registry
from overlapviz.backends.base import SWEEP_SIZES, Backend, DeviceInfo
from overlapviz.core.analysis.metrics import Metrics, compute_metrics
from overlapviz.core.cancel import CancelToken
from overlapviz.core.config import PipelineConfig
from overlapviz.core.devices.figures import trace_findings
from overlapviz.core.findings import Finding
from overlapviz.core.i18n import _
from overlapviz.core.run_errors import BackendError
from overlapviz.core.trace.spans import Trace
from overlapviz.importers.read import read_trace_file


class UnknownDeviceError(BackendError):
    """No usable backend has the asked-for device; the message lists the devices there are."""


class SweepUnsupportedError(BackendError):
    """The chosen backend has no bandwidth sweep."""

    def __init__(self, backend: str) -> None:
        super().__init__(
            _("the {backend} backend cannot sweep copy bandwidth in this version; the model can").format(
                backend=backend
            )
        )
        self.backend = backend


@dataclass(frozen=True)
class RunResult:
    """One run: its trace, the numbers and explanations computed from it, and its wall time."""

    trace: Trace
    metrics: Metrics
    findings: list[Finding]
    wall_s: float  # how long the backend took to produce the trace (0 for a loaded file)


def analyse(trace: Trace, wall_s: float = 0.0) -> RunResult:
    """Compute the metrics and findings of `trace`.

    Parameters
    ----------
    trace
        A trace from a backend or a file.
    wall_s
        How long producing it took.

    Returns
    -------
    RunResult
        The trace with its metrics and findings.
    """
    metrics = compute_metrics(trace)
    return RunResult(trace, metrics, trace_findings(trace, metrics), wall_s)


def find_backend(name: str = "auto", device: str | None = None) -> Backend:
    """Return the backend to run on: `name`, or for ``auto`` the first usable one with `device`.

    With ``auto`` and no device this is `registry.resolve_backend` (the real GPU if usable,
    else the model). With ``auto`` and a device (say ``tesla-c1060``), it is the first usable
    backend that has that device, so a simulated profile works on a machine with a GPU.

    Raises
    ------
    UnknownDeviceError
        `device` is not one of the backend's devices.
    BackendError
        The backend cannot be used here.
    """
    if device is None:
        return registry.resolve_backend(name)
    try:
        from_file = registry.profile_file_backend(name, device)
    except BackendError as error:  # a profile file that cannot be read is bad input
        raise UnknownDeviceError(str(error)) from None
    if from_file is not None:
        return from_file
    auto = name == "auto" and os.environ.get(registry.BACKEND_ENV, "auto") == "auto"
    candidates = (
        [registry.load_backend(s.name) for s in registry.probe_backends() if s.usable]
        if auto
        else [registry.resolve_backend(name)]
    )
    for backend in candidates:
        if device in device_keys(backend):
            return backend
    known = sorted({key for backend in candidates for key in device_keys(backend)})
    if auto:
        message = _("unknown device {device} for any usable backend; choose one of: {known}").format(
            device=repr(device), known=", ".join(known)
        )
    else:
        message = _("unknown device {device} for the {backend} backend; choose one of: {known}").format(
            device=repr(device), backend=candidates[0].name, known=", ".join(known)
        )
    raise UnknownDeviceError(message)


def device_keys(backend: Backend) -> list[str]:
    """List the device keys `backend` accepts (what `--device` takes)."""
    return [info.key for info in backend.devices()]


def run_pipeline(
    config: PipelineConfig,
    backend: str = "auto",
    device: str | None = None,
    cancel: CancelToken | None = None,
) -> RunResult:
    """Run `config` on a backend and analyse the trace.

    Parameters
    ----------
    config
        The pipeline.
    backend
        ``auto``, ``sim`` or ``cupy`` (see `find_backend`).
    device
        The device key; None for the backend's default.
    cancel
        Checked by the backend between steps.

    Returns
    -------
    RunResult
        The trace, its metrics and findings, and how long the run took.

    Raises
    ------
    BackendError
        The backend or device cannot be used, or the run failed (`RunCancelled` when
        cancelled).
    """
    return run_on(find_backend(backend, device), config, device, cancel)


def run_on(
    backend: Backend, config: PipelineConfig, device: str | None = None, cancel: CancelToken | None = None
) -> RunResult:
    """Run `config` on a backend already chosen (see `run_pipeline`) and analyse the trace."""
    started = time.perf_counter()
    trace = backend.run(config, device, cancel)
    return analyse(trace, time.perf_counter() - started)


@dataclass(frozen=True)
class BandwidthSweep:
    """Copy bandwidth by transfer size on one device, with the link's theoretical limit."""

    backend: str
    device: str | None
    device_name: str | None
    simulated: bool
    link: str | None  # e.g. "PCIe Gen5 x16"
    link_peak_gbps: float | None  # per direction, 1e9 bytes/s
    points: list[dict[str, Any]]  # size (bytes), memory, direction ("h2d"/"d2h"), gbps, ...

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready, as `overlapviz bandwidth --json` prints it."""
        return {
            "backend": self.backend, "device": self.device, "device_name": self.device_name,
            "simulated": self.simulated, "link": self.link, "link_peak_gbps": self.link_peak_gbps,
            "points": [dict(point) for point in self.points],
        }  # fmt: skip


def sweep_bandwidth(backend: str = "auto", device: str | None = None) -> BandwidthSweep:
    """Measure (or, on the model, compute) H2D and D2H bandwidth from 64 KiB to 1 GiB.

    One copy at a time, from each kind of host memory the sweep covers that the device has
    (pinned, pageable, write-combined), on `device` of `backend` (see `find_backend`).

    Raises
    ------
    SweepUnsupportedError
        The backend cannot sweep.
    BackendError
        The backend or device cannot be used, or the sweep failed.
    """
    chosen = find_backend(backend, device)
    sweep = getattr(chosen, "bandwidth_sweep", None)
    if not callable(sweep):
        raise SweepUnsupportedError(chosen.name)
    points = [dict(point) for point in sweep(sizes=SWEEP_SIZES, device=device)]
    info = device_info(chosen, device)
    facts = info.facts if info else {}
    return BandwidthSweep(
        backend=chosen.name,
        device=info.key if info else device,
        device_name=info.name if info else None,
        simulated=bool(info.simulated) if info else False,
        link=facts.get("link"),
        link_peak_gbps=facts.get("link_peak_gbps"),
        points=points,
    )


def device_info(backend: Backend, device: str | None) -> DeviceInfo | None:
    """The backend's description of `device` (its default device when None)."""
    infos = backend.devices()
    matching = [info for info in infos if device is None or info.key == device]
    return matching[0] if matching else None


@dataclass
class Session:
    """What the user has chosen and what the last run gave."""

    config: PipelineConfig = field(default_factory=PipelineConfig)
    backend: str = "auto"
    device: str | None = None
    last: RunResult | None = None

    def update(self, **changes: Any) -> PipelineConfig:
        """Change some settings of the config (validated; `ConfigError` names a bad one)."""
        self.config = self.config.replace(**changes)
        return self.config

    def run(self, cancel: CancelToken | None = None) -> RunResult:
        """Run the current config on the current backend and device; keep the result."""
        result = run_pipeline(self.config, self.backend, self.device, cancel)
        self.last = result
        return result

    def open_trace(self, path: str | os.PathLike[str]) -> RunResult:
        """Load a trace file and keep it as the last result: overlapviz's, a PyTorch profiler's, an Nsight export.

        Raises
        ------
        TraceFormatError
            The file is not a trace overlapviz wrote.
        OSError
            The file cannot be read.
        """
        result = analyse(read_trace_file(Path(path)))
        self.last = result
        return result

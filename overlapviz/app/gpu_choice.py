"""Which GPU the metrics panel speaks of, for a trace of several GPUs.

A trace of one GPU offers no choice: the panel shows the whole trace's figures. With two or
more, the panel offers "All GPUs" (the whole trace's figures and findings, the default) and
each GPU alone (`overlapviz.core.devices.figures`). The choice holds across traces that have the
chosen GPU (a part of the same file, say) and falls back to all GPUs where a trace has not.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from overlapviz.core.analysis.metrics import Metrics
from overlapviz.core.devices.figures import findings_per_device, gpu_title, metrics_per_device
from overlapviz.core.findings.finding import Finding
from overlapviz.core.i18n import N_, _
from overlapviz.core.trace.lanes import gpus_of
from overlapviz.core.trace.spans import Trace

ALL_GPUS = N_("All GPUs")


@dataclass(frozen=True, slots=True)
class GpuOption:
    """One entry of the choice: a GPU by index, or None for all of them."""

    device: int | None
    title: str


@dataclass(frozen=True, slots=True)
class Figures:
    """What the panel shows: the metrics and the findings of the choice."""

    metrics: Metrics
    findings: Sequence[Finding]


def gpu_options(trace: Trace) -> tuple[GpuOption, ...]:
    """All GPUs, then each GPU by its title; nothing for a trace of one GPU."""
    gpus = gpus_of(trace)
    if len(gpus) < 2:
        return ()
    return (GpuOption(None, _(ALL_GPUS)), *(GpuOption(device, gpu_title(trace.meta, device)) for device in gpus))


class GpuChoice:
    """The GPU whose figures are on show, and those figures."""

    def __init__(self) -> None:
        self._trace: Trace | None = None
        self._whole: Figures | None = None
        self._options: tuple[GpuOption, ...] = ()
        self._device: int | None = None

    @property
    def options(self) -> tuple[GpuOption, ...]:
        """What can be chosen for the trace on show (nothing where it has one GPU)."""
        return self._options

    @property
    def device(self) -> int | None:
        """The GPU chosen; None for all of them."""
        return self._device

    def show(self, trace: Trace, metrics: Metrics, findings: Sequence[Finding]) -> None:
        """Take a new trace on show, with its whole-trace `metrics` and `findings`."""
        self._trace, self._whole = trace, Figures(metrics, findings)
        self._options = gpu_options(trace)
        if self._device not in {option.device for option in self._options}:
            self._device = None

    def clear(self) -> None:
        """Nothing on show: no choice to offer; the GPU chosen is kept for the next trace."""
        self._trace, self._whole, self._options = None, None, ()

    def choose(self, device: int | None) -> None:
        """Show `device`'s figures (None: all GPUs').

        Raises
        ------
        ValueError
            The trace on show has no such GPU to choose.
        """
        if device is not None and device not in {option.device for option in self._options}:
            raise ValueError(f"the trace on show has no GPU {device} to choose")
        self._device = device

    def figures(self) -> Figures | None:
        """The figures of the choice; None with no trace on show."""
        if self._trace is None or self._whole is None or self._device is None:
            return self._whole
        return Figures(metrics_per_device(self._trace)[self._device], findings_per_device(self._trace)[self._device])

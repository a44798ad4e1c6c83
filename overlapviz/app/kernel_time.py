"""The kernel's time per chunk for the settings on show, for the kernel slider's label.

On a simulated device the model itself says how long its kernel takes for those settings
(`backends.sim.ops.kernel_cost`), before any run. On a real GPU only a run can tell: the
median rate of the last run on that same device, with that same kernel
(`overlapviz.view.kernel_time.KernelRate`), predicts a new setting closely enough to label the
slider while it moves. A rate measured on another device or kernel is never used: it once
labelled a 32 GiB pipeline on the H200 model with the time a Tesla would take. Here, not in
`view`, because asking the model is running the simulator's code.
"""

from __future__ import annotations

from typing import Protocol

from overlapviz.backends import registry
from overlapviz.backends.sim.backend import SimBackend
from overlapviz.backends.sim.ops import kernel_cost
from overlapviz.core.config import KernelKind, PipelineConfig
from overlapviz.core.i18n import N_, _
from overlapviz.core.run_errors import BackendError
from overlapviz.view.formatting import format_duration
from overlapviz.view.kernel_time import KernelRate, kernel_work

NO_KERNEL_WORK = N_("copies only: no kernel work")
BEFORE_A_RUN = N_("kernel time per chunk: after the first run on this device")


class Placement(Protocol):
    """Where the settings would run: a backend and its device (the app's run target is one)."""

    @property
    def backend(self) -> str:
        """The backend's name: ``sim`` for the model."""
        ...

    @property
    def device(self) -> str:
        """The device's key: a model profile for ``sim``."""
        ...


class KernelTimeHint:
    """Remembers the last rate measured on each real device and kernel; words for the settings on show."""

    def __init__(self) -> None:
        self._rates: dict[tuple[str, str, KernelKind], float] = {}

    def learn(self, rate: KernelRate | None) -> None:
        """Keep `rate` for its device and kernel (None: nothing new)."""
        if rate is not None:
            self._rates[(rate.backend, rate.device, rate.kernel)] = rate.ns_per_work

    def text(self, config: PipelineConfig, target: Placement | None) -> str:
        """``≈ 0.300 ms per chunk`` for `config` on `target`; what is known when the time is not."""
        if not config.has_kernel_work:
            return _(NO_KERNEL_WORK)
        ns = None if target is None else self._kernel_ns(config, target)
        return _(BEFORE_A_RUN) if ns is None else _("\u2248 {duration} per chunk").format(duration=format_duration(ns))

    def _kernel_ns(self, config: PipelineConfig, target: Placement) -> float | None:
        if target.backend == "sim":
            return model_kernel_ns(config, target.device)
        rate = self._rates.get((target.backend, target.device, config.kernel))
        return None if rate is None else rate * kernel_work(config)


def model_kernel_ns(config: PipelineConfig, device: str) -> float | None:
    """The model's time for one chunk's kernel of `config` on the simulated `device` (None if unknown)."""
    try:
        backend = registry.load_backend("sim")
        if not isinstance(backend, SimBackend):
            return None
        return kernel_cost(config, backend.profile(device))[0]
    except BackendError:
        return None

"""The kernel's rate in a run: its median time per unit of work, and where it ran.

On a real GPU only a run can tell how long the kernel takes: its work grows with the elements
of a chunk times the iterations, so the median kernel time per element-iteration of the last
run on a device predicts a new setting on that same device, with that same kernel
(`overlapviz.app.kernel_time` labels the kernel slider with it).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from overlapviz.core.config import KernelKind, PipelineConfig
from overlapviz.core.trace.spans import OpKind, Trace


@dataclass(frozen=True, slots=True)
class KernelRate:
    """Median kernel ns per unit of work (`kernel_work`) of one run, and what it ran on."""

    ns_per_work: float
    backend: str
    device: str
    kernel: KernelKind


def kernel_work(config: PipelineConfig) -> int:
    """A chunk's kernel work: elements times iterations for the FMA chain, elements for sincos."""
    iterations = config.iters if config.kernel is KernelKind.FMA else 1
    return config.chunk_elements * iterations


def kernel_rate(trace: Trace) -> KernelRate | None:
    """The kernel's rate in `trace` and where it ran; None when it cannot be told."""
    meta = trace.meta
    config_data = meta.config
    kernels = trace.mask(OpKind.KERNEL)
    if not isinstance(config_data, dict) or not kernels.any():
        return None
    try:
        config = PipelineConfig.from_dict(config_data)
    except (TypeError, ValueError):
        return None
    work = kernel_work(config)
    if work <= 0:
        return None
    rate = float(np.median(trace.durations_of(kernels))) / work
    return KernelRate(rate, meta.backend or "", meta.device or "", config.kernel)

"""The kernel's time per chunk: measured in the last run, scaled for the current setting.

The FMA-chain kernel's work grows with the elements of a chunk times the iterations, so the
last run's median kernel time per element-iteration predicts a new setting closely enough to
label the slider while it moves; the next run replaces the estimate with a measurement.
"""

from __future__ import annotations

import numpy as np

from overlapviz.core.config import PipelineConfig
from overlapviz.core.trace import OpKind, Trace
from overlapviz.view.formatting import format_duration


def kernel_rate_ns(trace: Trace) -> float | None:
    """Median kernel time per element-iteration in `trace`; None when it cannot be told."""
    config_data = trace.meta.config
    kernels = trace.mask(OpKind.KERNEL)
    if not isinstance(config_data, dict) or not kernels.any():
        return None
    try:
        config = PipelineConfig.from_dict(config_data)
    except (TypeError, ValueError):
        return None
    work = config.chunk_elements * config.iters
    if work <= 0:
        return None
    return float(np.median(trace.duration_ns[kernels])) / work


def kernel_time_text(config: PipelineConfig, rate_ns: float | None) -> str:
    """``≈ 0.30 ms per chunk`` for `config`; what is known when the rate is not."""
    if config.iters == 0:
        return "copies only: no kernel work"
    if rate_ns is None:
        return "kernel time per chunk: after the first run"
    return f"\u2248 {format_duration(rate_ns * config.chunk_elements * config.iters)} per chunk"

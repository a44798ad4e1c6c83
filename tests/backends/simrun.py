"""Small helpers for running the simulated backend in tests."""

from __future__ import annotations

import numpy as np

from overlapviz.backends.sim import create_backend
from overlapviz.core.config import MIB, PipelineConfig
from overlapviz.core.trace.spans import OpKind, Trace

SIM = create_backend()


def simulate(device: str = "h200", **config: object) -> Trace:
    """Run a pipeline (PipelineConfig keyword arguments) on a simulated device."""
    return SIM.run(PipelineConfig(**config), device)  # type: ignore[arg-type]


def makespan_ms(trace: Trace) -> float:
    """First device op start to last device op end."""
    device = trace.device_mask
    return float(trace["end_ns"][device].max() - trace["start_ns"][device].min()) / 1e6


def kind_rows(trace: Trace, kind: OpKind, device: int | None = None) -> np.ndarray:
    """The rows of one kind, on one GPU where `device` is given, in trace order."""
    mask = trace.mask(kind)
    if device is not None:
        mask = mask & (trace["device"] == device)
    return np.flatnonzero(mask)


def spans(trace: Trace, kind: OpKind) -> np.ndarray:
    """(start, end) rows of one kind, sorted by start."""
    rows = trace.mask(kind)
    pairs = np.column_stack([trace["start_ns"][rows], trace["end_ns"][rows]])
    return pairs[np.argsort(pairs[:, 0], kind="stable")]


def overlaps(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether any span of `a` overlaps any span of `b` in time (touching ends do not count)."""
    return any(bool(np.any((b[:, 0] < end) & (b[:, 1] > start))) for start, end in a)


def harris_config(version: str) -> dict[str, object]:
    """The problem of Harris (2012): 16 MiB of float32, 4 streams; sequential, V1 or V2."""
    common: dict[str, object] = {"size_bytes": 16 * MIB, "kernel": "sincos", "iters": 0}
    if version == "sequential":
        return {**common, "streams": 1, "chunks": 1, "stream_kind": "legacy"}
    return {**common, "streams": 4, "chunks": 4, "order": "depth" if version == "v1" else "breadth"}

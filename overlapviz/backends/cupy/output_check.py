"""Check a run's output on a sample against a host reference (pure numpy).

A timeline must never show work that did not happen. Before each run the sampled output
positions are poisoned with NaN; after it they must hold what the kernel computes from the
input, within float32 rounding. The sample covers the first and last element of every chunk
plus spread-out positions, so a skipped copy or kernel on any chunk is caught.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from overlapviz.core.config import KernelKind, PipelineConfig

FMA_SCALE = float(np.float32(0.999))  # the kernel's constants as float32 sees them
FMA_SHIFT = float(np.float32(0.001))
_FLOAT32_EPS = float(np.finfo(np.float32).eps)
_SPREAD = 1024
INPUT_LOW, INPUT_HIGH = 2.0, 4.0  # far from the FMA chain's fixed point (1.0): every step moves v


class OutputMismatch(ValueError):
    """The output differs from the host reference; the message names a bad position."""


def sample_indices(config: PipelineConfig, spread: int = _SPREAD) -> npt.NDArray[np.int64]:
    """Sorted positions to check: each chunk's first and last element and `spread` others."""
    edges = np.arange(config.chunks, dtype=np.int64) * config.chunk_elements
    lasts = np.append(edges[1:], config.elements) - 1  # the last chunk also holds the remainder
    rng = np.random.default_rng(config.elements)
    spread_out = rng.integers(0, config.elements, size=min(spread, config.elements), dtype=np.int64)
    return np.unique(np.concatenate([edges, lasts, spread_out]))


def fill_input(dest: npt.NDArray[np.float32], block: int = 1 << 22) -> None:
    """Write deterministic input data in [2, 4) into `dest` (touching every page), blockwise."""
    step = np.float32((INPUT_HIGH - INPUT_LOW) / 1021)
    for begin in range(0, len(dest), block):
        positions = np.arange(begin, min(begin + block, len(dest)), dtype=np.int64) % 1021
        dest[begin : begin + len(positions)] = np.float32(INPUT_LOW) + positions.astype(np.float32) * step


def expected_output(
    config: PipelineConfig, indices: npt.NDArray[np.int64], values: npt.NDArray[np.float32]
) -> npt.NDArray[np.float64]:
    """What the kernel makes of `values` (the inputs at `indices`), in float64."""
    v = values.astype(np.float64)
    if config.kernel is KernelKind.SINCOS:
        x = indices.astype(np.float32).astype(np.float64)
        return v + np.sqrt(np.sin(x) ** 2 + np.cos(x) ** 2)
    fixed_point = FMA_SHIFT / (1.0 - FMA_SCALE)  # v -> a v + b, iterated: closed form
    return fixed_point + (v - fixed_point) * FMA_SCALE**config.iters


def tolerance(config: PipelineConfig, expected: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Allowed error: float32 rounding, which the FMA chain accumulates but also damps."""
    # An FMA step's rounding error shrinks by 0.999 per later step, so at most ~1000 add up.
    steps = 8 if config.kernel is KernelKind.SINCOS else 2 * (1 + min(config.iters, 1000))
    return steps * _FLOAT32_EPS * np.maximum(1.0, np.abs(expected))


def check_output(
    config: PipelineConfig,
    indices: npt.NDArray[np.int64],
    inputs: npt.NDArray[np.float32],
    outputs: npt.NDArray[np.float32],
) -> None:
    """Raise `OutputMismatch` unless `outputs` (at `indices`) match the reference."""
    expected = expected_output(config, indices, inputs)
    error = np.abs(outputs.astype(np.float64) - expected)
    bad = ~(error <= tolerance(config, expected))  # NaN (never written) counts as bad
    if bad.any():
        first = int(np.argmax(bad))
        raise OutputMismatch(
            f"output check failed at {int(bad.sum())} of {len(indices)} sampled elements; element"
            f" {int(indices[first])} (chunk {min(int(indices[first]) // config.chunk_elements, config.chunks - 1)}) is"
            f" {float(outputs[first])!r}, expected {float(expected[first])!r}"
        )

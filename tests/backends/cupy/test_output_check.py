import numpy as np
import pytest

from overlapviz.backends.cupy.output_check import (
    FMA_SCALE,
    FMA_SHIFT,
    OutputMismatch,
    check_output,
    expected_output,
    fill_input,
    sample_indices,
)
from overlapviz.core.config import KernelKind, PipelineConfig

MIB = 1 << 20


def fma_on_host(values, iters):
    v = values.astype(np.float32).copy()
    for _ in range(iters):
        v = (v * np.float32(FMA_SCALE) + np.float32(FMA_SHIFT)).astype(np.float32)
    return v


def run_check(cfg, outputs_from):
    idx = sample_indices(cfg)
    inputs = np.empty(cfg.elements, dtype=np.float32)
    fill_input(inputs)
    check_output(cfg, idx, inputs[idx], outputs_from(inputs[idx], idx))


def test_sample_covers_every_chunks_first_and_last_element():
    cfg = PipelineConfig(size_bytes=4 * MIB, chunks=16)
    idx = sample_indices(cfg)
    per = cfg.chunk_elements
    for c in range(16):
        assert c * per in idx and (c + 1) * per - 1 in idx
    assert (np.diff(idx) > 0).all() and idx[-1] < cfg.elements


def test_input_is_in_range_and_deterministic():
    a, b = np.empty(5000, dtype=np.float32), np.empty(5000, dtype=np.float32)
    fill_input(a, block=777)
    fill_input(b)
    assert (a == b).all() and a.min() >= 2.0 and a.max() < 4.0


@pytest.mark.parametrize("iters", [1, 7, 300, 1860])
def test_float32_chain_passes(iters):
    cfg = PipelineConfig(size_bytes=1 * MIB, chunks=4, iters=iters)
    run_check(cfg, lambda v, _: fma_on_host(v, iters))


def test_closed_form_matches_iteration():
    v = np.array([2.0, 3.5], dtype=np.float32)
    cfg = PipelineConfig(size_bytes=1 * MIB, chunks=4, iters=50)
    np.testing.assert_allclose(expected_output(cfg, np.array([0, 1]), v), fma_on_host(v, 50), rtol=1e-5)


@pytest.mark.parametrize("iters", [1, 1860])
def test_kernel_that_did_not_run_fails(iters):
    cfg = PipelineConfig(size_bytes=1 * MIB, chunks=4, iters=iters)
    with pytest.raises(OutputMismatch, match="output check failed"):
        run_check(cfg, lambda v, _: v.copy())


def test_one_unwritten_chunk_is_named():
    cfg = PipelineConfig(size_bytes=1 * MIB, chunks=4, iters=5)

    def third_chunk_missing(v, idx):
        out = fma_on_host(v, 5)
        out[(idx // cfg.chunk_elements) == 2] = np.nan
        return out

    with pytest.raises(OutputMismatch, match=r"\(chunk 2\)"):
        run_check(cfg, third_chunk_missing)


def test_copies_only_must_return_the_input_exactly():
    cfg = PipelineConfig(size_bytes=1 * MIB, chunks=4, iters=0)
    run_check(cfg, lambda v, _: v.copy())
    with pytest.raises(OutputMismatch):
        run_check(cfg, lambda v, _: v + np.float32(0.01))


def test_sincos_adds_one():
    cfg = PipelineConfig(size_bytes=1 * MIB, chunks=4, kernel=KernelKind.SINCOS)

    def harris(v, idx):
        x = idx.astype(np.float32)
        s, c = np.sin(x), np.cos(x)
        return (v + np.sqrt(s * s + c * c)).astype(np.float32)

    run_check(cfg, harris)
    with pytest.raises(OutputMismatch):
        run_check(cfg, lambda v, _: v.copy())

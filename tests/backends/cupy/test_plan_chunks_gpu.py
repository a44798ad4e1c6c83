"""Chunk counts that do not divide the buffer, on a real GPU (``pytest -m gpu``).

Every run checks its output on each chunk's first and last element, so a last chunk that
was copied or computed short fails the run itself.
"""

from __future__ import annotations

import pytest

from overlapviz.core.config import HostAlloc, HostMemory, IssueOrder, KernelKind, PipelineConfig
from overlapviz.core.trace.spans import OpKind

pytestmark = pytest.mark.gpu
MIB = 1 << 20
UNEVEN = PipelineConfig(size_bytes=16 * MIB, chunks=12, streams=3, iters=200)  # 349,525 per chunk, the last 349,531


def copied_bytes(trace, kind):
    rows = trace.mask(kind)
    return dict(zip(trace["chunk"][rows].tolist(), trace["bytes"][rows].tolist(), strict=True))


@pytest.mark.parametrize(
    "config",
    [
        UNEVEN,
        UNEVEN.replace(kernel=KernelKind.SINCOS, iters=0),
        UNEVEN.replace(memory=HostMemory.PAGEABLE, order=IssueOrder.BREADTH),
        UNEVEN.replace(host_alloc=HostAlloc.PER_RUN),
    ],
    ids=["fma", "sincos", "pageable-breadth", "per-run"],
)
@pytest.mark.parametrize("timing", ["auto", "events"])
def test_uneven_chunks_run_and_copy_every_byte(gpu_backend, config, timing):
    from overlapviz.backends.cupy import CupyBackend

    backend = gpu_backend if timing == "auto" else CupyBackend(timing="events")
    try:
        trace = backend.run(config)
    finally:
        if backend is not gpu_backend:
            backend.close()
    assert config.last_chunk_elements != config.chunk_elements
    for kind in (OpKind.H2D, OpKind.D2H):
        assert copied_bytes(trace, kind) == {c: config.chunk_bytes_of(c) for c in range(config.chunks)}
        assert sum(copied_bytes(trace, kind).values()) == config.size_bytes

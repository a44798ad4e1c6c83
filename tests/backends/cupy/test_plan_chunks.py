"""Chunk counts that do not divide the buffer: where each chunk lies and what each op moves.

All pure: slices, kernel arguments, the sample of the output check and the event-timed
trace's byte counts, without a GPU.
"""

import itertools

import numpy as np
import pytest

from overlapviz.backends.cupy.event_trace import EventTimes, trace_from_events
from overlapviz.backends.cupy.kernels import kernel_args
from overlapviz.backends.cupy.output_check import OutputMismatch, check_output, sample_indices
from overlapviz.backends.cupy.plan import chunk_slices
from overlapviz.core.config import KernelKind, PipelineConfig
from overlapviz.core.config.pipeline_plan import kernel_blocks
from overlapviz.core.trace.meta import TraceMeta
from overlapviz.core.trace.spans import OpKind
from tests.backends.cupy.fakes import planned_ops

SEVEN = PipelineConfig(size_bytes=4 * 10_000, chunks=7, streams=3)  # 1,428 per chunk, the last 1,432


def test_slices_tile_the_buffer_with_the_remainder_on_the_last_chunk():
    slices = chunk_slices(SEVEN)
    assert [s.elements for s in slices] == [1428] * 6 + [1432]
    assert [s.offset for s in slices] == [1428 * c for c in range(7)]
    assert all(a.stop == b.offset for a, b in itertools.pairwise(slices))
    assert slices[-1].stop == 10_000
    assert [s.byte_offset for s in slices[:2]] == [0, 4 * 1428]
    assert sum(s.nbytes for s in slices) == 40_000


def test_equal_chunks_when_the_count_divides():
    slices = chunk_slices(PipelineConfig(size_bytes=1 << 20, chunks=4))
    assert {s.nbytes for s in slices} == {1 << 18}


def test_the_last_kernel_gets_its_own_length_grid_and_offset():
    sincos = SEVEN.replace(kernel=KernelKind.SINCOS, iters=0)
    _, n, offset = kernel_args(sincos, 6, "ptr")
    assert (n.dtype, int(n), int(offset)) == (np.uint64, 1432, 6 * 1428)
    _, n, _ = kernel_args(SEVEN, 6, "ptr")
    assert int(n) == 1432
    odd = PipelineConfig(size_bytes=4 * 1025, chunks=2, kernel=KernelKind.SINCOS, iters=0)  # 512, then 513
    assert (kernel_blocks(odd, 132, 0), kernel_blocks(odd, 132, 1)) == (2, 3)  # one thread per element


def test_the_output_sample_holds_each_chunks_first_and_last_element():
    idx = sample_indices(SEVEN)
    for s in chunk_slices(SEVEN):
        assert s.offset in idx and s.stop - 1 in idx
    assert idx[-1] == 9_999


def test_a_bad_element_in_the_remainder_is_named_in_the_last_chunk():
    idx = np.array([9_999], dtype=np.int64)
    with pytest.raises(OutputMismatch, match=r"element 9999 \(chunk 6\)"):
        check_output(SEVEN, idx, np.array([2.0], dtype=np.float32), np.array([np.nan], dtype=np.float32))


def test_event_timed_trace_counts_each_copys_real_bytes():
    plan = planned_ops(SEVEN)
    n = len(plan)
    times = EventTimes(
        call_start=[10 * i for i in range(n)], call_end=[10 * i + 5 for i in range(n)],
        ready=[1000 * i for i in range(n)], end=[1000 * i + 900 for i in range(n)],
        sync_start=10 * n, sync_end=1000 * n,
    )  # fmt: skip
    trace = trace_from_events(plan, times, TraceMeta(backend="cupy"), kernels_fill_device=True)
    for kind in (OpKind.H2D, OpKind.D2H):
        rows = trace.mask(kind)
        by_chunk = dict(zip(trace["chunk"][rows].tolist(), trace["bytes"][rows].tolist(), strict=True))
        assert by_chunk == {c: 4 * (1432 if c == 6 else 1428) for c in range(7)}
        assert sum(by_chunk.values()) == 40_000


def test_no_kernel_work_launches_no_kernel():
    copies_only = planned_ops(SEVEN.replace(iters=0))
    assert [op.kind for op in copies_only[:4]] == [OpKind.H2D, OpKind.D2H, OpKind.H2D, OpKind.D2H]
    assert len(copies_only) == 2 * SEVEN.chunks and [op.index for op in copies_only] == list(range(14))
    breadth = planned_ops(SEVEN.replace(iters=0, order="breadth"))
    assert [op.kind for op in breadth] == [OpKind.H2D] * 7 + [OpKind.D2H] * 7
    assert sum(op.kind is OpKind.KERNEL for op in planned_ops(SEVEN.replace(kernel=KernelKind.SINCOS, iters=0))) == 7

"""Chunk counts that do not divide the buffer, on the model: the last chunk costs its own bytes."""

from __future__ import annotations

import pytest

from overlapviz.backends.sim.ops import build_ops
from overlapviz.core.config import PipelineConfig
from overlapviz.core.trace.spans import OpKind
from tests.backends.simrun import SIM, simulate


def copied_bytes(trace, kind: OpKind) -> dict[int, int]:
    rows = trace.mask(kind)
    return dict(zip(trace["chunk"][rows].tolist(), trace["bytes"][rows].tolist(), strict=True))


def test_three_streams_by_twelve_chunks_runs_every_op() -> None:
    trace = simulate(streams=3, chunks=12)
    device = trace.device_mask
    assert int(device.sum()) == 36
    assert (trace["start_ns"][device] >= 0).all() and (trace["end_ns"][device] >= trace["start_ns"][device]).all()
    for kind in (OpKind.H2D, OpKind.D2H):
        assert sum(copied_bytes(trace, kind).values()) == 256 * 1024 * 1024


def test_ten_thousand_elements_in_seven_chunks_copy_exactly_forty_thousand_bytes_each_way() -> None:
    trace = simulate(size_bytes=40_000, chunks=7, streams=3)
    for kind in (OpKind.H2D, OpKind.D2H):
        by_chunk = copied_bytes(trace, kind)
        assert by_chunk == {**{c: 4 * 1428 for c in range(6)}, 6: 4 * 1432}
        assert sum(by_chunk.values()) == 40_000


@pytest.mark.parametrize("device", ["h200", "tesla-c2050"])
def test_the_longer_last_chunk_costs_more_than_the_others(device: str) -> None:
    config = PipelineConfig(size_bytes=4 * 1_000_003, chunks=4, kernel="sincos", iters=0)  # 250,000 and 250,003
    ops = build_ops(config, SIM.profile(device))
    for kind in (OpKind.H2D, OpKind.KERNEL, OpKind.D2H):
        costs = [op.work_ns for op in ops if op.kind is kind]
        assert len(set(costs[:3])) == 1 and costs[3] > costs[0], kind


def test_equal_chunks_cost_the_same() -> None:
    ops = build_ops(PipelineConfig(chunks=8), SIM.profile("h200"))
    for kind in (OpKind.H2D, OpKind.KERNEL, OpKind.D2H):
        assert len({op.work_ns for op in ops if op.kind is kind}) == 1

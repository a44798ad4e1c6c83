"""Runs of ops that each finish alone give the event loop's times to the bit, and are taken where they apply."""

from __future__ import annotations

import numpy as np
import pytest

from overlapviz.backends.sim.engine import GpuModel
from overlapviz.backends.sim.op_table import OpTable
from overlapviz.backends.sim.ops import build_ops, op_column
from overlapviz.backends.sim.timeline_columns import Timeline
from overlapviz.core.config import PipelineConfig
from tests.backends.simrun import SIM

SMALL = 4096  # bytes per chunk: each op takes less GPU time than the host's call for the next
CASES = [
    ("h200", PipelineConfig(chunks=512, size_bytes=512 * SMALL)),
    ("h200", PipelineConfig(chunks=300, size_bytes=300 * SMALL, streams=32, order="breadth")),
    ("h200", PipelineConfig(chunks=256, size_bytes=256 * 27 * SMALL, order="breadth")),  # near the largest runs take
    ("h200", PipelineConfig(chunks=256, size_bytes=256 * 28 * SMALL, order="breadth")),  # just past it
    ("h200", PipelineConfig(chunks=64, size_bytes=1 << 30)),  # big chunks: the GPU, not the host, sets the pace
    ("h200", PipelineConfig(chunks=200, size_bytes=200 * SMALL, graph=True)),
    ("h200", PipelineConfig(chunks=200, size_bytes=200 * SMALL, memory="staged", ring_slots=3, streams=3)),
    ("h200", PipelineConfig(chunks=200, size_bytes=200 * SMALL, memory="pageable")),
    ("tesla-c2050", PipelineConfig(chunks=200, size_bytes=200 * SMALL, streams=4, order="breadth")),
    ("tesla-c2050", PipelineConfig(chunks=200, size_bytes=200 * SMALL, streams=1)),
    ("tesla-c1060", PipelineConfig(chunks=200, size_bytes=200 * SMALL, streams=8)),
    ("h200x2-pcie-switch", PipelineConfig(chunks=100, size_bytes=100 * SMALL, gpus=2, streams=4)),
]


def simulate(device: str, config: PipelineConfig, runs: bool) -> tuple[Timeline, int]:
    """The model's timeline, with or without runs, and how many ops runs took."""
    profile = SIM.profile(device)
    model = GpuModel(profile, build_ops(config, profile))
    if not runs:
        model._take_alone_run = lambda first, stop: 0  # type: ignore[method-assign]
    timeline = model.run()
    return timeline, int(model._alone_taken.sum())


@pytest.mark.parametrize(("device", "config"), CASES)
def test_runs_give_the_loops_times_to_the_bit(device: str, config: PipelineConfig) -> None:
    with_runs, _ = simulate(device, config, runs=True)
    by_loop, taken = simulate(device, config, runs=False)
    assert taken == 0
    for name in ("enqueue_ns", "ready_ns", "start_ns", "end_ns"):
        assert getattr(with_runs, name).tobytes() == getattr(by_loop, name).tobytes(), name
    for name in ("name", "start_ns", "end_ns", "op", "device"):
        assert getattr(with_runs.host_calls, name).tobytes() == getattr(by_loop.host_calls, name).tobytes(), name
    assert with_runs.host_calls.names == by_loop.host_calls.names


def test_a_host_bound_pipeline_is_taken_almost_all_in_runs() -> None:
    config = PipelineConfig(chunks=4096, size_bytes=4096 * SMALL)
    _, taken = simulate("h200", config, runs=True)
    assert taken > 0.99 * len(build_ops(config, SIM.profile("h200")))


def test_ops_that_wait_on_the_gpu_are_left_to_the_loop() -> None:
    _, taken = simulate("h200", PipelineConfig(chunks=200, memory="pageable"), runs=True)
    ops = build_ops(PipelineConfig(chunks=200, memory="pageable"), SIM.profile("h200"))
    blocking = op_column(ops, "blocks_host", np.bool_)
    assert blocking.any() and taken <= int((~blocking).sum())


def test_an_op_table_reads_as_the_ops_it_holds() -> None:
    ops = build_ops(PipelineConfig(chunks=5, streams=2), SIM.profile("h200"))
    assert isinstance(ops, OpTable)
    listed = list(ops)
    assert len(listed) == len(ops) and listed[3] == ops[3] and listed[-1] == ops[-1] and ops[1:3] == listed[1:3]
    for field in ("kind", "stream", "unit", "memory", "blocks_host", "name", "work_ns"):
        assert [getattr(op, field) for op in listed] == ops.field_list(field)
    names = op_column(ops, "name", np.int64, convert=sorted(ops.names).index)
    assert names.tolist() == [sorted(ops.names).index(op.name) for op in listed]
    with pytest.raises(IndexError):
        ops[len(ops)]

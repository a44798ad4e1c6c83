"""The model hands its results on as columns and lets go of its Python objects a piece at a time."""

from __future__ import annotations

import numpy as np
import pytest

from overlapviz.backends.sim import engine
from overlapviz.backends.sim.engine import GpuModel
from overlapviz.backends.sim.ops import build_ops, op_column
from overlapviz.backends.sim.timeline_columns import clear_in_pieces
from overlapviz.core.config import PipelineConfig
from overlapviz.core.trace.spans import OpKind
from tests.backends.simrun import SIM

CONFIG = PipelineConfig(chunks=8, streams=2, memory="pageable", host_alloc="per-run")


def test_a_timeline_is_columns_of_numbers() -> None:
    profile = SIM.profile("h200")
    ops = build_ops(CONFIG, profile)
    timeline = GpuModel(profile, ops).run()
    for times in (timeline.enqueue_ns, timeline.ready_ns, timeline.start_ns, timeline.end_ns):
        assert isinstance(times, np.ndarray) and times.dtype == np.float64 and len(times) == len(ops)
    calls = timeline.host_calls
    issued = calls.op[calls.op >= 0]
    assert sorted(issued.tolist()) == list(range(len(ops)))  # one call per op
    assert {calls.names[n] for n in calls.name[calls.op >= 0]} == {"cuLaunchKernel", "cudaMemcpyAsync"}
    assert calls.names[calls.name[-1]] == "cudaDeviceSynchronize"
    assert (calls.end_ns >= calls.start_ns).all()


def test_a_pageable_copy_call_returns_when_its_copy_is_done() -> None:
    profile = SIM.profile("h200")
    ops = build_ops(CONFIG, profile)
    timeline = GpuModel(profile, ops).run()
    calls = timeline.host_calls
    for row in np.flatnonzero(calls.op >= 0):
        op = int(calls.op[row])
        if ops[op].kind is OpKind.H2D:
            assert calls.end_ns[row] == timeline.end_ns[op]


@pytest.mark.parametrize("stops", [False, True])
def test_the_model_empties_its_per_op_lists_after_a_run_or_a_stop(stops: bool) -> None:
    profile = SIM.profile("h200")
    model = GpuModel(profile, build_ops(PipelineConfig(chunks=4096), profile))
    if stops:
        with pytest.raises(InterruptedError):
            model.run(should_stop=lambda: True)
    else:
        model.run()
    assert all(getattr(model, name) == [] for name in engine._PER_OP_LISTS)


def test_clear_in_pieces_empties_the_list_in_place() -> None:
    items = [object() for _ in range(40_000)]
    same = items
    clear_in_pieces(items)
    assert items == [] and same is items


def test_op_columns_read_every_op() -> None:
    ops = build_ops(CONFIG, SIM.profile("h200"))
    assert op_column(ops, "chunk").tolist() == [op.chunk for op in ops]
    assert op_column(ops, "work_ns", np.float64).tolist() == [op.work_ns for op in ops]
    assert op_column(ops, "kind").dtype == np.int64

"""Mechanisms of the GPU model, each on a pipeline chosen to show it."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from overlapviz.backends.sim import create_backend
from overlapviz.backends.sim.engine import GpuModel
from overlapviz.backends.sim.ops import build_ops, kernel_cost
from overlapviz.backends.sim.profile import load_profile
from overlapviz.core.analysis.metrics import compute_metrics
from overlapviz.core.cancel import CancelToken
from overlapviz.core.config import MIB, KernelKind, PipelineConfig
from overlapviz.core.run_errors import RunCancelled
from overlapviz.core.trace.spans import OpKind, Unit
from tests.backends.simrun import harris_config, makespan_ms, overlaps, simulate, spans


def no_self_overlap(pairs: np.ndarray) -> bool:
    return bool(np.all(pairs[1:, 0] >= pairs[:-1, 1]))


def test_each_copy_engine_runs_one_copy_at_a_time() -> None:
    trace = simulate(streams=8, chunks=64)
    assert no_self_overlap(spans(trace, OpKind.H2D))
    assert no_self_overlap(spans(trace, OpKind.D2H))
    assert overlaps(spans(trace, OpKind.H2D), spans(trace, OpKind.D2H)), "two engines copy both ways at once"


def test_one_copy_engine_never_copies_both_ways_at_once() -> None:
    trace = simulate("tesla-c1060", size_bytes=16 * MIB, streams=4, chunks=16, order="breadth")
    copies = np.concatenate([spans(trace, OpKind.H2D), spans(trace, OpKind.D2H)])
    assert no_self_overlap(copies[np.argsort(copies[:, 0])])
    assert set(trace["unit"][trace.mask(OpKind.H2D, OpKind.D2H)]) == {Unit.COPY_ENGINE}


def test_both_directions_at_once_slow_each_other() -> None:
    profile = load_profile("h200")
    trace = simulate(streams=4, chunks=16, iters=0)
    h2d = trace.mask(OpKind.H2D)
    durations = trace.duration_ns[h2d]
    alone = profile.copy_latency_us * 1e3 + (16 * MIB) / profile.h2d_gbps
    assert durations.min() == pytest.approx(alone, rel=0.01)  # the first copy has the link alone
    assert durations.max() == pytest.approx(alone / profile.bidirectional_factor, rel=0.02)


def test_streams_are_fifo() -> None:
    trace = simulate(streams=3, chunks=12, size_bytes=48 * MIB)
    device = np.flatnonzero(trace.device_mask)
    for stream in range(3):
        rows = device[trace["stream"][device] == stream]
        assert no_self_overlap(np.column_stack([trace["start_ns"][rows], trace["end_ns"][rows]]))


def test_one_stream_gives_no_overlap_and_more_streams_do() -> None:
    one = compute_metrics(simulate(streams=1, chunks=16))
    four = compute_metrics(simulate(streams=4, chunks=16))
    assert one.makespan_ns >= 0.99 * one.serial_ns
    assert four.makespan_ns < 0.5 * four.serial_ns


def test_legacy_stream_runs_everything_in_issue_order() -> None:
    trace = simulate(stream_kind="legacy", streams=4, chunks=8)
    device = np.flatnonzero(trace.device_mask)
    assert set(trace["stream"][device]) == {0}
    starts = trace["start_ns"][device]
    assert np.all(np.diff(starts) > 0), "issue order is run order"


def test_fill_the_gpu_kernels_do_not_run_together_but_small_ones_do() -> None:
    big = simulate(streams=4, chunks=16)
    assert no_self_overlap(spans(big, OpKind.KERNEL))
    small = simulate(size_bytes=4 * MIB, streams=8, chunks=64, order="breadth", iters=40000)
    assert not no_self_overlap(spans(small, OpKind.KERNEL)), "kernels of 16 KiB leave room for each other"


def test_small_grid_occupancy() -> None:
    profile = load_profile("h200")
    _, full = kernel_cost(PipelineConfig(), profile)
    _, small = kernel_cost(PipelineConfig(size_bytes=4 * MIB, chunks=64), profile)
    assert full == 1.0
    assert small == pytest.approx(64 * 256 / (132 * 8 * 256))  # 16 Ki elements: 64 blocks of 256 threads


def test_occupancy_follows_the_grid_each_kernel_is_launched_with() -> None:
    # An SM that holds 16 blocks: the FMA chain's grid stops at 8 per SM and fills half of it;
    # the sincos kernel launches a thread per element, 65,536 blocks for 16 Mi elements, and fills it.
    profile = dataclasses.replace(load_profile("h200"), blocks_per_sm=16)
    sincos = PipelineConfig(size_bytes=64 * MIB, chunks=1, kernel=KernelKind.SINCOS, iters=0)
    assert kernel_cost(sincos, profile)[1] == 1.0
    assert kernel_cost(sincos.replace(kernel=KernelKind.FMA, iters=10), profile)[1] == 0.5


def test_kernel_time_follows_iterations() -> None:
    profile = load_profile("h200")
    times = [kernel_cost(PipelineConfig(chunks=1, iters=iters), profile)[0] / 1e6 for iters in (16, 1024, 1860)]
    assert times == pytest.approx([0.228, 2.735, 4.866], rel=0.02)  # kernel.json and pipelines.json


def test_pageable_copies_block_the_host_thread_and_serialise() -> None:
    trace = simulate(memory="pageable", streams=4, chunks=8)
    metrics = compute_metrics(trace)
    assert metrics.makespan_ns >= 0.98 * metrics.serial_ns
    calls = trace.mask(OpKind.API)
    longest_call = trace.duration_ns[calls].max()
    assert longest_call > 0.5 * trace.duration_ns[trace.mask(OpKind.H2D)].max()


def test_pinned_calls_return_at_once() -> None:
    trace = simulate()
    issuing = trace.mask(OpKind.API) & (trace["op"] >= 0)
    assert trace.duration_ns[issuing].max() < 20_000


def test_fresh_output_pays_page_faults() -> None:
    touched = makespan_ms(simulate(memory="pageable", streams=4, chunks=8))
    fresh = makespan_ms(simulate(memory="pageable", streams=4, chunks=8, fresh_output=True))
    assert fresh > touched * 1.3


def test_more_streams_than_hardware_queues_adds_false_dependencies() -> None:
    """Streams that share a queue wait behind each other's ops that are not ready yet."""
    profile = load_profile("h200")
    config = PipelineConfig(streams=16, chunks=16, size_bytes=64 * MIB, iters=20000)  # kernel-bound
    ops = build_ops(config, profile)

    def copy_waits(queues: int) -> float:
        timeline = GpuModel(dataclasses.replace(profile, work_queues=queues), ops).run()
        return max(timeline.start_ns[i] - timeline.ready_ns[i] for i, op in enumerate(ops) if op.kind is OpKind.H2D)

    shared, own = copy_waits(profile.work_queues), copy_waits(32)
    # with a queue each, an H2D only ever waits for the engine; sharing adds the wait for
    # the kernel of the other stream in front of it
    assert shared > own


def test_fermi_delays_the_completion_of_back_to_back_kernels() -> None:
    trace = simulate("tesla-c2050", size_bytes=16 * MIB, streams=4, chunks=4, order="breadth", kernel="sincos")
    last_kernel_end = trace["end_ns"][trace.mask(OpKind.KERNEL)].max()
    assert trace["start_ns"][trace.mask(OpKind.D2H)].min() >= last_kernel_end
    depth = simulate("tesla-c2050", size_bytes=16 * MIB, streams=4, chunks=4, kernel="sincos")
    assert depth["start_ns"][depth.mask(OpKind.D2H)].min() < depth["end_ns"][depth.mask(OpKind.KERNEL)].max()


def test_deterministic() -> None:
    a, b = simulate(streams=5, chunks=64), simulate(streams=5, chunks=64)
    for column in ("start_ns", "end_ns", "ready_ns", "enqueue_ns"):
        assert np.array_equal(a[column], b[column])


def test_trace_shape_and_meta() -> None:
    trace = simulate(chunks=8, streams=2)
    assert int(trace.device_mask.sum()) == 24
    assert trace.meta.simulated is True and trace.meta.timing == "model"
    assert trace.meta.config["chunks"] == 8
    issuing = np.flatnonzero(trace.mask(OpKind.API) & (trace["op"] >= 0))
    assert len(issuing) == 24
    assert np.all(trace["enqueue_ns"][trace["op"][issuing]] == trace["start_ns"][issuing])
    device = trace.device_mask
    assert np.all(trace["ready_ns"][device] <= trace["start_ns"][device])
    assert np.all(trace["enqueue_ns"][device] <= trace["ready_ns"][device])


@pytest.mark.parametrize("chunks", [16, 1024])  # 1024: the host is the bottleneck, ops wait for their call
def test_no_op_runs_before_its_call_has_returned(chunks: int) -> None:
    trace = simulate(chunks=chunks)
    device = trace.device_mask
    assert np.all(trace["ready_ns"][device] <= trace["start_ns"][device])
    calls = np.flatnonzero(trace.mask(OpKind.API) & (trace["op"] >= 0))
    assert np.all(trace["start_ns"][trace["op"][calls]] >= trace["end_ns"][calls])


def test_cancel_stops_a_run() -> None:
    token = CancelToken()
    token.cancel()
    with pytest.raises(RunCancelled):
        create_backend().run(PipelineConfig(chunks=4096), cancel=token)


def test_unknown_device_is_a_clear_error() -> None:
    from overlapviz.core.run_errors import BackendError

    with pytest.raises(BackendError, match=r"unknown device profile 'gtx'.*h200"):
        create_backend().run(PipelineConfig(), "gtx")


def test_the_issue_orders_false_dependencies_show_as_waiting_with_an_idle_engine() -> None:
    """The blog's C1060 V1 (one copy engine, filled in issue order) and C2050 V2 (held back
    kernel completion): ops wait, ready, while their engine stands idle. The K20c has neither."""
    from overlapviz.core.analysis.trace_facts import idle_unit_waits
    from overlapviz.core.findings import find_findings

    for device, version, fires in (("tesla-c1060", "v1", True), ("tesla-c2050", "v2", True),
                                   ("tesla-k20c", "v1", False), ("tesla-k20c", "v2", False)):
        trace = simulate(device, **harris_config(version))
        assert ("false-dependency" in {f.code for f in find_findings(trace)}) is fires, (device, version)
        assert bool(idle_unit_waits(trace).sum() > 0) is fires


def test_no_kernel_work_simulates_no_kernel_at_all() -> None:
    trace = simulate(streams=4, chunks=16, iters=0)
    assert not trace.mask(OpKind.KERNEL).any()
    assert int(trace.mask(OpKind.H2D).sum()) == int(trace.mask(OpKind.D2H).sum()) == 16
    assert OpKind.KERNEL not in {op.kind for op in build_ops(PipelineConfig(iters=0), load_profile("h200"))}
    assert trace.mask(OpKind.KERNEL).sum() == 0 < simulate(kernel="sincos", iters=0).mask(OpKind.KERNEL).sum()

"""The model's host memory kinds: write-combined, mapped, managed (with or without prefetch), staged; graphs."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from benchmarks.host_kinds_model_check import host_read_ms, measured_parts, pairs
from overlapviz.backends.sim.engine import GpuModel
from overlapviz.backends.sim.ops import build_ops, kernel_cost
from overlapviz.backends.sim.profile import ProfileError, load_profile
from overlapviz.core.analysis.metrics import compute_metrics
from overlapviz.core.config import MIB, PipelineConfig
from overlapviz.core.findings import find_findings
from overlapviz.core.run_errors import BackendError
from overlapviz.core.trace.spans import OpKind, Trace, Unit
from tests.backends.simrun import SIM, simulate

H200 = load_profile("h200")
KINDS = H200.host_kinds
assert KINDS is not None


def rows(trace: Trace, kind: OpKind, name: str | None = None) -> np.ndarray:
    selected = trace.mask(kind)
    if name is not None:
        selected = selected & (trace["name"] == (trace.names.index(name) if name in trace.names else -1))
    return np.flatnonzero(selected)


def codes(trace: Trace) -> set[str]:
    return {finding.code for finding in find_findings(trace)}


# --- against the H200 ------------------------------------------------------------------------


@pytest.mark.parametrize("pair", [p for p in pairs(measured_parts()) if p.goal is not None], ids=lambda p: p.source)
def test_each_kinds_default_pipeline_is_within_its_goal_of_the_h200(pair) -> None:
    assert abs(pair.error) <= pair.goal, f"{pair.what} {pair.measure}: model {pair.model_ms} vs {pair.real_ms} ms"


# --- write-combined ----------------------------------------------------------------------------


def test_write_combined_copies_at_their_rate_and_the_host_reads_the_output_after_the_run() -> None:
    trace = simulate(memory="write-combined", chunks=1, streams=1)
    h2d = rows(trace, OpKind.H2D)[0]
    expected_ns = H200.copy_latency_us * 1e3 + 256 * MIB / KINDS.wc_h2d_gbps
    assert trace.duration_ns[h2d] == pytest.approx(expected_ns, abs=1)
    assert host_read_ms(trace) == pytest.approx(256 * MIB / KINDS.wc_host_read_gbps / 1e6, rel=1e-6)
    sync = rows(trace, OpKind.API, "cudaDeviceSynchronize")[0]
    read = rows(trace, OpKind.API, "host read of output")[0]
    assert trace["start_ns"][read] >= trace["end_ns"][sync]
    assert "write-combined-read" in codes(trace)
    assert host_read_ms(simulate(memory="pinned")) == 0.0  # only the kinds that give the read its own cost


# --- mapped ------------------------------------------------------------------------------------


def test_mapped_memory_has_no_copies_and_its_kernels_carry_their_bytes_over_the_link() -> None:
    trace = simulate(memory="mapped")
    assert not trace.mask(OpKind.H2D, OpKind.D2H, OpKind.PREFETCH).any()
    assert set(trace["unit"][trace.device_mask].tolist()) == {Unit.COMPUTE}  # the copy engines idle
    kernels = rows(trace, OpKind.KERNEL)
    assert int(trace["bytes"][kernels].sum()) == 2 * 256 * MIB  # read and written back
    assert "mapped-memory" in codes(trace)


def test_a_mapped_kernel_takes_the_longer_of_its_arithmetic_and_its_bytes_over_the_link() -> None:
    link_bound = PipelineConfig(memory="mapped")
    device_ns, _ = kernel_cost(link_bound.replace(memory="pinned"), H200)
    mapped_ns, _ = kernel_cost(link_bound, H200)
    assert mapped_ns == pytest.approx(H200.kernel_launch_us * 1e3 + 2 * 16 * MIB / KINDS.mapped_gbps)
    assert mapped_ns > device_ns
    heavy = PipelineConfig(memory="mapped", iters=20_000)  # the arithmetic hides the link
    assert kernel_cost(heavy, H200)[0] == pytest.approx(kernel_cost(heavy.replace(memory="pinned"), H200)[0])


# --- managed -----------------------------------------------------------------------------------


def test_managed_kernels_are_stretched_by_their_faults_and_the_host_read_faults_the_output_back() -> None:
    config = PipelineConfig(memory="managed")
    device_ns, _ = kernel_cost(config.replace(memory="pinned"), H200)
    managed_ns, _ = kernel_cost(config, H200)
    assert managed_ns == pytest.approx(device_ns + 16 * MIB / KINDS.fault_gbps)
    trace = simulate(memory="managed")
    assert not trace.mask(OpKind.H2D, OpKind.D2H, OpKind.PREFETCH).any()
    assert host_read_ms(trace) == pytest.approx(256 * MIB / KINDS.managed_host_read_gbps / 1e6, rel=1e-6)
    assert compute_metrics(trace).pinned_bytes == 0
    assert "managed-faults" in codes(trace)


def test_prefetches_run_on_the_engine_of_their_direction_one_at_a_time_and_are_no_copy_bytes() -> None:
    trace = simulate(memory="managed-prefetch")
    to_device = rows(trace, OpKind.PREFETCH, "prefetch to device")
    to_host = rows(trace, OpKind.PREFETCH, "prefetch to host")
    assert to_device.size == to_host.size == 16
    assert set(trace["unit"][to_device].tolist()) == {Unit.H2D_ENGINE}
    assert set(trace["unit"][to_host].tolist()) == {Unit.D2H_ENGINE}
    both = np.concatenate([to_device, to_host])
    order = both[np.argsort(trace["start_ns"][both])]
    assert (trace["start_ns"][order[1:]] >= trace["end_ns"][order[:-1]]).all()  # the driver migrates one at a time
    metrics = compute_metrics(trace)
    assert metrics.bandwidth_gbps == {"h2d": None, "d2h": None} and metrics.copy_hidden_pct is None
    assert metrics.lower_bound_ns >= int(trace.duration_ns[to_host].sum())  # the prefetches keep their engines busy
    assert "prefetch-bound" in codes(trace) and "false-dependency" not in codes(trace)


def test_without_one_migration_at_a_time_the_two_directions_overlap_and_the_run_is_shorter() -> None:
    config = PipelineConfig(memory="managed-prefetch")
    apart = dataclasses.replace(H200, host_kinds=dataclasses.replace(KINDS, migrations_one_at_a_time=False))
    one_at_a_time = GpuModel(H200, build_ops(config, H200)).run()
    side_by_side = GpuModel(apart, build_ops(config, apart)).run()
    assert max(side_by_side.end_ns) < 0.9 * max(one_at_a_time.end_ns)


# --- the staging ring --------------------------------------------------------------------------


def test_the_ring_copies_on_the_host_lane_and_reuses_a_slot_only_after_its_copy_out() -> None:
    slots = 2
    trace = simulate(memory="staged", ring_slots=slots)
    copy_in = rows(trace, OpKind.HOST_COPY, "memcpy pageable->pinned")
    copy_out = rows(trace, OpKind.HOST_COPY, "memcpy pinned->pageable")
    assert copy_in.size == copy_out.size == 16
    assert set(trace["unit"][np.concatenate([copy_in, copy_out])].tolist()) == {Unit.HOST}
    assert trace.duration_ns[copy_in[0]] == pytest.approx(16 * MIB / KINDS.staging_memcpy_gbps, abs=1)
    d2h = rows(trace, OpKind.D2H)
    by_chunk = {name: {int(trace["chunk"][r]): r for r in group} for name, group in
                (("in", copy_in), ("out", copy_out), ("d2h", d2h))}  # fmt: skip
    for chunk in range(16):
        out = by_chunk["out"][chunk]
        assert trace["start_ns"][out] >= trace["end_ns"][by_chunk["d2h"][chunk]]  # waited for its D2H
        if chunk >= slots:  # its slot held chunk - slots until that chunk's copy out
            assert trace["start_ns"][by_chunk["in"][chunk]] >= trace["end_ns"][by_chunk["out"][chunk - slots]]
    host = trace.mask(OpKind.HOST_COPY, OpKind.API)
    order = np.flatnonzero(host)[np.argsort(trace["start_ns"][host], kind="stable")]
    assert (trace["start_ns"][order[1:]] >= trace["end_ns"][order[:-1]]).all()  # one host thread
    metrics = compute_metrics(trace)
    assert metrics.pinned_bytes == 2 * slots * 16 * MIB
    assert metrics.host_issue_ns < 0.05 * metrics.wall_ns  # copying is not issuing
    assert "staging-host-bound" in codes(trace)


def test_a_ring_the_device_outpaces_waits_for_its_slots_in_an_event_synchronize() -> None:
    trace = simulate(memory="staged", ring_slots=1, iters=20_000)  # long kernels: the slot comes back late
    waits = rows(trace, OpKind.API, "cudaEventSynchronize")
    assert waits.size > 0 and int(trace.duration_ns[waits].sum()) > 0


# --- CUDA Graphs -------------------------------------------------------------------------------


def test_a_graph_issues_every_op_in_one_launch_at_the_measured_cost_per_op() -> None:
    calls, graph = simulate(chunks=256), simulate(chunks=256, graph=True)
    launches = rows(graph, OpKind.API, "cudaGraphLaunch")
    assert launches.size == 1 and not rows(graph, OpKind.API, "cudaMemcpyAsync").size
    assert graph.duration_ns[launches[0]] == pytest.approx(768 * KINDS.graph_launch_ns(768), abs=2)
    assert compute_metrics(graph).host_issue_ns < compute_metrics(calls).host_issue_ns / 3
    assert KINDS.graph_capture_ns(768) == pytest.approx(768 * 6.465e3)
    assert "graph-launch" in codes(graph) and "graph-launch" not in codes(calls)


# --- profiles ----------------------------------------------------------------------------------


@pytest.mark.parametrize("changes", [{"memory": "mapped"}, {"memory": "staged"}, {"graph": True}])
def test_a_profile_without_these_measurements_refuses_them_and_says_why(changes) -> None:
    with pytest.raises(BackendError, match=r"tesla-c1060 profile has no measurements of .* the h200 profile has"):
        SIM.run(PipelineConfig(size_bytes=4 * MIB, **changes), "tesla-c1060")
    assert SIM.profile("h200-one-copy-engine").host_kinds == KINDS  # what-ifs of the h200 inherit them


def test_a_host_kinds_section_must_be_complete(tmp_path) -> None:
    broken = tmp_path / "broken.toml"
    broken.write_text('based_on = "tesla-c1060"\n[host_kinds]\nmapped_gbps = 10.0\n')
    with pytest.raises(ProfileError, match=r"\[host_kinds\] missing \['fault_gbps'"):
        load_profile(str(broken))
    changed = tmp_path / "slower.toml"
    changed.write_text('based_on = "h200"\n[host_kinds]\nmapped_gbps = 20.0\n')
    slower = load_profile(str(changed)).host_kinds
    assert slower is not None and slower.mapped_gbps == 20.0 and slower.fault_gbps == KINDS.fault_gbps
    changed.write_text('based_on = "h200"\n[host_kinds]\nmapped_gbps = -1.0\n')
    with pytest.raises(ProfileError, match="mapped_gbps must be finite and not negative"):
        load_profile(str(changed))

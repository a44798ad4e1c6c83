"""Host buffers allocated inside the run, and the guard against pinning too much, on the model."""

from __future__ import annotations

import numpy as np
import pytest

from overlapviz.backends.sim.alloc import host_alloc_calls
from overlapviz.backends.sim.profile import load_profile
from overlapviz.core.analysis.metrics import compute_metrics
from overlapviz.core.config import GIB, MIB, PipelineConfig
from overlapviz.core.config.pinning import PINNED_SHARE_ENV, PinnedMemoryRefused, check_pinned_request
from overlapviz.core.run_errors import BackendError
from overlapviz.core.trace.spans import OpKind, Trace
from tests.backends.simrun import simulate

# shared/reference/h200/alloc.json (ms): size, cudaMallocHost, cudaFreeHost, np.empty first touch, cudaHostRegister
REFERENCE = [
    (64 * MIB, 22.831528, 5.839468, 10.322282, 1.925902),
    (256 * MIB, 91.964217, 24.463284, 43.012610, 6.454457),
    (1024 * MIB, 362.353024, 101.520460, 164.498621, 25.360842),
    (4096 * MIB, 1777.794214, 376.265306, 685.247166, 104.293946),
]
H200 = load_profile("h200")
SIZE = 256 * MIB


@pytest.fixture(autouse=True)
def no_share_setting(monkeypatch):
    monkeypatch.delenv(PINNED_SHARE_ENV, raising=False)


def host_spans(trace: Trace) -> list[tuple[str, float]]:
    """(name, ms) of every host call that issued no device op, in time order."""
    rows = np.flatnonzero((trace["kind"] == OpKind.API) & (trace["op"] < 0))
    rows = rows[np.argsort(trace["start_ns"][rows], kind="stable")]
    return [(trace.name_of(int(r)), float(trace.duration_ns[r]) / 1e6) for r in rows]


def names(trace: Trace) -> list[str]:
    return [name for name, _ in host_spans(trace)]


def test_reused_buffers_cost_the_run_nothing() -> None:
    trace = simulate()
    assert names(trace) == ["cudaDeviceSynchronize"]
    metrics = compute_metrics(trace)
    assert metrics.host_alloc_ns == 0
    assert metrics.makespan_ns <= metrics.wall_ns < metrics.makespan_ns + 10_000  # the first call's few us


def test_pinned_per_run_allocates_both_buffers_before_issuing_and_frees_them_after_the_sync() -> None:
    reuse, per_run = simulate(), simulate(host_alloc="per-run")
    assert names(per_run) == ["cudaMallocHost", "cudaMallocHost", "cudaDeviceSynchronize", "cudaFreeHost",
                              "cudaFreeHost"]
    spans = dict(host_spans(per_run))
    assert spans["cudaMallocHost"] == pytest.approx(91.96, rel=1e-3)  # alloc.json: 256 MiB in 91.96 ms
    assert spans["cudaFreeHost"] == pytest.approx(24.46, rel=1e-3)  # alloc.json: 24.46 ms
    allocated = 2 * (91.96 + 24.46)
    first_op = per_run["start_ns"][per_run.device_mask].min()
    assert first_op >= 2 * 91.96e6 * 0.999  # nothing runs on the device before both buffers exist
    m, r = compute_metrics(per_run), compute_metrics(reuse)
    assert m.makespan_ns == r.makespan_ns  # the device part is the same run
    assert m.host_alloc_ns / 1e6 == pytest.approx(allocated, rel=1e-3)
    assert m.wall_ns == pytest.approx(r.wall_ns + m.host_alloc_ns, abs=2)
    assert per_run["end_ns"].max() == m.wall_ns  # the last free ends the run


def test_pageable_per_run_mallocs_and_touches_each_buffer_and_frees_it() -> None:
    trace = simulate(memory="pageable", host_alloc="per-run")
    assert names(trace) == ["malloc", "first touch", "malloc", "first touch", "cudaDeviceSynchronize", "free", "free"]
    spans = host_spans(trace)
    assert spans[0][1] == pytest.approx(0.06)  # alloc.json: np.empty takes 0.06 ms at any size
    assert spans[1][1] == pytest.approx(43.01, rel=1e-3)  # alloc.json: first touch of 256 MiB 43.01 ms
    assert spans[-1][1] == pytest.approx(0.9755, rel=2e-3)  # h200_alloc.json: free of 256 MiB touched


def test_a_fresh_output_buffer_is_not_touched_before_the_run() -> None:
    trace = simulate(memory="pageable", host_alloc="per-run", fresh_output=True)
    assert names(trace) == ["malloc", "first touch", "malloc", "cudaDeviceSynchronize", "free", "free"]


def test_registered_per_run_registers_touched_buffers_and_unregisters_them_before_free() -> None:
    trace = simulate(memory="registered", host_alloc="per-run")
    assert names(trace) == [
        "malloc", "first touch", "cudaHostRegister", "malloc", "first touch", "cudaHostRegister",
        "cudaDeviceSynchronize", "cudaHostUnregister", "free", "cudaHostUnregister", "free",
    ]  # fmt: skip
    assert dict(host_spans(trace))["cudaHostRegister"] == pytest.approx(6.45, rel=1e-3)  # alloc.json


def test_allocation_calls_issue_nothing_on_the_device() -> None:
    trace = simulate(host_alloc="per-run")
    alloc = [r for r in range(len(trace)) if trace.name_of(r) in ("cudaMallocHost", "cudaFreeHost")]
    assert all(trace["op"][r] == -1 and trace["chunk"][r] == -1 and trace["kind"][r] == OpKind.API for r in alloc)


@pytest.mark.parametrize(("n", "malloc_host", "free_host", "touch", "register"), REFERENCE)
def test_allocation_costs_reproduce_the_reference_at_every_measured_size(
    n: int, malloc_host: float, free_host: float, touch: float, register: float
) -> None:
    assert H200.alloc_ns(H200.pin_alloc_ns_per_byte, n) / 1e6 == pytest.approx(malloc_host, rel=2e-3)
    assert H200.alloc_ns(H200.pin_free_ns_per_byte, n) / 1e6 == pytest.approx(free_host, rel=2e-3)
    assert H200.alloc_ns(H200.touch_ns_per_byte, n) / 1e6 == pytest.approx(touch, rel=2e-3)
    assert H200.alloc_ns(H200.register_ns_per_byte, n) / 1e6 == pytest.approx(register, rel=2e-3)


def test_costs_between_and_beyond_the_measured_sizes() -> None:
    per_byte = H200.pin_alloc_ns_per_byte  # 64 MiB, 256 MiB, 1 GiB, 4 GiB
    two_gib = H200.alloc_ns(per_byte, 2 * GIB) / (2 * GIB)
    assert min(per_byte[2], per_byte[3]) < two_gib < max(per_byte[2], per_byte[3])
    assert H200.alloc_ns(per_byte, MIB) == pytest.approx(per_byte[0] * MIB)  # below: the smallest size's rate
    assert H200.alloc_ns(per_byte, 16 * GIB) == pytest.approx(per_byte[3] * 16 * GIB)  # above: the largest's


def test_alloc_calls_follow_the_config() -> None:
    assert host_alloc_calls(PipelineConfig(), H200) == ([], [])
    before, after = host_alloc_calls(PipelineConfig(host_alloc="per-run", size_bytes=64 * MIB), H200)
    assert [name for name, _ in before] == ["cudaMallocHost"] * 2
    assert [name for name, _ in after] == ["cudaFreeHost"] * 2
    assert before[0][1] / 1e6 == pytest.approx(22.83, rel=1e-3)  # alloc.json: 64 MiB in 22.83 ms


# --- the RAM guard ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("memory", "host_alloc"),
    [("pinned", "reuse"), ("pinned", "per-run"), ("registered", "reuse"), ("registered", "per-run"),
     ("write-combined", "reuse"), ("mapped", "reuse")],
)  # fmt: skip
def test_pinning_more_than_half_the_host_ram_is_refused_with_the_guards_message(memory: str, host_alloc: str) -> None:
    with pytest.raises(PinnedMemoryRefused) as guard:
        check_pinned_request(64 * GIB, H200.host_ram_bytes)
    with pytest.raises(BackendError) as refused:
        simulate(size_bytes=32 * GIB, memory=memory, host_alloc=host_alloc)  # 2 x 32 GiB of 125 GiB
    assert str(refused.value) == str(guard.value)
    assert "64 GiB" in str(refused.value) and "125 GiB" in str(refused.value) and "50%" in str(refused.value)


def test_a_staging_ring_is_guarded_by_its_slots_not_the_data_it_stages() -> None:
    # 40 GiB of pageable data in 2 chunks: a ring of 2 slots pins 2 x 2 x 20 GiB
    with pytest.raises(BackendError, match="refusing to pin 80 GiB"):
        simulate(size_bytes=40 * GIB, chunks=2, memory="staged", ring_slots=2, iters=0)


def test_the_same_size_in_pageable_memory_runs() -> None:
    trace = simulate(size_bytes=32 * GIB, memory="pageable")
    assert int(trace["bytes"][trace.mask(OpKind.H2D)].sum()) == 32 * GIB


def test_just_under_the_limit_runs() -> None:
    trace = simulate(size_bytes=31 * GIB)  # 62 GiB of the 62.5 GiB allowed
    assert trace.meta.device == "h200"


def test_a_larger_share_lets_it_run_and_a_bad_one_is_a_backend_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(PINNED_SHARE_ENV, "0.6")
    simulate(size_bytes=32 * GIB)  # 64 GiB of the 75 GiB now allowed
    monkeypatch.setenv(PINNED_SHARE_ENV, "most")
    with pytest.raises(BackendError, match="OVERLAPVIZ_PINNED_SHARE='most' is not a number"):
        simulate()


def test_the_guard_uses_each_profiles_host_ram() -> None:
    # the C1060's host is assumed to have 24 GiB: 2 x 8 GiB is more than half of it
    with pytest.raises(BackendError, match="more than 50% of the 24 GiB"):
        simulate("tesla-c1060", size_bytes=8 * GIB)

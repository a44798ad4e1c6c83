"""Two GPUs on the model: each its own engines and link, a peer copy between them.

Not calibrated on two real GPUs: these hold the model to its own rules, not to measurements.
"""

import numpy as np
import pytest

from overlapviz.backends.sim.backend import SimBackend
from overlapviz.backends.sim.device_calls import EVENT_RECORD, SET_DEVICE, STREAM_WAIT_EVENT
from overlapviz.backends.sim.ops import build_ops, copy_ns, peer_copy_ns
from overlapviz.backends.sim.profile import load_profile
from overlapviz.core.analysis.metrics import compute_metrics
from overlapviz.core.config import MIB, HostMemory, PipelineConfig
from overlapviz.core.devices.figures import metrics_per_device
from overlapviz.core.run_errors import BackendError
from overlapviz.core.trace.lanes import gpus_of, lanes_of
from overlapviz.core.trace.spans import OpKind, Trace, Unit
from tests.backends.simrun import kind_rows as rows

SIM = SimBackend()
DEVICE_CALLS = (SET_DEVICE, EVENT_RECORD, STREAM_WAIT_EVENT)
DEVICE = "h200x2-nvlink"
PROFILE = load_profile(DEVICE)
TWO = PipelineConfig(size_bytes=64 * MIB, chunks=8, streams=2, gpus=2)
VARIANTS = [
    TWO,
    TWO.replace(peer_access=False),
    TWO.replace(order="breadth"),
    TWO.replace(stream_kind="legacy"),
    TWO.replace(memory="pageable"),
    TWO.replace(iters=0),
    TWO.replace(chunks=1, streams=1),
]


def run(config: PipelineConfig) -> Trace:
    return SIM.run(config, DEVICE)


def by_chunk(trace: Trace, kind: OpKind, device: int) -> np.ndarray:
    found = rows(trace, kind, device)
    return found[np.argsort(trace["chunk"][found])]


@pytest.mark.parametrize("config", VARIANTS, ids=lambda c: c.describe())
def test_each_gpu_engine_runs_one_copy_at_a_time(config: PipelineConfig) -> None:
    trace = run(config)
    copies = trace.mask(OpKind.H2D, OpKind.D2H, OpKind.PEER)
    checked = 0
    for device in (0, 1):
        for unit in (Unit.H2D_ENGINE, Unit.D2H_ENGINE, Unit.DEVICE_COPY):
            on = np.flatnonzero(copies & (trace["device"] == device) & (trace["unit"] == unit))
            order = on[np.argsort(trace["start_ns"][on])]
            assert (trace["start_ns"][order[1:]] >= trace["end_ns"][order[:-1]]).all()
            checked += len(on)
    assert checked == int(copies.sum()) == 3 * config.chunks  # in, across, out: every copy was checked


@pytest.mark.parametrize("config", VARIANTS, ids=lambda c: c.describe())
def test_a_chunk_goes_in_on_gpu_0_across_then_out_of_gpu_1(config: PipelineConfig) -> None:
    trace = run(config)
    start, end = trace["start_ns"], trace["end_ns"]
    h2d, peer, d2h = (by_chunk(trace, kind, gpu) for kind, gpu in ((OpKind.H2D, 0), (OpKind.PEER, 0), (OpKind.D2H, 1)))
    assert len(h2d) == len(peer) == len(d2h) == config.chunks
    assert not rows(trace, OpKind.H2D, 1).size and not rows(trace, OpKind.D2H, 0).size
    assert (trace["unit"][peer] == Unit.DEVICE_COPY).all() and (trace["bytes"][peer] == trace["bytes"][h2d]).all()
    if config.has_kernel_work:
        first, second = by_chunk(trace, OpKind.KERNEL, 0), by_chunk(trace, OpKind.KERNEL, 1)
        assert (start[first] >= end[h2d]).all()
        assert (start[peer] >= end[first]).all()  # a peer copy after its kernel on GPU 0
        assert (start[second] >= end[peer]).all()  # GPU 1's kernel after the copy reached it
        assert (start[d2h] >= end[second]).all()  # out after the second kernel
    else:
        assert not rows(trace, OpKind.KERNEL).size
        assert (start[peer] >= end[h2d]).all() and (start[d2h] >= end[peer]).all()


def test_each_gpu_has_streams_of_its_own() -> None:
    trace = run(TWO)
    streams = {gpu: set(trace["stream"][trace.device_mask & (trace["device"] == gpu)].tolist()) for gpu in (0, 1)}
    assert streams == {0: {0, 1}, 1: {2, 3}}
    legacy = run(TWO.replace(stream_kind="legacy"))
    assert set(legacy["stream"][rows(legacy, OpKind.D2H)].tolist()) == {1}


def test_peer_access_off_costs_the_staging_through_the_host() -> None:
    one_chunk = TWO.replace(chunks=1, streams=1)
    on, off = run(one_chunk), run(one_chunk.replace(peer_access=False))
    nbytes = one_chunk.chunk_bytes
    staged = sum(copy_ns(kind, HostMemory.PINNED, nbytes, PROFILE) for kind in (OpKind.D2H, OpKind.H2D))
    nvlink = PROFILE.peer.nvlink_gbps  # type: ignore[union-attr]
    direct = PROFILE.peer.peer_latency_us * 1e3 + nbytes / nvlink  # type: ignore[union-attr]
    span = {t: int((t["end_ns"] - t["start_ns"])[rows(t, OpKind.PEER)][0]) for t in (on, off)}
    assert span[on] == pytest.approx(direct, abs=1) and span[off] == pytest.approx(staged, abs=1)
    # one chunk runs its steps one after the other: the whole run is longer by exactly the difference
    assert compute_metrics(off).makespan_ns - compute_metrics(on).makespan_ns == pytest.approx(staged - direct, abs=2)


def test_peer_access_off_is_slower_on_a_pipeline() -> None:
    on, off = compute_metrics(run(TWO)), compute_metrics(run(TWO.replace(peer_access=False)))
    assert off.makespan_ns > on.makespan_ns


def test_peer_copies_leave_the_host_links_alone() -> None:
    """A peer copy crosses the NVLink: it never slows a host copy of either GPU, nor is slowed by one."""
    trace = run(TWO)
    peer = rows(trace, OpKind.PEER)
    alone = peer_copy_ns(True, TWO.chunk_bytes, PROFILE)
    assert ((trace["end_ns"] - trace["start_ns"])[peer] == pytest.approx(alone, abs=1))


def test_copies_of_different_gpus_share_no_link() -> None:
    """GPU 0's H2D and GPU 1's D2H run at once at full rate: each GPU has its own PCIe link."""
    trace = run(TWO.replace(iters=0))
    h2d, d2h = rows(trace, OpKind.H2D), rows(trace, OpKind.D2H)
    overlapping = (trace["start_ns"][d2h][:, None] < trace["end_ns"][h2d][None, :]) & (
        trace["end_ns"][d2h][:, None] > trace["start_ns"][h2d][None, :]
    )
    assert overlapping.any()  # the check below would say nothing without it
    alone = copy_ns(OpKind.H2D, HostMemory.PINNED, TWO.chunk_bytes, PROFILE)
    assert (trace["end_ns"] - trace["start_ns"])[h2d] == pytest.approx(alone, abs=1)


def test_lanes_and_metrics_per_gpu() -> None:
    trace = run(TWO)
    assert gpus_of(trace) == (0, 1)
    titles = [lane.title for lane in lanes_of(trace)]
    assert "GPU 0: Peer / D2D copies" in titles and "GPU 1: D2H engine" in titles
    assert "GPU 0: D2H engine" not in titles and "GPU 1: H2D engine" not in titles
    metrics = metrics_per_device(trace)
    assert metrics[0].busy_ns["d2h"] == 0 and metrics[0].busy_ns["h2d"] > 0
    assert metrics[1].busy_ns["h2d"] == 0 and metrics[1].busy_ns["d2h"] > 0
    for gpu in (0, 1):
        assert 0 < metrics[gpu].busy_ns["kernel"] <= metrics[gpu].makespan_ns <= metrics[gpu].wall_ns
    assert metrics[0].wall_ns == metrics[1].wall_ns == compute_metrics(trace).wall_ns


def test_host_calls_belong_to_the_gpu_they_fed() -> None:
    trace = run(TWO)
    calls = np.flatnonzero(trace["op"] >= 0)
    assert (trace["device"][calls] == trace["device"][trace["op"][calls]]).all()
    others = np.flatnonzero((trace["op"] < 0) & ~trace.device_mask)
    on_one_gpu = np.isin([trace.names[n] for n in trace["name"][others]], list(DEVICE_CALLS))
    assert set(trace["device"][others[~on_one_gpu]].tolist()) == {-1}  # the synchronize serves both
    assert set(trace["device"][others[on_one_gpu]].tolist()) == {0, 1}  # a device switch, an event: one GPU's
    names = {trace.names[n] for n in trace["name"][calls[trace["kind"][trace["op"][calls]] == OpKind.PEER]]}
    assert names == {"cudaMemcpyPeerAsync"}


def test_two_gpus_is_deterministic() -> None:
    first, second = run(TWO), run(TWO)
    assert all(np.array_equal(first[name], second[name]) for name in first.columns)


def test_a_profile_without_peer_refuses_two_gpus() -> None:
    with pytest.raises(BackendError, match=r"h200 profile models one GPU.*h200x2-nvlink"):
        SIM.run(TWO, "h200")
    with pytest.raises(ValueError, match="no \\[peer\\] section"):
        build_ops(TWO, load_profile("tesla-k20c"))


def test_the_nvlink_profile_says_it_is_not_calibrated() -> None:
    assert "not calibrated on two real GPUs" in PROFILE.name and "not calibrated" in PROFILE.summary
    assert PROFILE.peer is not None and PROFILE.peer.nvlink_gbps == 450.0
    h200 = load_profile("h200")
    assert PROFILE.h2d_gbps == h200.h2d_gbps and PROFILE.host_kinds == h200.host_kinds  # the h200 on each side
    assert h200.peer is None and "nvlink_gbps" not in h200.facts() and PROFILE.facts()["nvlink_gbps"] == 450.0


def test_one_gpu_on_the_nvlink_profile_is_the_h200() -> None:
    one = PipelineConfig(size_bytes=64 * MIB, chunks=8, streams=2)
    mine, h200 = run(one), SIM.run(one, "h200")
    assert all(np.array_equal(mine[name], h200[name]) for name in mine.columns)
    assert set(mine["device"].tolist()) == {0}


def test_the_cupy_backend_refuses_two_gpus() -> None:
    from overlapviz.backends.cupy.backend import CupyBackend

    with pytest.raises(BackendError, match=r"runs one GPU.*only on the model"):
        CupyBackend().run(TWO)

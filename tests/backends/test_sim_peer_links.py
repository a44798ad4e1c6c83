"""Two GPUs on the model: NVLink per link, peer copies over PCIe, a shared PCIe switch, host calls of two GPUs.

Not calibrated on two real GPUs: these hold the model to its own rules, not to measurements.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from overlapviz.backends.sim.backend import SimBackend
from overlapviz.backends.sim.device_calls import EVENT_RECORD, SET_DEVICE, STREAM_WAIT_EVENT
from overlapviz.backends.sim.engine import GpuModel
from overlapviz.backends.sim.invariants import check_timeline
from overlapviz.backends.sim.ops import Op, copy_ns, peer_copy_ns
from overlapviz.backends.sim.profile import DeviceProfile, ProfileError, load_profile
from overlapviz.backends.sim.timeline_columns import Timeline
from overlapviz.core.analysis.metrics import compute_metrics
from overlapviz.core.config import MIB, HostMemory, PipelineConfig
from overlapviz.core.trace.spans import MemoryKind, OpKind, Trace, Unit

SIM = SimBackend()
NVLINK, PCIE, SWITCH = "h200x2-nvlink", "h200x2-pcie", "h200x2-pcie-switch"
TWO = PipelineConfig(size_bytes=64 * MIB, chunks=8, streams=2, gpus=2)
ONE_CHUNK = TWO.replace(chunks=1, streams=1)
NBYTES = 16 * MIB
KERNEL_NS = 1e6


def profile_file(tmp_path: Path, text: str) -> str:
    path = tmp_path / "two.toml"
    path.write_text(text)
    return str(path)


def peer_spans(trace: Trace) -> np.ndarray:
    return (trace["end_ns"] - trace["start_ns"])[trace.mask(OpKind.PEER)]


# --- NVLink per link, and PCIe P2P without it ------------------------------------------------


def test_the_nvlink_rate_is_its_links_times_the_rate_of_one(tmp_path: Path) -> None:
    four = load_profile(profile_file(tmp_path, 'based_on = "h200x2-nvlink"\n[peer]\nnvlink_links = 4\n'))
    eighteen = load_profile(NVLINK)
    assert eighteen.peer is not None and four.peer is not None
    assert (eighteen.peer.nvlink_links, eighteen.peer.nvlink_link_gbps, eighteen.peer.nvlink_gbps) == (18, 25.0, 450.0)
    assert four.peer.nvlink_gbps == four.peer.direct_gbps == 100.0
    latency = four.peer.peer_latency_us * 1e3
    assert peer_copy_ns(True, NBYTES, four) == pytest.approx(latency + NBYTES / 100.0)
    spans = peer_spans(SIM.run(ONE_CHUNK, str(tmp_path / "two.toml")))
    assert spans == pytest.approx(latency + ONE_CHUNK.chunk_bytes / 100.0, abs=1)


def test_without_nvlink_a_peer_copy_crosses_pcie_at_the_p2p_rate() -> None:
    pcie = load_profile(PCIE)
    assert pcie.peer is not None and not pcie.peer.nvlink and pcie.peer.nvlink_link_gbps == 25.0  # kept, not used
    assert pcie.peer.direct_gbps == pcie.peer.pcie_p2p_gbps == 55.3
    alone = pcie.peer.peer_latency_us * 1e3 + ONE_CHUNK.chunk_bytes / 55.3
    assert peer_spans(SIM.run(ONE_CHUNK, PCIE)) == pytest.approx(alone, abs=1)  # one chunk: nothing beside it
    staged = sum(copy_ns(kind, HostMemory.PINNED, ONE_CHUNK.chunk_bytes, pcie) for kind in (OpKind.D2H, OpKind.H2D))
    assert peer_spans(SIM.run(ONE_CHUNK.replace(peer_access=False), PCIE)) == pytest.approx(staged, abs=1)


def test_facts_name_the_link() -> None:
    nvlink = load_profile(NVLINK).facts()
    assert nvlink.items() >= {"nvlink_links": 18, "nvlink_gbps": 450.0, "shared_host_link": False}.items()
    pcie = load_profile(PCIE).facts()
    assert pcie["nvlink_links"] == 0 and pcie["pcie_p2p_gbps"] == 55.3 and "nvlink_gbps" not in pcie
    assert load_profile(SWITCH).facts()["shared_host_link"] is True
    assert SIM.run(ONE_CHUNK, SWITCH).meta.device_facts["shared_host_link"] is True


def test_a_pipeline_is_slower_over_pcie_than_over_nvlink() -> None:
    makespan = {key: compute_metrics(SIM.run(TWO, key)).makespan_ns for key in (NVLINK, PCIE)}
    assert makespan[PCIE] > makespan[NVLINK]


# --- copies sharing links, on ops made by hand ------------------------------------------------


def copy_op(kind: OpKind, device: int, stream: int, profile: DeviceProfile) -> Op:
    """A copy of `NBYTES` that waits for op 0 (a kernel) through an event."""
    unit = {OpKind.H2D: Unit.H2D_ENGINE, OpKind.D2H: Unit.D2H_ENGINE, OpKind.PEER: Unit.DEVICE_COPY}[kind]
    peer = kind is OpKind.PEER
    ns = peer_copy_ns(True, NBYTES, profile) if peer else copy_ns(kind, HostMemory.PINNED, NBYTES, profile)
    memory = MemoryKind.NONE if peer else MemoryKind.PINNED
    return Op(kind, 0, stream, unit, ns, NBYTES, memory, 1.0, False, kind.label, -1, device, 0)


def kernel_op(device: int, stream: int) -> Op:
    return Op(OpKind.KERNEL, 0, stream, Unit.COMPUTE, KERNEL_NS, 0, MemoryKind.NONE, 1.0, False, "k", -1, device, -1)


def copies_at_once(key: str, *copies: tuple[OpKind, int], peer_access: bool = True) -> tuple[list[Op], Timeline]:
    """Copies that all wait for one kernel on GPU 0, so that they start together when it ends.

    A kernel on GPU 1 comes last, so that the run has two GPUs whichever GPU the copies are on.
    """
    profile = load_profile(key)
    ops = [kernel_op(0, 0), *(copy_op(kind, gpu, 1 + n, profile) for n, (kind, gpu) in enumerate(copies))]
    ops.append(kernel_op(1, 9))
    timeline = GpuModel(profile, ops, peer_access=peer_access).run()
    check_timeline(ops, timeline)
    starts = timeline.start_ns[1 : 1 + len(copies)]
    assert (starts == starts[0]).all() and starts[0] > KERNEL_NS  # they did start together
    return ops, timeline


def stretch(ops: list[Op], timeline: Timeline) -> list[float]:
    """Each copy's span over its time alone."""
    return [float((timeline.end_ns[i] - timeline.start_ns[i]) / ops[i].work_ns) for i in range(1, len(ops) - 1)]


@pytest.mark.parametrize("key", [NVLINK, PCIE])
def test_two_gpus_on_links_of_their_own_copy_in_at_full_rate_together(key: str) -> None:
    assert stretch(*copies_at_once(key, (OpKind.H2D, 0), (OpKind.H2D, 1))) == pytest.approx([1.0, 1.0])


def test_under_one_switch_two_gpus_copying_in_at_once_each_get_half_of_it() -> None:
    assert stretch(*copies_at_once(SWITCH, (OpKind.H2D, 0), (OpKind.H2D, 1))) == pytest.approx([2.0, 2.0])
    assert stretch(*copies_at_once(SWITCH, (OpKind.D2H, 0), (OpKind.D2H, 1))) == pytest.approx([2.0, 2.0])


def test_under_one_switch_both_directions_at_once_take_the_bidirectional_factor() -> None:
    factor = load_profile(SWITCH).bidirectional_factor
    assert stretch(*copies_at_once(SWITCH, (OpKind.H2D, 0), (OpKind.D2H, 1))) == pytest.approx([1 / factor] * 2)
    assert stretch(*copies_at_once(PCIE, (OpKind.H2D, 0), (OpKind.D2H, 1))) == pytest.approx([1.0, 1.0])


@pytest.mark.parametrize("key", [PCIE, SWITCH])
def test_a_p2p_copy_shares_its_gpus_links_but_not_the_upstream_one(key: str) -> None:
    factor = load_profile(key).bidirectional_factor
    # Out of GPU 0 over its link while GPU 0 copies in over it: both directions of that link busy.
    # Had the peer copy crossed the switch's upstream link as well, the H2D would get half there.
    assert stretch(*copies_at_once(key, (OpKind.PEER, 0), (OpKind.H2D, 0))) == pytest.approx([1 / factor] * 2)
    # Into GPU 1 while GPU 1 copies in too: the same direction of GPU 1's link, split in two.
    assert stretch(*copies_at_once(key, (OpKind.PEER, 0), (OpKind.H2D, 1))) == pytest.approx([2.0, 2.0])
    # Into GPU 1 while GPU 1 copies out: both directions of GPU 1's link busy.
    assert stretch(*copies_at_once(key, (OpKind.PEER, 0), (OpKind.D2H, 1))) == pytest.approx([1 / factor] * 2)


def test_peer_copies_over_nvlink_or_staged_share_no_pcie_link() -> None:
    assert stretch(*copies_at_once(NVLINK, (OpKind.PEER, 0), (OpKind.H2D, 0))) == pytest.approx([1.0, 1.0])
    staged = copies_at_once(PCIE, (OpKind.PEER, 0), (OpKind.H2D, 0), peer_access=False)
    assert stretch(*staged) == pytest.approx([1.0, 1.0])


def test_in_a_pipeline_under_one_switch_gpu_0_copying_in_slows_while_gpu_1_copies_out() -> None:
    """Peer access off: the staged peer copies cross no link, so only the switch joins the two GPUs' copies."""
    config = TWO.replace(iters=0, peer_access=False)
    profile = load_profile(SWITCH)
    alone = copy_ns(OpKind.H2D, HostMemory.PINNED, config.chunk_bytes, profile)
    own, shared = (SIM.run(config, key) for key in (PCIE, SWITCH))
    assert own.duration_ns[own.mask(OpKind.H2D)] == pytest.approx(alone, abs=1)
    stretched = shared.duration_ns[shared.mask(OpKind.H2D)]
    assert (stretched > alone + 1).any() and (stretched <= alone / profile.bidirectional_factor + 1).all()


# --- host calls of two GPUs ------------------------------------------------------------------


def calls_named(trace: Trace, name: str) -> np.ndarray:
    if name not in trace.names:
        return np.zeros(0, dtype=np.int64)
    rows = np.flatnonzero((trace["kind"] == OpKind.API) & (trace["name"] == trace.names.index(name)))
    return rows[np.argsort(trace["start_ns"][rows])]


def issuing_call(trace: Trace, op: int) -> int:
    return int(np.flatnonzero((trace["kind"] == OpKind.API) & (trace["op"] == op))[0])


@pytest.mark.parametrize("key", [NVLINK, PCIE, SWITCH])
def test_one_gpu_makes_no_device_calls_and_is_the_h200(key: str) -> None:
    one = TWO.replace(gpus=1, memory="pageable")
    trace, h200 = SIM.run(one, key), SIM.run(one, "h200")
    assert not {SET_DEVICE, EVENT_RECORD, STREAM_WAIT_EVENT} & set(trace.names)
    assert trace.names == h200.names and all(np.array_equal(trace[name], h200[name]) for name in trace.columns)


@pytest.mark.parametrize(("order", "switches"), [("depth", 2 * TWO.chunks - 1), ("breadth", 1)])
def test_two_gpus_set_the_device_when_it_changes(order: str, switches: int) -> None:
    trace = SIM.run(TWO.replace(order=order), NVLINK)
    sets = calls_named(trace, SET_DEVICE)
    assert trace["device"][sets].tolist() == [1, 0] * (switches // 2) + [1]  # GPU 0 is current at first
    issuing = np.flatnonzero((trace["kind"] == OpKind.API) & (trace["op"] >= 0))
    issuing = issuing[np.argsort(trace["start_ns"][issuing])]
    devices = trace["device"][trace["op"][issuing]]
    changes = np.flatnonzero(devices[1:] != devices[:-1]) + 1
    assert len(sets) == len(changes) == switches
    # each switch comes just before the first call of the other GPU's op, after the call before it
    assert (trace["end_ns"][sets] <= trace["start_ns"][issuing[changes]]).all()
    assert (trace["start_ns"][sets] >= trace["end_ns"][issuing[changes - 1]]).all()
    peer = load_profile(NVLINK).peer
    assert peer is not None
    assert trace.duration_ns[sets] == pytest.approx(peer.set_device_us * 1e3, abs=1)


def test_an_event_is_recorded_after_each_peer_copy_and_waited_for_on_gpu_1() -> None:
    trace = SIM.run(TWO, NVLINK)
    peer = load_profile(NVLINK).peer
    assert peer is not None
    records, waits = calls_named(trace, EVENT_RECORD), calls_named(trace, STREAM_WAIT_EVENT)
    assert len(records) == len(waits) == TWO.chunks
    peers = np.flatnonzero(trace.mask(OpKind.PEER))
    waiting = np.flatnonzero((trace["kind"] == OpKind.KERNEL) & (trace["device"] == 1))
    for chunk, (record, wait) in enumerate(zip(records, waits, strict=True)):
        copy = int(peers[trace["chunk"][peers] == chunk][0])
        kernel = int(waiting[trace["chunk"][waiting] == chunk][0])
        assert trace["start_ns"][record] >= trace["end_ns"][issuing_call(trace, copy)]
        assert trace["start_ns"][kernel] >= trace["end_ns"][copy]  # the wait kept
        assert trace["end_ns"][wait] <= trace["start_ns"][issuing_call(trace, kernel)]
        assert trace["start_ns"][wait] > trace["start_ns"][record]
    assert trace["device"][records].tolist() == [0] * TWO.chunks and trace["device"][waits].tolist() == [1] * TWO.chunks
    assert trace.duration_ns[records] == pytest.approx(700, abs=1)  # h200_device_calls.json: 0.689 us inside the call
    assert trace.duration_ns[waits] == pytest.approx(peer.stream_wait_event_us * 1e3, abs=1)


def test_host_calls_never_overlap_on_the_host_lane() -> None:
    for config in (TWO, TWO.replace(order="breadth"), TWO.replace(memory="pageable")):
        trace = SIM.run(config, SWITCH)
        calls = np.flatnonzero(trace["kind"] == OpKind.API)
        calls = calls[np.argsort(trace["start_ns"][calls], kind="stable")]
        assert (trace["start_ns"][calls[1:]] >= trace["end_ns"][calls[:-1]]).all()


def test_device_calls_cost_host_time(tmp_path: Path) -> None:
    """With the three calls free, the last op is issued earlier by exactly what they cost."""
    free = profile_file(
        tmp_path, 'based_on = "h200x2-nvlink"\n[peer]\nset_device_us = 0.0\nevent_record_us = 0.0\n'
        "stream_wait_event_us = 0.0\n",
    )
    peer = load_profile(NVLINK).peer
    assert peer is not None
    last_issue = {}
    for key in (NVLINK, free):
        trace = SIM.run(ONE_CHUNK, key)
        last_issue[key] = trace["start_ns"][(trace["kind"] == OpKind.API) & (trace["op"] >= 0)].max()
    cost = peer.set_device_us + peer.event_record_us + peer.stream_wait_event_us
    assert last_issue[NVLINK] - last_issue[free] == pytest.approx(cost * 1e3, abs=2)


# --- profile checks --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("peer", "message"),
    [
        ("nvlink_links = 0", r"nvlink_links = 0 \(no NVLink\) needs pcie_p2p_gbps: peer copies then cross PCIe"),
        ("nvlink_gbps = 450.0", r"\[peer\] missing nothing, unknown \['nvlink_gbps'\]"),
        ("nvlink_links = 1.5", r"nvlink_links must be whole numbers, not 1\.5"),
        ('shared_host_link = "yes"', r"shared_host_link must be true or false"),
        ("set_device_us = -1.0", r"set_device_us must be finite and not negative"),
    ],
)
def test_a_bad_peer_section_is_refused_with_what_is_wrong(tmp_path: Path, peer: str, message: str) -> None:
    with pytest.raises(ProfileError, match=rf"two\.toml: .*{message}"):
        load_profile(profile_file(tmp_path, f'based_on = "h200x2-nvlink"\n[peer]\n{peer}\n'))


def test_an_nvlink_without_its_rate_or_a_p2p_rate_of_zero_is_refused(tmp_path: Path) -> None:
    full = (
        'based_on = "h200"\n[peer]\nnvlink_links = 2\npeer_latency_us = 5.0\nshared_host_link = false\n'
        "set_device_us = 1.0\nevent_record_us = 1.0\nstream_wait_event_us = 1.0\n"
    )
    with pytest.raises(ProfileError, match=r"nvlink_links = 2 needs nvlink_link_gbps, the rate of one link each way"):
        load_profile(profile_file(tmp_path, full))
    with pytest.raises(ProfileError, match=r"\[peer\] missing \['event_record_us'\]"):
        load_profile(profile_file(tmp_path, full.replace("event_record_us = 1.0\n", "")))
    with pytest.raises(ProfileError, match=r"pcie_p2p_gbps must be above zero"):
        load_profile(profile_file(tmp_path, 'based_on = "h200x2-pcie"\n[peer]\npcie_p2p_gbps = 0.0\n'))

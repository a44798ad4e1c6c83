"""The peer-bound finding: copies between GPUs that set the pace, and a hint where they crossed the host."""

import pytest

from overlapviz.core.analysis.metrics import compute_metrics
from overlapviz.core.config import PipelineConfig
from overlapviz.core.findings.peers import peer_bound
from overlapviz.core.trace.meta import TraceMeta
from overlapviz.core.trace.spans import MemoryKind, OpKind, TraceBuilder, Unit
from overlapviz.session import run_pipeline

US = 1000
MB = 10**6


def two_gpu_run(peer_access, iters=500):
    return run_pipeline(PipelineConfig(gpus=2, peer_access=peer_access, iters=iters), "sim", "h200x2-nvlink")


def codes(result):
    return [finding.code for finding in result.findings]


def test_peer_copies_staged_through_the_host_set_the_pace_and_the_finding_says_why():
    result = two_gpu_run(peer_access=False)
    [finding] = [f for f in result.findings if f.code == "peer-bound"]
    assert finding.message.startswith("GPU 0: Peer copies limit this run: the copies from GPU 0 to another GPU ran")
    assert "at 27.2 GB/s" in finding.message and "(54.4 GB/s)" in finding.message
    assert "cudaDeviceEnablePeerAccess" in finding.message
    assert set(result.trace["kind"][finding.rows].tolist()) == {OpKind.PEER}
    assert "copy-bound" not in codes(result)  # the H2D engine does not limit it: the peer copies do


def test_peer_copies_over_nvlink_limit_nothing():
    result = two_gpu_run(peer_access=True)
    assert "peer-bound" not in codes(result)
    assert "copy-bound" in codes(result)


def peer_trace(peer_us, h2d_us=100, nbytes=8 * MB):
    """An H2D copy, then 4 peer copies of `nbytes` taking `peer_us` each, on GPU 0."""
    b = TraceBuilder()
    b.add(OpKind.H2D, Unit.H2D_ENGINE, 0, h2d_us * US, name="h2d", stream=0, nbytes=nbytes, memory=MemoryKind.PINNED)
    t = h2d_us * US
    for chunk in range(4):
        b.add(OpKind.KERNEL, Unit.COMPUTE, t, t + 10 * US, name="k", stream=chunk % 2, chunk=chunk)
        b.add(OpKind.PEER, Unit.DEVICE_COPY, t + 10 * US, t + (10 + peer_us) * US, name="memcpy PtoP", stream=chunk % 2,
              nbytes=nbytes, chunk=chunk)  # fmt: skip
        t += 10 * US
    return b.build(TraceMeta(), origin_ns=0)


@pytest.mark.parametrize(("peer_us", "staged_hint"), [(400, True), (100, False)])
def test_the_hint_of_a_path_through_the_host_comes_only_with_a_slow_peer_rate(peer_us, staged_hint):
    trace = peer_trace(peer_us)  # the H2D copy runs at 80 GB/s; the peer copies at 20 or 80 GB/s
    [finding] = peer_bound(trace, compute_metrics(trace))
    assert ("staged through host memory" in finding.message) is staged_hint
    assert ("fewer bytes between the GPUs" in finding.message) is not staged_hint


def test_short_peer_copies_are_no_finding():
    trace = peer_trace(5)
    assert peer_bound(trace, compute_metrics(trace)) == []

"""Two GPUs sharing the chunks out (the split layout) on the model: each GPU its own engines and host link.

Not calibrated on two real GPUs: these hold the model to its own rules, not to measurements.
"""

import numpy as np
import pytest

from overlapviz.backends.sim.backend import SimBackend
from overlapviz.backends.sim.ops import copy_ns
from overlapviz.backends.sim.profile import load_profile
from overlapviz.core.analysis.metrics import compute_metrics
from overlapviz.core.config import MIB, HostMemory, PipelineConfig
from overlapviz.core.devices.figures import metrics_per_device
from overlapviz.core.run_errors import BackendError
from overlapviz.core.trace.lanes import gpus_of, lanes_of
from overlapviz.core.trace.spans import OpKind, Trace
from tests.backends.simrun import kind_rows as rows

SIM = SimBackend()
DEVICE = "h200x2-nvlink"
PROFILE = load_profile(DEVICE)
SPLIT = PipelineConfig(size_bytes=64 * MIB, chunks=8, streams=2, gpus=2, gpu_layout="split")
VARIANTS = [
    SPLIT,
    SPLIT.replace(order="breadth"),
    SPLIT.replace(stream_kind="legacy"),
    SPLIT.replace(memory="pageable"),
    SPLIT.replace(memory="write-combined"),
    SPLIT.replace(iters=0),
    SPLIT.replace(chunks=7, streams=3),
]


def run(config: PipelineConfig) -> Trace:
    return SIM.run(config, DEVICE)


@pytest.mark.parametrize("config", VARIANTS, ids=lambda c: c.describe())
def test_every_chunk_runs_in_order_on_its_own_gpu(config: PipelineConfig) -> None:
    trace = run(config)  # the backend checks its invariants (engines, streams) before it returns
    start, end = trace["start_ns"], trace["end_ns"]
    assert not trace.mask(OpKind.PEER).any()
    for gpu in (0, 1):
        chunks = list(range(gpu, config.chunks, 2))
        h2d, d2h = rows(trace, OpKind.H2D, gpu), rows(trace, OpKind.D2H, gpu)
        assert sorted(trace["chunk"][h2d].tolist()) == sorted(trace["chunk"][d2h].tolist()) == chunks
        h2d, d2h = h2d[np.argsort(trace["chunk"][h2d])], d2h[np.argsort(trace["chunk"][d2h])]
        if config.has_kernel_work:
            kernel = rows(trace, OpKind.KERNEL, gpu)
            kernel = kernel[np.argsort(trace["chunk"][kernel])]
            assert (start[kernel] >= end[h2d]).all() and (start[d2h] >= end[kernel]).all()
        else:
            assert (start[d2h] >= end[h2d]).all()


def test_both_gpus_pull_from_the_host_at_once() -> None:
    trace = run(SPLIT.replace(iters=0))
    h2d = [rows(trace, OpKind.H2D, gpu) for gpu in (0, 1)]
    start, end = trace["start_ns"], trace["end_ns"]
    overlapping = (start[h2d[0]][:, None] < end[h2d[1]][None, :]) & (end[h2d[0]][:, None] > start[h2d[1]][None, :])
    assert overlapping.any()
    # each GPU has its own link: GPU 1's copies never slow GPU 0's, the first H2D of each runs at the one-copy rate
    alone = copy_ns(OpKind.H2D, HostMemory.PINNED, SPLIT.chunk_bytes, PROFILE)
    firsts = [h2d[gpu][np.argmin(start[h2d[gpu]])] for gpu in (0, 1)]
    assert (end - start)[firsts] == pytest.approx([alone, alone], abs=1)


def test_copy_bound_work_takes_about_half_the_time_of_one_gpu() -> None:
    """Copies only, 256 MiB in 16 chunks: each GPU moves half the bytes over its own link.

    Not exactly half: each GPU's pipeline has half as many chunks to hide its first H2D and
    its last D2H behind, so the fill and drain weigh twice as much.
    """
    split = PipelineConfig(size_bytes=256 * MIB, chunks=16, streams=4, iters=0, gpus=2, gpu_layout="split")
    one = split.replace(gpus=1, gpu_layout="chain")
    ratio = compute_metrics(run(split)).makespan_ns / compute_metrics(run(one)).makespan_ns
    assert 0.5 <= ratio < 0.56, ratio


def test_each_gpu_has_its_engines_lanes_and_figures() -> None:
    trace = run(SPLIT)
    assert gpus_of(trace) == (0, 1)
    titles = {lane.title for lane in lanes_of(trace)}
    for gpu in (0, 1):
        assert {f"GPU {gpu}: H2D engine", f"GPU {gpu}: D2H engine"} <= titles
    assert not any("Peer" in title for title in titles)
    metrics = metrics_per_device(trace)
    for gpu in (0, 1):
        busy = metrics[gpu].busy_ns
        assert busy["h2d"] > 0 and busy["d2h"] > 0 and 0 < busy["kernel"] <= metrics[gpu].makespan_ns
    assert metrics[0].busy_ns["h2d"] == pytest.approx(metrics[1].busy_ns["h2d"], rel=1e-9)  # four chunks each


def test_each_gpus_streams_carry_its_chunks() -> None:
    trace = run(SPLIT)
    device = trace.device_mask
    streams = {gpu: set(trace["stream"][device & (trace["device"] == gpu)].tolist()) for gpu in (0, 1)}
    assert streams == {0: {0, 1}, 1: {2, 3}}
    for op in np.flatnonzero(device):
        chunk = int(trace["chunk"][op])
        assert trace["stream"][op] == SPLIT.stream_of(chunk, SPLIT.gpu_of(chunk))


def test_host_calls_belong_to_the_gpu_they_fed() -> None:
    trace = run(SPLIT)
    calls = np.flatnonzero(trace["op"] >= 0)
    assert (trace["device"][calls] == trace["device"][trace["op"][calls]]).all()
    assert {trace.names[n] for n in trace["name"][calls]} >= {"cudaMemcpyAsync"}
    assert "cudaMemcpyPeerAsync" not in {trace.names[n] for n in trace["name"][calls]}


def test_one_chunk_leaves_gpu_1_idle() -> None:
    trace = run(SPLIT.replace(chunks=1, streams=1))
    assert set(trace["device"][trace.device_mask].tolist()) == {0}


def test_split_is_deterministic() -> None:
    first, second = run(SPLIT), run(SPLIT)
    assert all(np.array_equal(first[name], second[name]) for name in first.columns)


def test_a_one_gpu_profile_refuses_split_as_it_refuses_the_chain() -> None:
    with pytest.raises(BackendError, match=r"h200 profile models one GPU.*h200x2-nvlink"):
        SIM.run(SPLIT, "h200")


def test_the_cupy_backend_refuses_split() -> None:
    from overlapviz.backends.cupy.backend import CupyBackend

    with pytest.raises(BackendError, match=r"runs one GPU.*only on the model"):
        CupyBackend().run(SPLIT)

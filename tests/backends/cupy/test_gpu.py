"""Runs on a real GPU (``pytest -m gpu``); skipped cleanly where there is none."""

from __future__ import annotations

import numpy as np
import pytest

from overlapviz.backends.cupy import CupyBackend
from overlapviz.backends.cupy import runner as runner_module
from overlapviz.backends.cupy.bandwidth import SWEEP_MEMORIES
from overlapviz.backends.cupy.plan import device_plan
from overlapviz.core.cancel import CancelToken
from overlapviz.core.config import HostAlloc, HostMemory, IssueOrder, KernelKind, PipelineConfig, StreamKind
from overlapviz.core.config.pipeline_plan import memory_kind
from overlapviz.core.run_errors import BackendError, RunCancelled
from overlapviz.core.trace.spans import MemoryKind, OpKind, Unit

pytestmark = pytest.mark.gpu
MIB = 1 << 20
SMALL = PipelineConfig(size_bytes=16 * MIB, chunks=8, streams=4, iters=200)


def overlaps(trace, kind):
    rows = np.flatnonzero(trace.mask(kind))
    order = rows[np.argsort(trace["start_ns"][rows], kind="stable")]
    return bool((trace["start_ns"][order[1:]] < trace["end_ns"][order[:-1]]).any())


def check_shape(trace, config):
    device = trace.device_mask
    stages = 3 if config.has_kernel_work else 2  # no kernel is launched without kernel work
    assert int(device.sum()) == stages * config.chunks
    assert (trace["start_ns"][device] <= trace["end_ns"][device]).all()
    known = device & (trace["ready_ns"] >= 0)
    assert (trace["ready_ns"][known] <= trace["start_ns"][known]).all()
    assert trace.meta.backend == "cupy" and trace.meta.simulated is False
    assert trace.meta.config == config.to_dict()
    # the device rows are the plan's ops, in its order, on its streams and units, under its names
    ops = device_plan(config, trace.meta.device_facts).ops()
    rows = np.flatnonzero(device)
    assert trace["kind"][rows].tolist() == [op.kind for op in ops]
    assert trace["chunk"][rows].tolist() == [op.chunk for op in ops]
    assert trace["stream"][rows].tolist() == [op.stream for op in ops]
    assert trace["unit"][rows].tolist() == [op.unit for op in ops]
    assert [trace.name_of(int(r)) for r in rows] == [op.name for op in ops]
    assert trace["bytes"][rows].tolist() == [op.nbytes for op in ops]


def test_device_is_listed_with_its_facts(gpu_backend):
    info = gpu_backend.devices()[0]
    assert info.key == "cuda:0" and not info.simulated
    assert info.facts["copy_engines"] >= 1 and info.facts["sm_count"] > 0
    assert info.facts["timing"] in ("cupti", "cuda-events")


def test_default_pipeline_with_engine_truth(gpu_backend):
    config = PipelineConfig()
    trace = gpu_backend.run(config)
    check_shape(trace, config)
    assert trace.meta.timing == "cupti"
    assert not overlaps(trace, OpKind.H2D) and not overlaps(trace, OpKind.D2H)
    assert (trace["memory"][trace.mask(OpKind.H2D, OpKind.D2H)] == MemoryKind.PINNED).all()
    assert (trace["bytes"][trace.mask(OpKind.H2D)] == config.chunk_bytes).all()
    calls = trace.mask(OpKind.API) & (trace["op"] >= 0)
    assert int(calls.sum()) == 3 * config.chunks
    assert set(trace["unit"][trace.device_mask].tolist()) <= {Unit.H2D_ENGINE, Unit.COMPUTE, Unit.D2H_ENGINE}


@pytest.mark.parametrize(
    "config",
    [
        SMALL.replace(order=IssueOrder.BREADTH),
        SMALL.replace(stream_kind=StreamKind.LEGACY),
        SMALL.replace(memory=HostMemory.PAGEABLE),
        SMALL.replace(memory=HostMemory.REGISTERED),
        SMALL.replace(memory=HostMemory.PAGEABLE, fresh_output=True),
        SMALL.replace(kernel=KernelKind.SINCOS),
        SMALL.replace(iters=0),
        SMALL.replace(chunks=1, streams=1),
        SMALL.replace(host_alloc=HostAlloc.PER_RUN),
        SMALL.replace(host_alloc=HostAlloc.PER_RUN, memory=HostMemory.REGISTERED),
        SMALL.replace(host_alloc=HostAlloc.PER_RUN, memory=HostMemory.PAGEABLE, fresh_output=True),
    ],
    ids=["breadth", "legacy", "pageable", "registered", "fresh", "sincos", "copies-only", "one-chunk",
         "per-run-pinned", "per-run-registered", "per-run-fresh"],
)
def test_variants_run_and_pass_the_output_check(gpu_backend, config):
    trace = gpu_backend.run(config)
    check_shape(trace, config)
    assert (trace["memory"][trace.mask(OpKind.H2D)] == memory_kind(config.memory)).all()


def test_buffers_allocated_per_run_show_on_the_host_lane(gpu_backend):
    pinned_before = gpu_backend.pinned_bytes()
    trace = gpu_backend.run(SMALL.replace(host_alloc=HostAlloc.PER_RUN))
    host = np.flatnonzero(trace.mask(OpKind.API) & (trace["op"] < 0))
    names = [trace.name_of(int(r)) for r in host]
    assert names.count("cudaMallocHost") == 2 and names.count("cudaFreeHost") == 2
    first_op = trace["start_ns"][trace.device_mask].min()
    last_op = trace["end_ns"][trace.device_mask].max()
    mallocs = [r for r, n in zip(host, names, strict=True) if n == "cudaMallocHost"]
    frees = [r for r, n in zip(host, names, strict=True) if n == "cudaFreeHost"]
    assert (trace["end_ns"][mallocs] <= first_op).all() and (trace["start_ns"][frees] >= last_op).all()
    assert gpu_backend.pinned_bytes() == pinned_before  # nothing kept


def test_legacy_stream_serialises(gpu_backend):
    trace = gpu_backend.run(SMALL.replace(stream_kind=StreamKind.LEGACY))
    device = np.flatnonzero(trace.device_mask)
    order = device[np.argsort(trace["start_ns"][device])]
    assert (trace["start_ns"][order[1:]] >= trace["end_ns"][order[:-1]]).all()


def test_events_fallback_replays_the_engines(gpu_backend):
    backend = CupyBackend(timing="events")
    try:
        trace = backend.run(PipelineConfig())
        assert trace.meta.timing == "cuda-events" and "events" in trace.meta.timing_reason
        assert not overlaps(trace, OpKind.H2D) and not overlaps(trace, OpKind.D2H)
        check_shape(trace, PipelineConfig())
    finally:
        backend.close()


def test_wrong_output_is_caught(gpu_backend, monkeypatch):
    real = runner_module.kernel_args
    monkeypatch.setattr(runner_module, "kernel_args", lambda cfg, c, p: real(cfg.replace(iters=0), c, p))
    with pytest.raises(BackendError, match="output is wrong"):
        gpu_backend.run(SMALL.replace(iters=7))
    monkeypatch.undo()
    gpu_backend.run(SMALL.replace(iters=7))  # and the next run works


def test_ram_guard_refuses_and_the_next_run_works(gpu_backend):
    backend = CupyBackend(pin_fraction=1e-9)
    try:
        with pytest.raises(BackendError, match="refusing to pin"):
            backend.run(SMALL)
        assert backend.pinned_bytes() == 0
        backend.run(SMALL.replace(memory=HostMemory.PAGEABLE))
    finally:
        backend.close()


class CancelMidRun(CancelToken):
    """Passes the check before the run starts, then says cancelled (a newer request came)."""

    def __init__(self):
        super().__init__()
        self.checks = 0

    def check(self):
        self.checks += 1
        if self.checks > 1:
            self.cancel()
        super().check()


def test_cancelled_run_frees_what_it_allocated_and_keeps_the_rest(gpu_backend):
    gpu_backend.run(SMALL)
    held = gpu_backend.pinned_bytes()
    assert held >= 2 * SMALL.size_bytes  # input and output buffers (and a small scratch buffer)
    before_start = CancelToken()
    before_start.cancel()
    with pytest.raises(RunCancelled):
        gpu_backend.run(SMALL.replace(size_bytes=32 * MIB), cancel=before_start)
    assert gpu_backend.pinned_bytes() == held
    with pytest.raises(RunCancelled):  # same sizes: the buffers it reused stay for the next run
        gpu_backend.run(SMALL, cancel=CancelMidRun())
    assert gpu_backend.pinned_bytes() == held
    with pytest.raises(RunCancelled):  # new sizes: the buffers it allocated go
        gpu_backend.run(SMALL.replace(size_bytes=32 * MIB), cancel=CancelMidRun())
    assert gpu_backend.pinned_bytes() == held - 2 * SMALL.size_bytes  # what it replaced is gone too
    gpu_backend.run(SMALL)


def test_unknown_device_is_an_error_and_the_backend_still_works(gpu_backend):
    with pytest.raises(BackendError, match="there is no CUDA device 99"):
        gpu_backend.run(SMALL, device="cuda:99")
    gpu_backend.run(SMALL)


def test_traced_and_untraced_wall_times(gpu_backend):
    untraced = gpu_backend.wall_times(SMALL, 3, traced=False)
    traced = gpu_backend.wall_times(SMALL, 3, traced=True)
    assert len(untraced) == len(traced) == 3 and min(untraced + traced) > 0


def test_bandwidth_sweep_small(gpu_backend):
    pinned_before = gpu_backend.pinned_bytes()
    points = gpu_backend.bandwidth(sizes=(1 * MIB, 16 * MIB), repeats=1)
    assert len(points) == 2 * 2 * len(SWEEP_MEMORIES)  # two sizes, both ways, every copy kind
    assert {p.memory for p in points} == {"pinned", "pageable", "registered", "write-combined"}
    by = {(p.memory, p.direction, p.size_bytes): p for p in points}
    assert by[("pinned", "h2d", 16 * MIB)].gbps > by[("pageable", "h2d", 16 * MIB)].gbps
    assert gpu_backend.pinned_bytes() == pinned_before  # the sweep's buffers are dropped
    assert all(p.ms > 0 for p in points)


def test_bandwidth_sweep_for_the_command_line(gpu_backend):
    points = gpu_backend.bandwidth_sweep(sizes=(4 * MIB,), kinds=("pinned", "pageable"))
    assert {(p["memory"], p["direction"]) for p in points} == {
        ("pinned", "h2d"), ("pinned", "d2h"), ("pageable", "h2d"), ("pageable", "d2h"),
    }  # fmt: skip
    assert all(p["size"] == 4 * MIB and p["gbps"] > 0 and p["seconds"] > 0 for p in points)
    with pytest.raises(BackendError, match="'cached' is not a valid HostMemory"):
        gpu_backend.bandwidth_sweep(kinds=("cached",))
    with pytest.raises(BackendError, match="mapped memory has no copies of its own"):
        gpu_backend.bandwidth_sweep(kinds=("pinned", "mapped"))


def test_device_memory_bandwidth(gpu_backend):
    assert gpu_backend.device_memory_gbps() > 100

"""Every kind of host memory and the CUDA Graph variant on a real GPU (``pytest -m gpu``).

Each run's output is checked against the host reference inside `run` (a wrong output raises),
so a run that returns a trace did the work its timeline shows.
"""

from __future__ import annotations

import numpy as np
import pytest

from overlapviz.backends.cupy import CupyBackend
from overlapviz.backends.cupy.buffers import HeldBytes
from overlapviz.backends.cupy.plan import device_plan
from overlapviz.backends.cupy.runner import GRAPH_LAUNCH_NAME, HOST_READ_NAME, SCRATCH_ELEMENTS
from overlapviz.core.config import HostMemory, PipelineConfig
from overlapviz.core.config.pipeline_plan import memory_kind
from overlapviz.core.trace.spans import MemoryKind, OpKind, Unit

pytestmark = pytest.mark.gpu
MIB = 1 << 20
SMALL = PipelineConfig(size_bytes=16 * MIB, chunks=8, streams=4, iters=200)
SCRATCH_BYTES = SCRATCH_ELEMENTS * 4  # the pinned 4 KiB of the touch copy, kept by every backend
EXPECTED_KINDS = {
    HostMemory.WRITE_COMBINED: {OpKind.H2D, OpKind.KERNEL, OpKind.D2H},
    HostMemory.MAPPED: {OpKind.KERNEL},
    HostMemory.MANAGED: {OpKind.KERNEL},
    HostMemory.MANAGED_PREFETCH: {OpKind.PREFETCH, OpKind.KERNEL},
    HostMemory.STAGED: {OpKind.HOST_COPY, OpKind.H2D, OpKind.KERNEL, OpKind.D2H},
}


def plan_rows(trace):
    """The rows of the plan's ops (everything but API calls), in trace order."""
    return np.flatnonzero(~trace.mask(OpKind.API))


def names(trace, rows):
    return [trace.name_of(int(r)) for r in rows]


def check_plan_rows(trace, config):
    """Row i is plan op i: its kind, chunk, unit, name and bytes; each op's span is causal."""
    ops = device_plan(config, trace.meta.device_facts).ops()
    rows = plan_rows(trace)
    assert rows.tolist() == list(range(len(ops)))
    assert trace["kind"][rows].tolist() == [op.kind for op in ops]
    assert trace["chunk"][rows].tolist() == [op.chunk for op in ops]
    assert trace["unit"][rows].tolist() == [op.unit for op in ops]
    assert names(trace, rows) == [op.name for op in ops]
    assert trace["bytes"][rows].tolist() == [op.nbytes for op in ops]
    assert (trace["start_ns"][rows] <= trace["end_ns"][rows]).all()
    return ops


@pytest.mark.parametrize("memory", list(EXPECTED_KINDS), ids=lambda m: m.value)
def test_each_kind_runs_checks_its_output_and_shows_its_ops(gpu_backend, memory):
    config = SMALL.replace(memory=memory)
    trace = gpu_backend.run(config)
    ops = check_plan_rows(trace, config)
    assert {OpKind(k) for k in trace["kind"][plan_rows(trace)].tolist()} == EXPECTED_KINDS[memory]
    assert trace.meta.timing == "cupti"
    if memory in (HostMemory.MAPPED, HostMemory.MANAGED):
        kernels = trace.mask(OpKind.KERNEL)
        assert (trace["memory"][kernels] == memory_kind(memory)).all()
    copies = trace.mask(OpKind.H2D, OpKind.D2H)
    assert (trace["memory"][copies] == memory_kind(memory)).all()
    assert len(ops) == len(plan_rows(trace))


def test_mapped_memory_leaves_the_copy_engines_idle_and_the_kernels_reach_across_the_link(gpu_backend):
    config = SMALL.replace(memory=HostMemory.MAPPED)
    trace = gpu_backend.run(config)
    device = trace.device_mask
    assert set(trace["unit"][device].tolist()) == {Unit.COMPUTE}
    assert (trace["bytes"][trace.mask(OpKind.KERNEL)] == 2 * config.chunk_bytes).all()


def test_prefetches_run_on_the_copy_engines_of_their_direction(gpu_backend):
    trace = gpu_backend.run(SMALL.replace(memory=HostMemory.MANAGED_PREFETCH))
    rows = np.flatnonzero(trace.mask(OpKind.PREFETCH))
    units = trace["unit"][rows].tolist()
    assert names(trace, rows).count("prefetch to device") == SMALL.chunks
    assert names(trace, rows).count("prefetch to host") == SMALL.chunks
    assert set(units) <= {Unit.H2D_ENGINE, Unit.D2H_ENGINE, Unit.COPY_ENGINE}
    assert (trace["end_ns"][rows] > trace["start_ns"][rows]).all()  # each one moved pages: it took time


def test_the_staging_ring_copies_on_the_host_lane_and_pins_only_its_slots(gpu_backend):
    config = SMALL.replace(memory=HostMemory.STAGED, ring_slots=2)
    trace = gpu_backend.run(config)
    host_copies = np.flatnonzero(trace.mask(OpKind.HOST_COPY))
    assert len(host_copies) == 2 * config.chunks
    assert (trace["unit"][host_copies] == Unit.HOST).all()
    assert (trace["memory"][trace.mask(OpKind.H2D, OpKind.D2H)] == MemoryKind.PINNED).all()  # from the slots
    ring_bytes = 2 * 2 * config.chunk_bytes_of(config.chunks - 1)
    assert trace.meta.ring_pinned_bytes == ring_bytes
    assert gpu_backend.pinned_bytes() == ring_bytes + SCRATCH_BYTES  # not the 32 MiB of data
    # the host empties a slot only after its chunk's D2H has ended (host and CUPTI clocks: 50 us apart at most)
    ops = device_plan(config, trace.meta.device_facts).ops()
    for op in ops:
        if op.waits_for >= 0:
            assert trace["start_ns"][op.index] >= trace["end_ns"][op.waits_for] - 50_000


def test_the_host_read_of_a_write_combined_output_is_timed_on_the_host_lane(gpu_backend):
    trace = gpu_backend.run(SMALL.replace(memory=HostMemory.WRITE_COMBINED))
    api = np.flatnonzero(trace.mask(OpKind.API))
    reads = [r for r, name in zip(api, names(trace, api), strict=True) if name == HOST_READ_NAME]
    assert len(reads) == 1
    read = reads[0]
    assert trace["unit"][read] == Unit.HOST and trace["op"][read] == -1
    assert trace["start_ns"][read] >= trace["end_ns"][trace.device_mask].max()  # after the run's last op
    assert trace["end_ns"][read] > trace["start_ns"][read]


@pytest.mark.parametrize("memory", [HostMemory.PINNED, HostMemory.MAPPED], ids=lambda m: m.value)
def test_a_graph_is_captured_once_and_launched_by_one_call(gpu_backend, memory):
    config = SMALL.replace(memory=memory, graph=True)
    first = gpu_backend.run(config)
    second = gpu_backend.run(config)
    for trace in (first, second):
        check_plan_rows(trace, config)
        api = np.flatnonzero(trace.mask(OpKind.API))
        assert names(trace, api).count(GRAPH_LAUNCH_NAME) == 1
        assert not (trace["op"][api] >= 0).any()  # no op has a call of its own
        assert trace.meta.timing == "cuda-events" and "Graph" in trace.meta.timing_reason
        assert 0 < trace.meta.host_issue_ns < trace.meta.host_wall_ns
    assert second.meta.graph_capture_ns == first.meta.graph_capture_ns  # the same graph, not captured again


@pytest.mark.parametrize("memory", [HostMemory.STAGED, HostMemory.MANAGED_PREFETCH, HostMemory.MAPPED],
                         ids=lambda m: m.value)  # fmt: skip
def test_the_events_fallback_times_every_kind(gpu_backend, memory):  # the fixture skips where there is no GPU
    backend = CupyBackend(timing="events")
    try:
        config = SMALL.replace(memory=memory)
        trace = backend.run(config)
        assert trace.meta.timing == "cuda-events"
        check_plan_rows(trace, config)
    finally:
        backend.close()


@pytest.mark.parametrize("memory", list(EXPECTED_KINDS), ids=lambda m: m.value)
def test_nothing_is_left_pinned_or_managed_after_a_kind_is_left_or_released(gpu_backend, memory):
    gpu_backend.run(SMALL.replace(memory=memory))
    gpu_backend.run(SMALL.replace(memory=HostMemory.PAGEABLE))  # what it pinned or managed goes
    held = gpu_backend.held_bytes()
    assert held.pinned == SCRATCH_BYTES and held.managed == 0
    gpu_backend.release_buffers()
    assert gpu_backend.held_bytes() == HeldBytes(0, 0, 0, 0)

import numpy as np

from overlapviz.backends.cupy.cupti_records import HostStep
from overlapviz.backends.cupy.event_trace import EventTimes, fifo_groups, trace_from_events
from overlapviz.core.config import HostMemory, IssueOrder, PipelineConfig
from overlapviz.core.trace.meta import TraceMeta
from overlapviz.core.trace.spans import MemoryKind, OpKind, Unit
from tests.backends.cupy.fakes import planned_ops

MIB = 1 << 20
META = TraceMeta(backend="cupy", device_facts={"copy_engines": 3})


def breadth_config():
    return PipelineConfig(size_bytes=4 * MIB, chunks=2, streams=2, order=IssueOrder.BREADTH)


def times_for_breadth():
    # plan: h2d c0 (s0), h2d c1 (s1), k c0, k c1, d2h c0, d2h c1
    # both H2D copies are ready at 10 (their streams are idle); events end them at 110 and 210:
    # the second one queued for the engine from 10 to 110.
    return EventTimes(
        call_start=[0, 2, 4, 6, 8, 9],
        call_end=[1, 3, 5, 7, 8, 9],
        ready=[10, 10, 110, 210, 300, 400],
        end=[110, 210, 300, 400, 500, 600],
        sync_start=10,
        sync_end=610,
    )


def test_queued_copy_starts_when_the_engine_is_free():
    trace = trace_from_events(planned_ops(breadth_config()), times_for_breadth(), META, kernels_fill_device=True)
    assert trace["start_ns"][:2].tolist() == [10, 110]
    assert trace["end_ns"][:2].tolist() == [110, 210]
    assert trace["ready_ns"][:2].tolist() == [10, 10]  # the wait stays visible as ready -> start
    assert trace.meta.timing == "cuda-events"


def test_no_two_copies_of_one_direction_overlap_after_replay():
    trace = trace_from_events(planned_ops(breadth_config()), times_for_breadth(), META, kernels_fill_device=True)
    for kind in (OpKind.H2D, OpKind.D2H):
        rows = np.flatnonzero(trace.mask(kind))
        order = rows[np.argsort(trace["start_ns"][rows])]
        assert (trace["start_ns"][order[1:]] >= trace["end_ns"][order[:-1]]).all()


def test_kernels_that_leave_room_start_when_ready():
    times = EventTimes([0] * 6, [1] * 6, [10, 10, 110, 110, 300, 400], [110, 210, 300, 305, 500, 600], 10, 610)
    cfg = breadth_config()
    shared = trace_from_events(planned_ops(cfg), times, META, kernels_fill_device=False)
    assert shared["start_ns"][2:4].tolist() == [110, 110]
    full = trace_from_events(planned_ops(cfg), times, META, kernels_fill_device=True)
    assert full["start_ns"][2:4].tolist() == [110, 300]


def test_host_spans_cover_each_call_and_the_sync():
    cfg = breadth_config()
    trace = trace_from_events(planned_ops(cfg), times_for_breadth(), META, kernels_fill_device=True)
    api = np.flatnonzero(trace.mask(OpKind.API))
    assert trace["op"][api].tolist() == [0, 1, 2, 3, 4, 5, -1]
    assert [trace.name_of(int(r)) for r in api[[0, 2, 6]]] == ["cudaMemcpyAsync", "cuLaunchKernel",
                                                               "cudaDeviceSynchronize"]
    assert (trace["unit"][api] == Unit.HOST).all()
    assert trace["enqueue_ns"][3] == 6


def test_fifo_groups_per_engine_and_compute_only_when_full():
    plan = planned_ops(breadth_config())
    assert fifo_groups(plan, kernels_fill_device=False) == [[0, 1], [4, 5]]
    assert fifo_groups(plan, kernels_fill_device=True) == [[0, 1], [2, 3], [4, 5]]
    one_engine = planned_ops(breadth_config(), copy_engines=1)
    assert fifo_groups(one_engine, kernels_fill_device=False) == [[0, 1, 4, 5]]


def test_units_names_bytes_and_memory_are_the_plans():
    cfg = PipelineConfig(size_bytes=4 * MIB, chunks=2, memory=HostMemory.REGISTERED, order=IssueOrder.BREADTH)
    trace = trace_from_events(planned_ops(cfg, copy_engines=1), times_for_breadth(), META, kernels_fill_device=True)
    device = trace.mask(OpKind.H2D, OpKind.KERNEL, OpKind.D2H)
    assert trace["unit"][device].tolist() == [Unit.COPY_ENGINE] * 2 + [Unit.COMPUTE] * 2 + [Unit.COPY_ENGINE] * 2
    assert [trace.name_of(r) for r in (0, 2, 4)] == ["memcpy HtoD", "fma_chain", "memcpy DtoH"]
    assert trace["memory"][device].tolist() == [MemoryKind.REGISTERED] * 2 + [MemoryKind.NONE] * 2 + [
        MemoryKind.REGISTERED] * 2  # fmt: skip
    assert trace["bytes"][device].tolist() == [2 * MIB] * 2 + [0] * 2 + [2 * MIB] * 2
    fresh = PipelineConfig(size_bytes=4 * MIB, chunks=2, memory=HostMemory.PAGEABLE, fresh_output=True)
    pageable = trace_from_events(planned_ops(fresh), times_for_breadth(), META, kernels_fill_device=True)
    assert set(pageable["memory"][pageable.mask(OpKind.D2H)].tolist()) == {MemoryKind.PAGEABLE}


def test_host_steps_are_added_to_the_host_lane():
    cfg = breadth_config()
    steps = [HostStep("free", 620, 700)]
    trace = trace_from_events(planned_ops(cfg), times_for_breadth(), META, kernels_fill_device=True, host_steps=steps)
    assert trace.name_of(len(trace) - 1) == "free" and trace["end_ns"][-1] == 700

"""The host memory kinds' pieces that need no GPU: buffers, the staging ring, side times, trace conversion."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from overlapviz.backends.cupy.buffers import HeldBytes, buffer_kind
from overlapviz.backends.cupy.cupti_records import CuptiMemory, DeviceRecord, HostStep, host_memory_of
from overlapviz.backends.cupy.cupti_trace import cupti_ops, trace_from_cupti
from overlapviz.backends.cupy.event_trace import EventTimes, fifo_groups, trace_from_events
from overlapviz.backends.cupy.plan import chunk_slices
from overlapviz.backends.cupy.ram_guard import PinRefused
from overlapviz.backends.cupy.side_times import SideTimes, Span, event_spans, is_side_op
from overlapviz.backends.cupy.staging_ring import SlotInUse, StagingRing
from overlapviz.core.config import HostMemory, PipelineConfig
from overlapviz.core.trace.meta import TraceMeta
from overlapviz.core.trace.spans import MemoryKind, OpKind, Unit
from tests.backends.cupy.fakes import fake_records, planned_ops
from tests.backends.cupy.test_buffers import GIB, pool

MIB = 1 << 20
META = TraceMeta(backend="cupy", device_facts={"copy_engines": 3})


def config(**changes):
    return PipelineConfig(size_bytes=8 * MIB, chunks=4, streams=2, **changes)


# --- buffers ------------------------------------------------------------------------------------


def test_staged_data_is_pageable_and_prefetched_managed_is_managed():
    assert buffer_kind(HostMemory.STAGED) is HostMemory.PAGEABLE
    assert buffer_kind(HostMemory.MANAGED_PREFETCH) is HostMemory.MANAGED
    assert buffer_kind(HostMemory.WRITE_COMBINED) is HostMemory.WRITE_COMBINED


@pytest.mark.parametrize("memory", [HostMemory.WRITE_COMBINED, HostMemory.MAPPED])
def test_write_combined_and_mapped_buffers_count_as_pinned_and_pass_the_guard(memory):
    p = pool()
    p.host(memory, "in", 1000)
    assert p.held() == HeldBytes(pinned=4000, pageable=0, device=0, managed=0)
    small = pool(available=1 * GIB)
    with pytest.raises(PinRefused):
        small.host(memory, "in", GIB // 4)
    assert small.allocate.allocated == []


def test_managed_memory_is_held_as_managed_pins_nothing_and_skips_the_pin_guard():
    p = pool(available=1 * GIB, share=1e-9)
    p.host(HostMemory.MANAGED_PREFETCH, "in", 1000)
    assert p.allocate.allocated == [(HostMemory.MANAGED, 1000)]
    assert p.held() == HeldBytes(pinned=0, pageable=0, device=0, managed=4000)
    p.release_all()
    assert p.held() == HeldBytes(0, 0, 0, 0)


# --- the staging ring ---------------------------------------------------------------------------


def ring_config(slots=2):
    return PipelineConfig(size_bytes=4100, chunks=3, streams=2, memory=HostMemory.STAGED, ring_slots=slots)


def test_the_ring_pins_an_input_and_an_output_slot_each_through_the_guard():
    cfg = ring_config()
    p = pool()
    ring = StagingRing(p, 2, max(s.elements for s in chunk_slices(cfg)))
    last = chunk_slices(cfg)[-1].elements  # the largest chunk: 342 of 1025 elements
    assert ring.nbytes == p.pinned_bytes == 2 * 2 * last * 4  # slots x (in + out)
    with pytest.raises(PinRefused):
        StagingRing(pool(available=1 * GIB), 2, GIB // 8)


def test_the_ring_stages_chunks_in_and_out_and_refuses_a_slot_still_in_use():
    cfg = ring_config()
    slices = chunk_slices(cfg)
    ring = StagingRing(pool(), 2, max(s.elements for s in slices))
    source = np.arange(cfg.elements, dtype=np.float32)
    dest = np.zeros_like(source)
    ring.copy_in(0, 0, slices[0], source)
    assert ring.inputs[0][: slices[0].elements].tolist() == source[: slices[0].elements].tolist()
    with pytest.raises(SlotInUse, match="chunk 2 was staged into slot 0 before chunk 0 left it"):
        ring.copy_in(2, 0, slices[2], source)
    ring.outputs[0][: slices[0].elements] = 7.0  # what the D2H copy would have written
    ring.copy_out(0, 0, slices[0], dest)
    assert dest[: slices[0].elements].tolist() == [7.0] * slices[0].elements
    ring.copy_in(2, 0, slices[2], source)  # free again
    with pytest.raises(SlotInUse, match="which holds chunk 2"):
        ring.copy_out(1, 0, slices[1], dest)
    ring.reset()
    assert ring.holding == [None, None]


# --- side times ---------------------------------------------------------------------------------


def test_prefetches_of_one_direction_are_replayed_as_their_engine_served_them():
    plan = planned_ops(config(memory=HostMemory.MANAGED_PREFETCH))
    ins = [op.index for op in plan if op.kind is OpKind.PREFETCH and op.unit is Unit.H2D_ENGINE][:2]
    # both ready at 0 (two idle streams), the second ends later: it waited for the first
    spans = event_spans(plan, {ins[0]: 0, ins[1]: 0}, {ins[0]: 100, ins[1]: 200})
    assert spans[ins[0]] == Span(0, 0, 100)
    assert spans[ins[1]] == Span(0, 100, 200)


def test_side_times_are_read_once_settled_and_name_an_untimed_op():
    side = SideTimes()
    side.pending.append(lambda: side.device.update({5: Span(1, 2, 3)}))
    with pytest.raises(KeyError, match="op 5 was not timed"):
        side.span(5)
    side.settle()
    assert side.span(5) == Span(1, 2, 3) and side.pending == []


def test_only_host_copies_and_prefetches_are_side_ops():
    kinds = {op.kind for op in planned_ops(config(memory=HostMemory.STAGED)) if is_side_op(op)}
    assert kinds == {OpKind.HOST_COPY}
    kinds = {op.kind for op in planned_ops(config(memory=HostMemory.MANAGED_PREFETCH)) if is_side_op(op)}
    assert kinds == {OpKind.PREFETCH}


# --- CUPTI records of the new kinds -------------------------------------------------------------


def test_cupti_reports_write_combined_copies_as_pinned_and_the_config_names_them():
    record = DeviceRecord(OpKind.H2D, 0, 1, 1, 1, nbytes=4, src_kind=CuptiMemory.PINNED, dst_kind=CuptiMemory.DEVICE)
    assert host_memory_of(record, HostMemory.WRITE_COMBINED) is MemoryKind.WRITE_COMBINED
    assert host_memory_of(record, HostMemory.STAGED) is MemoryKind.PINNED


def side_times_for(plan, base):
    side = SideTimes()
    for op in plan:
        if is_side_op(op):
            start = base + 10 * op.index
            (side.host if op.on_host else side.device)[op.index] = Span(start, start + 1, start + 5)
    return side


@pytest.mark.parametrize("memory", [HostMemory.STAGED, HostMemory.MANAGED_PREFETCH])
def test_a_cupti_trace_keeps_one_row_per_plan_op_with_side_ops_from_their_own_times(memory):
    cfg = config(memory=memory)
    plan = planned_ops(cfg)
    timed = cupti_ops(plan)
    # what CUPTI sees: only these ops' calls, numbered in issue order
    apis, devices = fake_records([dataclasses.replace(op, index=i) for i, op in enumerate(timed)],
                                 chunk_bytes=cfg.chunk_bytes)  # fmt: skip
    side = side_times_for(plan, apis[0].start_ns)
    trace = trace_from_cupti(plan, apis, devices, cfg, META, side=side)
    rows = np.flatnonzero(~trace.mask(OpKind.API))
    assert rows.tolist() == list(range(len(plan)))  # row i is plan op i
    assert trace["kind"][rows].tolist() == [op.kind for op in plan]
    assert trace["unit"][rows].tolist() == [op.unit for op in plan]
    origin = apis[0].start_ns  # the trace's zero: the first call
    for op in plan:
        if is_side_op(op):
            span = side.span(op.index)
            times = (trace["ready_ns"][op.index], trace["start_ns"][op.index], trace["end_ns"][op.index])
            assert times == (span.ready_ns - origin, span.start_ns - origin, span.end_ns - origin)
            assert trace.name_of(op.index) == op.name and trace["bytes"][op.index] == op.nbytes
    linked = trace["op"][trace.mask(OpKind.API) & (trace["op"] >= 0)]
    assert sorted(linked.tolist()) == [op.index for op in timed]  # each CUPTI-timed op's call, at its own row


def test_a_mapped_kernel_keeps_the_plans_bytes_over_the_link_and_its_memory():
    cfg = config(memory=HostMemory.MAPPED)
    plan = planned_ops(cfg)
    apis, devices = fake_records(plan)
    trace = trace_from_cupti(plan, apis, devices, cfg, META)
    kernels = trace.mask(OpKind.KERNEL)
    assert (trace["bytes"][kernels] == 2 * cfg.chunk_bytes).all()
    assert (trace["memory"][kernels] == MemoryKind.MAPPED).all()


# --- CUDA-event traces of the new kinds ---------------------------------------------------------


def staged_event_times(plan):
    n = len(plan)
    ready = [100 * i for i in range(n)]
    return EventTimes(
        call_start=[100 * i for i in range(n)], call_end=[100 * i + 50 for i in range(n)],
        ready=ready, end=[r + 40 for r in ready], sync_start=100 * n, sync_end=100 * n + 10,
    )  # fmt: skip


def test_host_copies_are_on_the_host_lane_with_no_call_and_outside_every_fifo():
    cfg = config(memory=HostMemory.STAGED)
    plan = planned_ops(cfg)
    assert all(not plan[row].on_host for group in fifo_groups(plan, True) for row in group)
    wait = HostStep("cudaEventSynchronize", 1, 2)
    trace = trace_from_events(plan, staged_event_times(plan), META, kernels_fill_device=True, host_steps=[wait])
    host_copies = trace.mask(OpKind.HOST_COPY)
    assert int(host_copies.sum()) == 2 * cfg.chunks
    assert (trace["unit"][host_copies] == Unit.HOST).all()
    calls = trace["op"][trace.mask(OpKind.API) & (trace["op"] >= 0)].tolist()
    assert calls == [op.index for op in plan if not op.on_host]
    names = [trace.name_of(int(r)) for r in np.flatnonzero(trace.mask(OpKind.API))]
    assert "cudaEventSynchronize" in names


def test_a_graph_launch_is_one_call_for_every_op():
    cfg = config(graph=True)
    plan = planned_ops(cfg)
    n = len(plan)
    times = EventTimes([5] * n, [9] * n, [10 * i + 20 for i in range(n)], [10 * i + 25 for i in range(n)], 10, 500)
    launch = HostStep("cudaGraphLaunch", 5, 9)
    trace = trace_from_events(plan, times, META, kernels_fill_device=True, host_steps=[launch], per_op_calls=False)
    api = np.flatnonzero(trace.mask(OpKind.API))
    assert sorted(trace.name_of(int(r)) for r in api) == ["cudaDeviceSynchronize", "cudaGraphLaunch"]
    launched = trace["start_ns"][api[[trace.name_of(int(r)) == "cudaGraphLaunch" for r in api]]]
    assert (trace["enqueue_ns"][trace.device_mask] == launched).all()  # every op issued by the launch

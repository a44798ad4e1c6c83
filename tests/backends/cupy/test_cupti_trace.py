import dataclasses

import numpy as np
import pytest

from overlapviz.backends.cupy.cupti_records import ApiRecord, CuptiMemory, DeviceRecord, HostStep
from overlapviz.backends.cupy.cupti_trace import (
    RecordMismatch,
    api_name,
    host_spans,
    map_stream_ids,
    run_device_records,
    trace_from_cupti,
)
from overlapviz.core.config import HostMemory, PipelineConfig, StreamKind
from overlapviz.core.trace.meta import TraceMeta
from overlapviz.core.trace.spans import MemoryKind, OpKind, Unit
from tests.backends.cupy.fakes import THREAD, US, fake_records, planned_ops

MIB = 1 << 20
META = TraceMeta(backend="cupy", device_facts={"copy_engines": 3})


def config(**changes):
    return PipelineConfig(size_bytes=8 * MIB, chunks=4, streams=2, **changes)


def convert(cfg, **fake):
    plan = planned_ops(cfg)
    apis, devices = fake_records(plan, chunk_bytes=cfg.chunk_bytes, **fake)
    return plan, apis, devices, trace_from_cupti(plan, apis, devices, cfg, META)


def test_one_row_per_op_in_issue_order_with_kind_unit_stream_chunk():
    cfg = config()
    plan, _, _, trace = convert(cfg)
    device = np.flatnonzero(trace.device_mask)
    assert device.tolist() == list(range(len(plan)))
    assert trace["kind"][device].tolist() == [op.kind for op in plan]
    assert trace["stream"][device].tolist() == [op.stream for op in plan]
    assert trace["chunk"][device].tolist() == [op.chunk for op in plan]
    units = {OpKind.H2D: Unit.H2D_ENGINE, OpKind.KERNEL: Unit.COMPUTE, OpKind.D2H: Unit.D2H_ENGINE}
    assert trace["unit"][device].tolist() == [units[op.kind] for op in plan]
    assert trace.meta.timing == "cupti"


def test_times_are_the_hardware_times_shifted_to_the_first_call():
    cfg = config()
    _, apis, devices, trace = convert(cfg)
    origin = apis[0].start_ns
    assert trace["start_ns"][0] == devices[0].start_ns - origin
    assert trace["end_ns"][5] == devices[5].end_ns - origin
    assert trace["enqueue_ns"][0] == 0  # the first call's start


def test_enqueue_is_the_issuing_calls_start_and_ready_waits_for_the_stream():
    cfg = config()
    _, apis, devices, trace = convert(cfg)
    origin = apis[0].start_ns
    kernel0 = 1  # depth order: h2d c0, kernel c0, ...
    assert trace["enqueue_ns"][kernel0] == apis[kernel0].start_ns - origin
    # the kernel's stream reached it when its H2D finished (after the call was made)
    assert trace["ready_ns"][kernel0] == devices[0].end_ns - origin
    assert (trace["ready_ns"][:12] <= trace["start_ns"][:12]).all()
    assert (trace["enqueue_ns"][:12] <= trace["ready_ns"][:12]).all()


def test_bytes_and_memory_come_from_the_copy_records():
    cfg = config()
    _, _, _, trace = convert(cfg)
    h2d = trace.mask(OpKind.H2D)
    assert (trace["bytes"][h2d] == cfg.chunk_bytes).all()
    assert (trace["memory"][h2d] == MemoryKind.PINNED).all()
    assert (trace["memory"][trace.mask(OpKind.KERNEL)] == MemoryKind.NONE).all()


def test_pageable_and_registered_copies_are_labelled():
    _, _, _, pageable = convert(config(memory=HostMemory.PAGEABLE), host_kind=CuptiMemory.PAGEABLE)
    assert (pageable["memory"][pageable.mask(OpKind.D2H)] == MemoryKind.PAGEABLE).all()
    _, _, _, registered = convert(config(memory=HostMemory.REGISTERED))
    assert (registered["memory"][registered.mask(OpKind.H2D)] == MemoryKind.REGISTERED).all()


def test_host_spans_link_to_the_op_they_issued_and_the_sync_to_none():
    cfg = config()
    plan, _, _, trace = convert(cfg)
    api = np.flatnonzero(trace.mask(OpKind.API))
    assert len(api) == len(plan) + 1
    assert (trace["unit"][api] == Unit.HOST).all()
    assert trace["op"][api].tolist() == [*range(len(plan)), -1]
    assert trace.name_of(int(api[0])) == "cudaMemcpyAsync"
    assert trace.name_of(int(api[1])) == "cuLaunchKernel"
    assert trace.name_of(int(api[-1])) == "cudaDeviceSynchronize"
    assert trace["chunk"][api[:3]].tolist() == [0, 0, 0]


def test_kernel_name_is_cuptis_and_copies_are_named_by_direction():
    _, _, _, trace = convert(config())
    assert trace.name_of(0) == "memcpy HtoD"
    assert trace.name_of(1) == "fma_chain"
    assert trace.name_of(2) == "memcpy DtoH"


def test_records_of_other_work_are_left_out():
    cfg = config()
    plan = planned_ops(cfg)
    apis, devices = fake_records(plan, chunk_bytes=cfg.chunk_bytes)
    warm_up = DeviceRecord(OpKind.H2D, apis[0].start_ns - 50 * US, apis[0].start_ns - 40 * US, 7, 13, nbytes=4)
    trace = trace_from_cupti(plan, apis, [warm_up, *devices], cfg, META)
    assert len(np.flatnonzero(trace.device_mask)) == len(plan)


def test_a_missing_record_is_an_error_not_a_shorter_trace():
    cfg = config()
    plan = planned_ops(cfg)
    apis, devices = fake_records(plan, chunk_bytes=cfg.chunk_bytes)
    with pytest.raises(RecordMismatch, match="11 copies and kernels for 12 issued ops"):
        trace_from_cupti(plan, apis, devices[:-1], cfg, META)


def test_a_record_of_the_wrong_kind_is_an_error():
    cfg = config()
    plan = planned_ops(cfg)
    apis, devices = fake_records(plan, chunk_bytes=cfg.chunk_bytes)
    devices[1] = dataclasses.replace(devices[1], kind=OpKind.D2H)
    with pytest.raises(RecordMismatch, match="op 1 was issued as kernel but CUPTI recorded d2h"):
        trace_from_cupti(plan, apis, devices, cfg, META)


def test_device_records_sorted_by_correlation_id():
    cfg = config()
    plan = planned_ops(cfg)
    apis, devices = fake_records(plan, chunk_bytes=cfg.chunk_bytes)
    ordered = run_device_records(reversed(devices), apis)
    assert [d.correlation_id for d in ordered] == sorted(d.correlation_id for d in devices)


def test_stream_ids_map_by_issue_order():
    cfg = config()
    plan = planned_ops(cfg)
    _, devices = fake_records(plan, stream_ids={0: 77, 1: 21})
    assert map_stream_ids(plan, run_device_records(devices, fake_records(plan)[0])) == {77: 0, 21: 1}


def test_one_cupti_stream_for_two_streams_is_an_error():
    cfg = config()
    plan = planned_ops(cfg)
    apis, devices = fake_records(plan, stream_ids={0: 5, 1: 5})
    with pytest.raises(RecordMismatch, match="CUPTI stream 5 carried ops of streams 0 and 1"):
        map_stream_ids(plan, run_device_records(devices, apis))


def test_two_cupti_streams_for_one_stream_is_an_error():
    cfg = config(stream_kind=StreamKind.LEGACY)
    plan = planned_ops(cfg)
    apis, devices = fake_records(plan)
    devices[3] = dataclasses.replace(devices[3], stream_id=99)
    with pytest.raises(RecordMismatch, match="several CUPTI streams"):
        map_stream_ids(plan, run_device_records(devices, apis))


def test_legacy_stream_maps_to_stream_zero():
    _, _, _, trace = convert(config(stream_kind=StreamKind.LEGACY))
    assert set(trace["stream"][trace.device_mask].tolist()) == {0}


def test_nested_driver_call_inside_a_runtime_call_is_dropped():
    outer = ApiRecord("cudaMemcpyAsync_v3020", 100, 200, 5, THREAD, True)
    inner = ApiRecord("cuMemcpyAsync", 110, 190, 5, THREAD, False)
    sync = ApiRecord("cudaDeviceSynchronize_v3020", 300, 400, 9, THREAD, True)
    other_thread = ApiRecord("cudaDeviceSynchronize_v3020", 300, 400, 10, 1, True)
    unrelated = ApiRecord("cudaGetDevice_v3020", 210, 211, 8, THREAD, True)
    kept = host_spans([inner, outer, sync, other_thread, unrelated], linked={5}, threads={THREAD})
    assert kept == [outer, sync]


def test_api_name_drops_the_abi_version():
    assert api_name("cudaMemcpyAsync_v3020") == "cudaMemcpyAsync"
    assert api_name("cuLaunchKernel") == "cuLaunchKernel"


def test_one_copy_engine_puts_both_directions_on_it():
    cfg = config()
    plan = planned_ops(cfg, copy_engines=1)
    apis, devices = fake_records(plan, chunk_bytes=cfg.chunk_bytes)
    trace = trace_from_cupti(plan, apis, devices, cfg, TraceMeta(device_facts={"copy_engines": 1}))
    copies = trace.mask(OpKind.H2D, OpKind.D2H)
    assert (trace["unit"][copies] == Unit.COPY_ENGINE).all()


def test_host_steps_become_host_spans_of_no_op():
    cfg = config()
    plan = planned_ops(cfg)
    apis, devices = fake_records(plan, chunk_bytes=cfg.chunk_bytes)
    start = apis[0].start_ns - 50 * US
    steps = [HostStep("cudaMallocHost", start, start + 40 * US)]
    trace = trace_from_cupti(plan, apis, devices, cfg, META, host_steps=steps)
    row = len(trace) - 1
    assert trace.name_of(row) == "cudaMallocHost" and trace["op"][row] == -1
    assert trace["start_ns"][row] == 0 and trace["end_ns"][row] == 40 * US  # the earliest time is the origin

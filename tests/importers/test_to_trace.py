import json

import numpy as np
import pytest

from overlapviz.core.analysis.metrics import compute_metrics, host_blocked_per_row
from overlapviz.core.trace.spans import MemoryKind, OpKind, Unit
from overlapviz.importers.activity import Activities, ActivityKind, CopyKind, HostMemory, empty_columns
from overlapviz.importers.keys import correlation_keys
from overlapviz.importers.kineto import read_kineto
from overlapviz.importers.to_trace import EmptyTraceError, activities_to_trace
from tests.importers.kineto_files import RANKS, others_activities_of, others_document_of
from tests.importers.kineto_files import activities_of as kineto_activities_of
from tests.importers.nsys_files import UVM
from tests.importers.nsys_files import activities_of as nsys_activities_of

NAMES = ("cudaMemcpyAsync", "Memcpy HtoD (Pageable -> Device)", "kernel_a", "cudaLaunchKernel",
         "Memcpy DtoH (Device -> Pinned)", "cudaStreamSynchronize", "chunk 0", "Memset (Device)")


def activities(rows):
    """rows: dicts of column values; missing columns stay unknown."""
    columns = empty_columns(len(rows))
    for i, row in enumerate(rows):
        for name, value in row.items():
            columns[name][i] = value
    return Activities(columns, NAMES, {"tool": "PyTorch profiler", "devices": {0: "NVIDIA H200"}, "source": "t.json"})


def copy(start, end, stream, correlation, kind=CopyKind.H2D, src=HostMemory.PAGEABLE, dst=HostMemory.DEVICE, name=1):
    return {"kind": ActivityKind.MEMCPY, "start_ns": start, "end_ns": end, "device": 0, "stream": stream,
            "correlation": correlation, "bytes": 1000, "copy_kind": kind, "src_memory": src, "dst_memory": dst,
            "name": name}


def call(start, end, correlation, name=0):
    return {"kind": ActivityKind.RUNTIME, "start_ns": start, "end_ns": end, "thread": 7, "correlation": correlation,
            "name": name}


SIMPLE = [
    call(1000, 5000, 11),
    copy(2000, 5000, stream=7, correlation=11),  # pageable: the call returns when the copy is done
    call(5100, 5200, 12, name=3),
    {"kind": ActivityKind.KERNEL, "start_ns": 5300, "end_ns": 8000, "device": 0, "stream": 7, "correlation": 12,
     "name": 2},
    call(8100, 8200, 13),
    copy(8300, 9000, stream=9, correlation=13, kind=CopyKind.D2H, src=HostMemory.DEVICE, dst=HostMemory.PINNED,
         name=4),
    call(9000, 9100, -1, name=5),
]


def test_copies_kernels_and_calls_become_the_trace_the_metrics_read():
    trace = activities_to_trace(activities(SIMPLE))
    kinds = [OpKind(int(k)) for k in trace["kind"]]
    assert kinds[:3] == [OpKind.H2D, OpKind.KERNEL, OpKind.D2H] and kinds[3:] == [OpKind.API] * 4
    assert list(trace["unit"][:3]) == [Unit.H2D_ENGINE, Unit.COMPUTE, Unit.D2H_ENGINE]
    assert list(trace["stream"][:3]) == [0, 0, 1]  # the tool's ids 7 and 9, numbered as they appear
    assert list(trace["memory"][:3]) == [MemoryKind.PAGEABLE, MemoryKind.NONE, MemoryKind.PINNED]
    assert list(trace["op"][3:]) == [0, 1, 2, -1]  # each call points at its op; the sync at nothing
    assert trace["start_ns"].min() == 0  # shifted to the first record
    assert trace.name_of(1) == "kernel_a" and trace.meta.device_name == "NVIDIA H200"


def test_an_op_is_ready_when_both_its_call_and_its_stream_have_handed_it_over():
    trace = activities_to_trace(activities(SIMPLE))
    # the kernel's call ran 5100-5200, the copy before it on its stream ended at 5000: ready at 5200
    assert trace["ready_ns"][1] == 5200 - 1000
    assert trace["enqueue_ns"][1] == 5100 - 1000
    # the pageable copy's call returned only after the copy: ready when the copy could start
    assert trace["ready_ns"][0] == 2000 - 1000


def test_the_host_blocked_in_a_pageable_copy_is_measured_from_the_imported_links():
    trace = activities_to_trace(activities(SIMPLE))
    assert host_blocked_per_row(trace)[3] == 3000  # the call ran on 3000 ns while its copy did
    assert compute_metrics(trace).host_blocked_ns == 3000


def test_memsets_copies_on_the_device_migrations_and_ranges_are_kinds_of_their_own():
    rows = [*SIMPLE, {"kind": ActivityKind.MEMSET, "start_ns": 1, "end_ns": 2, "device": 0, "stream": 7, "name": 7},
            copy(10, 20, 0, -1, kind=CopyKind.UVM_H2D), copy(30, 40, 7, -1, kind=CopyKind.D2D),
            copy(50, 60, 9, -1, kind=CopyKind.PEER),
            {"kind": ActivityKind.ANNOTATION, "start_ns": 0, "end_ns": 9000, "thread": 7, "name": 6}]
    trace = activities_to_trace(activities(rows))
    columns = zip(trace["kind"], trace["unit"], trace["stream"], strict=True)
    kinds = {OpKind(int(k)): (Unit(int(u)), int(s)) for k, u, s in columns}
    assert kinds[OpKind.MEMSET] == (Unit.MEMSET, 0)
    assert kinds[OpKind.MIGRATION] == (Unit.MIGRATION, -1)  # the driver's, on no stream of the program's
    assert kinds[OpKind.D2D] == (Unit.DEVICE_COPY, 0) and kinds[OpKind.PEER] == (Unit.DEVICE_COPY, 1)
    ranges = trace.mask(OpKind.ANNOTATION)
    assert ranges.sum() == 1 and trace["thread"][ranges].tolist() == [7]
    assert trace.name_of(int(ranges.argmax())) == "chunk 0"
    assert trace.meta.not_shown == {}
    # none of them is a copy between host and device for the metrics
    assert compute_metrics(trace).busy_ns["h2d"] == 3000 and compute_metrics(trace).busy_ns["d2h"] == 700


def test_what_is_not_shown_is_counted():
    rows = [*SIMPLE, copy(30, 40, 7, -1, kind=CopyKind.H2H),
            {"kind": ActivityKind.ANNOTATION, "start_ns": 0, "end_ns": 9000, "device": 0, "on_device": 1, "name": 6}]
    trace = activities_to_trace(activities(rows))
    assert len(trace) == len(SIMPLE)
    assert trace.meta.not_shown == {"host-to-host copies": 1, "annotation ranges as the GPU ran them": 1}


def test_a_profile_without_copies_or_kernels_is_refused_with_words():
    with pytest.raises(EmptyTraceError, match="no copy, memset or kernel to show"):
        activities_to_trace(activities([call(0, 10, 1)]))


def test_each_span_keeps_its_gpu_and_host_thread():
    rows = [dict(row) for row in SIMPLE]
    rows[1]["device"] = 2  # the pageable copy ran on GPU 2
    trace = activities_to_trace(activities(rows))
    assert trace["device"][:3].tolist() == [2, 0, 0]
    assert trace["thread"][:3].tolist() == [7, 7, 7]  # each op has the thread of the call that issued it
    assert trace["thread"][3:].tolist() == [7, 7, 7, 7]
    assert trace["device"][3:].tolist() == [2, 0, 0, -1]  # the sync issued nothing: no GPU


def test_the_real_training_step_has_two_host_threads():
    trace = activities_to_trace(kineto_activities_of("torch-train-step.json.gz"))
    calls = trace["kind"] == OpKind.API
    # the main thread, and autograd's own thread that runs the backward pass (Kineto's tids)
    assert sorted(set(trace["thread"][calls].tolist())) == [676, 720]
    assert set(trace["device"][trace.device_mask].tolist()) == {0}


def test_real_memsets_and_migrations_are_their_own_kinds():
    step = activities_to_trace(kineto_activities_of("torch-train-step.json.gz"))
    assert int(step.mask(OpKind.MEMSET).sum()) == 12 and set(step["unit"][step.mask(OpKind.MEMSET)]) == {Unit.MEMSET}
    uvm = activities_to_trace(nsys_activities_of(UVM))
    migrations = uvm.mask(OpKind.MIGRATION)
    assert int(migrations.sum()) == 67 and set(uvm["stream"][migrations]) == {-1}
    assert int(uvm.mask(OpKind.H2D).sum()) == 4 and int(uvm.mask(OpKind.D2H).sum()) == 3  # the program's own copies


def in_process(rows, process):
    return [{**row, "process": process} for row in rows]


def test_two_processes_keep_their_own_streams_and_correlation_ids():
    # two ranks, each with a stream 7 and correlation ids 11-13 of its own, on GPUs 0 and 1 alike
    second = [{**row, "start_ns": row["start_ns"] + 50} for row in SIMPLE]
    trace = activities_to_trace(activities([*in_process(SIMPLE, 100), *in_process(second, 200)]))
    device = trace.device_mask
    assert sorted(trace["stream"][device].tolist()) == [0, 0, 1, 1, 2, 3]  # 7 and 9 of each process: four
    calls = np.flatnonzero(trace.mask(OpKind.API) & (trace["op"] >= 0))
    # each call points at the op of its own process (the other's starts 50 ns earlier or later)
    shift = trace["start_ns"][trace["op"][calls]] - trace["start_ns"][calls]
    assert sorted(shift.tolist()) == [200, 200, 200, 200, 1000, 1000]


def test_the_same_stream_id_on_two_gpus_is_two_streams():
    rows = [dict(row) for row in SIMPLE]
    rows[3]["device"] = 1  # the kernel on stream 7 of GPU 1, the copy on stream 7 of GPU 0
    trace = activities_to_trace(activities(rows))
    assert trace["stream"][:3].tolist() == [0, 1, 2]
    assert trace["ready_ns"][1] == 5200 - 1000  # nothing of GPU 0's stream 7 before it


def test_correlation_keys_pair_process_and_id():
    rows = [call(0, 1, 5), call(0, 1, 5), call(0, 1, 6), call(0, 1, -1)]
    a = activities([*in_process(rows[:1], 1), *in_process(rows[1:], 2)])
    keys = correlation_keys(a, np.arange(4))
    assert keys[0] != keys[1] and len(set(keys[:3].tolist())) == 3 and keys[3] == -1


def issue_lags(trace, device):
    """How long after its call began each op of a GPU started, sorted: which call issued it, whatever the origin."""
    ops = trace.device_mask & (trace["device"] == device) & (trace["enqueue_ns"] >= 0)
    return sorted((trace["start_ns"][ops] - trace["enqueue_ns"][ops]).tolist())


def test_two_real_ranks_in_one_file_keep_their_streams_and_their_own_calls():
    # two ranks of one job (processes 4037 and 4045, GPUs 0 and 1, streams 7, 23, 25, 84 and 203
    # each, five correlation ids in common) put in one file, as tools that merge rank traces do
    documents = [others_document_of(name) for name in RANKS]
    merged = {**documents[0], "traceEvents": documents[0]["traceEvents"] + documents[1]["traceEvents"]}
    trace = activities_to_trace(read_kineto(json.dumps(merged).encode(), "two-ranks.json"))
    assert len(set(trace["stream"][trace.device_mask].tolist())) == 10  # each rank's stream 7 a lane of its own
    for device, name in enumerate(RANKS):
        alone = activities_to_trace(others_activities_of(name))
        ops = trace.device_mask & (trace["device"] == device)
        assert len(set(trace["stream"][ops].tolist())) == len(set(alone["stream"][alone.device_mask].tolist())) == 5
        assert issue_lags(trace, device) == issue_lags(alone, device)  # each op linked to its own rank's call
        assert sorted(trace["thread"][ops].tolist()) == sorted(alone["thread"][alone.device_mask].tolist())

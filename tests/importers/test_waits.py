"""Waits the program recorded (cudaStreamWaitEvent) make an op ready no sooner than the work it waited for."""

import numpy as np

from overlapviz.core.trace.spans import OpKind
from overlapviz.importers.activity import ActivityKind
from overlapviz.importers.to_trace import activities_to_trace
from overlapviz.importers.waits import UNRESOLVED, awaited_ns
from tests.importers.kineto_files import activities_of, others_activities_of
from tests.importers.test_to_trace import activities, call

STREAM_WAIT_EVENT = "Stream Wait Event"


def held(a):
    """`awaited_ns` of the device ops of `a`, sorted by start, with those ops' starts."""
    trace_of = activities_to_trace(a)
    ops = np.flatnonzero(a.mask(ActivityKind.MEMCPY, ActivityKind.MEMSET, ActivityKind.KERNEL))
    ops = ops[np.argsort(a["start_ns"][ops], kind="stable")]
    enqueue = trace_of["enqueue_ns"][trace_of.device_mask]
    origin = int(a["start_ns"][ops].min() - trace_of["start_ns"][trace_of.device_mask].min())
    enqueue[enqueue >= 0] += origin  # back on the file's clock, as the waits are
    return awaited_ns(a, ops, trace_of["stream"][trace_of.device_mask], enqueue), a["start_ns"][ops]


def test_resolved_waits_of_a_real_trace_end_before_the_ops_they_held_started():
    # HTA's AlexNet run with CUDA sync events: Kineto names both streams and the event record
    awaited, start = held(others_activities_of("hta-alexnet-stream-wait.json.gz"))
    resolved = (awaited >= 0) & (awaited != UNRESOLVED)
    assert resolved.sum() == 4 and (awaited == UNRESOLVED).sum() == 4
    assert (awaited[resolved] <= start[resolved]).all()  # the GPU kept the waits the trace resolved


def test_without_sync_events_each_op_after_a_wait_is_ready_only_when_it_started():
    a = activities_of("torch-wait-stream.json.gz")  # 16 cudaStreamWaitEvent, no stream named
    awaited, _ = held(a)
    assert (awaited == UNRESOLVED).sum() >= 16 and set(awaited[awaited >= 0].tolist()) == {UNRESOLVED}
    trace = activities_to_trace(a)
    ops = np.flatnonzero(trace.device_mask)
    assert (trace["ready_ns"][ops] <= trace["start_ns"][ops]).all()


def kernel(start, end, stream, correlation):
    return {"kind": ActivityKind.KERNEL, "start_ns": start, "end_ns": end, "device": 0, "stream": stream,
            "correlation": correlation, "name": 2}  # fmt: skip


def stream_wait(correlation, stream, on_stream=-1, record=-1):
    return {"kind": ActivityKind.SYNC, "start_ns": 0, "end_ns": 0, "device": 0, "stream": stream,
            "correlation": correlation, "wait_stream": on_stream, "wait_record": record, "name": 5}  # fmt: skip


def waiting(*sync_rows, wait_name="cudaStreamWaitEvent"):
    """Stream 1 runs two kernels (to 5000 and to 9000); an event is recorded after the first; stream 2
    waits for it, then a kernel of its is issued at 4000, and starts at 9500."""
    rows = [call(100, 200, 1, name=3), kernel(1000, 5000, 1, 1),
            call(300, 400, 2, name=6),  # the event record
            call(500, 600, 3, name=3), kernel(5000, 9000, 1, 3),
            call(700, 800, 4, name=7),  # the wait
            call(4000, 4100, 5, name=3), kernel(9500, 9600, 2, 5), *sync_rows]  # fmt: skip
    names = ("", "", "k", "cudaLaunchKernel", "", STREAM_WAIT_EVENT, "cudaEventRecord", wait_name)
    a = activities(rows)
    return type(a)(a.columns, names, a.meta)


def test_a_resolved_wait_makes_the_op_ready_when_the_awaited_work_ended():
    trace = activities_to_trace(waiting(stream_wait(4, stream=2, on_stream=1, record=2)))
    last = int(np.flatnonzero(trace.mask(OpKind.KERNEL))[-1])
    assert trace["ready_ns"][last] == 5000 - 100  # the first kernel of stream 1, issued before the record


def test_a_wait_of_unknown_streams_or_work_leaves_the_op_ready_only_at_its_start():
    for sync_rows in ((), (stream_wait(4, stream=2),)):
        trace = activities_to_trace(waiting(*sync_rows))
        last = int(np.flatnonzero(trace.mask(OpKind.KERNEL))[-1])
        assert trace["ready_ns"][last] == trace["start_ns"][last] == 9500 - 100


def test_without_a_wait_the_op_is_ready_when_its_call_handed_it_over():
    trace = activities_to_trace(waiting(wait_name="cudaStreamQuery"))
    last = int(np.flatnonzero(trace.mask(OpKind.KERNEL))[-1])
    assert trace["ready_ns"][last] == 4100 - 100

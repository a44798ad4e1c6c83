import numpy as np
from tracefactory import pipeline_trace

from overlapviz.core.analysis.many_streams import arrange_streams, lane_covered_ns
from overlapviz.core.trace.lanes import Lane, LaneGroup, lane_rows, lanes_of
from overlapviz.core.trace.meta import TraceMeta
from overlapviz.core.trace.spans import OpKind, TraceBuilder, Unit


def test_lanes_of_a_pipeline_on_two_copy_engines():
    lanes = lanes_of(pipeline_trace(8, 4))
    assert [lane.key for lane in lanes] == [
        "host", "stream-0", "stream-1", "stream-2", "stream-3",
        "unit-h2d-engine", "unit-compute", "unit-d2h-engine",
    ]
    assert [lane.title for lane in lanes] == [
        "Host thread", "Stream 0", "Stream 1", "Stream 2", "Stream 3", "H2D engine", "Compute", "D2H engine",
    ]
    assert [lane.group for lane in lanes] == [LaneGroup.HOST] + [LaneGroup.STREAMS] * 4 + [LaneGroup.HARDWARE] * 3
    assert [lane.stream for lane in lanes[1:5]] == [0, 1, 2, 3]
    assert [lane.unit for lane in lanes[5:]] == [Unit.H2D_ENGINE, Unit.COMPUTE, Unit.D2H_ENGINE]


def test_one_copy_engine_gives_one_copy_lane():
    lanes = lanes_of(pipeline_trace(4, 2, copy_engines=1))
    hardware = [lane.title for lane in lanes if lane.group is LaneGroup.HARDWARE]
    assert hardware == ["Copy engine", "Compute"]


def test_only_streams_present_get_a_lane():
    # 2 chunks on 4 configured streams: streams 2 and 3 carry nothing
    lanes = lanes_of(pipeline_trace(2, 4))
    assert [lane.key for lane in lanes if lane.group is LaneGroup.STREAMS] == ["stream-0", "stream-1"]


def test_the_legacy_stream_is_titled_as_such():
    streams = [lane for lane in lanes_of(pipeline_trace(4, 4, legacy=True)) if lane.group is LaneGroup.STREAMS]
    assert [lane.title for lane in streams] == ["Legacy default stream"]


def test_an_empty_trace_has_only_the_host_lane():
    trace = TraceBuilder().build(TraceMeta())
    lanes = lanes_of(trace)
    assert [lane.key for lane in lanes] == ["host"]
    assert lane_rows(trace, lanes[0]).size == 0


def test_a_trace_without_host_spans_keeps_an_empty_host_lane():
    trace = pipeline_trace(4, 2, host=False)
    host = lanes_of(trace)[0]
    assert host.group is LaneGroup.HOST
    assert lane_rows(trace, host).size == 0


def test_every_device_op_is_in_one_stream_lane_and_one_unit_lane():
    trace = pipeline_trace(8, 3)
    lanes = lanes_of(trace)
    device = set(np.flatnonzero(trace.device_mask).tolist())
    for group in (LaneGroup.STREAMS, LaneGroup.HARDWARE):
        rows = [r for lane in lanes if lane.group is group for r in lane_rows(trace, lane).tolist()]
        assert sorted(rows) == sorted(device)
    host = lane_rows(trace, lanes[0]).tolist()
    assert host == sorted(np.flatnonzero(trace["kind"] == OpKind.API).tolist(), key=lambda r: trace["start_ns"][r])


def test_lane_rows_select_by_stream_and_unit_sorted_by_start():
    builder = TraceBuilder()
    late = builder.add(OpKind.KERNEL, Unit.COMPUTE, 50, 60, name="k", stream=1, chunk=1)
    early = builder.add(OpKind.KERNEL, Unit.COMPUTE, 10, 20, name="k", stream=0, chunk=0)
    copy = builder.add(OpKind.H2D, Unit.H2D_ENGINE, 0, 10, name="h2d", stream=1, chunk=1)
    same_start = builder.add(OpKind.KERNEL, Unit.COMPUTE, 10, 15, name="k", stream=1, chunk=2)
    trace = builder.build(TraceMeta())
    lanes = {lane.key: lane for lane in lanes_of(trace)}
    assert lane_rows(trace, lanes["stream-1"]).tolist() == [copy, same_start, late]
    assert lane_rows(trace, lanes["stream-0"]).tolist() == [early]
    assert lane_rows(trace, lanes["unit-compute"]).tolist() == [early, same_start, late]
    assert lane_rows(trace, lanes["unit-h2d-engine"]).tolist() == [copy]


def test_a_lane_built_by_hand_selects_the_same_rows():
    trace = pipeline_trace(4, 2)
    lane = Lane(key="mine", title="Mine", group=LaneGroup.STREAMS, unit=None, stream=1)
    rows = lane_rows(trace, lane)
    assert rows.size == 6
    assert (trace["stream"][rows] == 1).all()
    assert (np.diff(trace["start_ns"][rows]) >= 0).all()


# --- several GPUs, several host threads, annotations -------------------------------------


def two_gpus_two_threads():
    b = TraceBuilder()
    for device, thread in ((0, 11), (1, 22)):
        op = b.add(OpKind.H2D, Unit.H2D_ENGINE, 10, 20, name="h2d", stream=device, device=device, thread=thread)
        b.add(OpKind.API, Unit.HOST, 0, 5 + device, name="cudaMemcpyAsync", op=op, device=device, thread=thread)
        b.add(OpKind.KERNEL, Unit.COMPUTE, 20, 30, name="k", stream=device, device=device, thread=thread)
    b.add(OpKind.PEER, Unit.DEVICE_COPY, 30, 40, name="Memcpy PtoP (Device -> Device)", stream=1, device=1)
    b.add(OpKind.ANNOTATION, Unit.HOST, 0, 50, name="step 0", thread=11, device=-1)
    return b.build(TraceMeta())


def test_each_gpu_has_its_group_and_each_host_thread_its_lane():
    trace = two_gpus_two_threads()
    lanes = lanes_of(trace)
    assert [lane.title for lane in lanes] == [
        "Host thread 11", "Host thread 22", "Annotations",
        "GPU 0: Stream 0", "GPU 0: H2D engine", "GPU 0: Compute",
        "GPU 1: Stream 1", "GPU 1: H2D engine", "GPU 1: Compute", "GPU 1: Peer / D2D copies",
    ]  # fmt: skip
    assert len({lane.key for lane in lanes}) == len(lanes)
    assert [lane.device for lane in lanes[3:]] == [0, 0, 0, 1, 1, 1, 1]
    rows = {lane.key: lane_rows(trace, lane).tolist() for lane in lanes}
    assert rows["host-11"] == [1] and rows["host-22"] == [4]
    assert rows["gpu1-unit-compute"] == [5] and rows["gpu1-unit-device-copy"] == [6]
    assert rows["annotations"] == [7]


def test_one_gpu_and_one_thread_keep_the_lanes_they_always_had():
    b = TraceBuilder()
    op = b.add(OpKind.KERNEL, Unit.COMPUTE, 10, 20, name="k", stream=0, device=3, thread=676)
    b.add(OpKind.API, Unit.HOST, 0, 5, name="cudaLaunchKernel", op=op, device=3, thread=676)
    lanes = lanes_of(b.build(TraceMeta()))
    assert [(lane.key, lane.title) for lane in lanes] == [
        ("host", "Host thread"), ("stream-0", "Stream 0"), ("unit-compute", "Compute")
    ]


def test_streams_a_file_names_as_the_legacy_default_stream_say_so():
    b = TraceBuilder()
    for stream in (0, 1):
        b.add(OpKind.KERNEL, Unit.COMPUTE, 10, 20, name="k", stream=stream)
    titles = [lane.title for lane in lanes_of(b.build(TraceMeta(legacy_streams=(1,))))]
    assert titles == ["Host thread", "Stream 0", "Legacy default stream", "Compute"]


# --- hundreds of streams -------------------------------------------------------------------


def many_streams(count, busy_streams=(), *, device=0):
    """`count` streams each with a 1 ns kernel over a 10 µs run; `busy_streams` run 5 µs instead."""
    b = TraceBuilder()
    b.add(OpKind.KERNEL, Unit.COMPUTE, 0, 10_000, name="first", stream=0, device=device)
    for stream in range(1, count):
        length = 5_000 if stream in busy_streams else 1
        b.add(OpKind.KERNEL, Unit.COMPUTE, 100, 100 + length, name=f"kernel_{stream}", stream=stream, device=device)
    return b.build(TraceMeta())


def test_a_few_streams_are_only_sorted_busiest_first():
    trace = many_streams(4, busy_streams=(2,))
    arranged = arrange_streams(trace, lanes_of(trace))
    assert [lane.key for lane in arranged] == ["host", "stream-0", "stream-2", "stream-1", "stream-3", "unit-compute"]


def test_hundreds_of_quiet_streams_fold_into_one_lane_with_all_their_spans():
    trace = many_streams(300, busy_streams=(7, 250))
    lanes = lanes_of(trace)
    arranged = arrange_streams(trace, lanes)
    streams = [lane for lane in arranged if lane.group is LaneGroup.STREAMS]
    assert [lane.title for lane in streams] == ["Stream 0", "Stream 7", "Stream 250", "297 quiet streams"]
    folded = streams[-1]
    assert folded.stream is None and len(folded.streams) == 297 and 7 not in folded.streams
    assert lane_rows(trace, folded).size == 297
    assert lane_covered_ns(trace, streams[1]) == 5_000
    assert [lane.key for lane in arranged if lane.group is not LaneGroup.STREAMS] == ["host", "unit-compute"]


def test_a_text_keeps_the_streams_whose_title_or_spans_hold_it():
    trace = many_streams(300, busy_streams=(7,))
    arranged = arrange_streams(trace, lanes_of(trace), text="KERNEL_250")
    assert [lane.title for lane in arranged if lane.group is LaneGroup.STREAMS] == ["Stream 250"]
    by_title = arrange_streams(trace, lanes_of(trace), text="stream 299")
    assert [lane.title for lane in by_title if lane.group is LaneGroup.STREAMS] == ["Stream 299"]
    assert [lane.key for lane in arrange_streams(trace, lanes_of(trace), text="no such")] == ["host", "unit-compute"]


def test_each_gpu_folds_its_own_streams():
    b = TraceBuilder()
    for device in (0, 1):
        b.add(OpKind.KERNEL, Unit.COMPUTE, 0, 10_000, name="long", stream=100 * device, device=device)
        for stream in range(1, 20):
            b.add(OpKind.KERNEL, Unit.COMPUTE, 0, 1, name="tiny", stream=100 * device + stream, device=device)
    trace = b.build(TraceMeta())
    streams = [lane for lane in arrange_streams(trace, lanes_of(trace)) if lane.group is LaneGroup.STREAMS]
    assert [lane.title for lane in streams] == [
        "GPU 0: Stream 0", "GPU 0: 19 quiet streams", "GPU 1: Stream 100", "GPU 1: 19 quiet streams"
    ]
    assert len({lane.key for lane in streams}) == 4

import numpy as np
from tracefactory import pipeline_trace

from overlapviz.core.lanes import Lane, LaneGroup, lane_rows, lanes_of
from overlapviz.core.trace import OpKind, TraceBuilder, Unit
from overlapviz.core.trace_meta import TraceMeta


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

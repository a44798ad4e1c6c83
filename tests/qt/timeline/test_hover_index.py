import numpy as np
from qt_traces import MS, two_chunk_trace

from overlapviz.core.trace.lanes import LaneGroup
from overlapviz.view.hover_index import SortedSpans
from overlapviz.view.layout import layout_lanes
from overlapviz.view.prepared import prepare_trace


def _spans(starts, ends):
    return SortedSpans.of(np.arange(len(starts)), starts, ends)


def test_finds_the_span_that_covers_an_instant():
    spans = _spans([0, 10, 20], [5, 15, 25])
    assert spans.at(12) == 1
    assert spans.at(7) is None
    assert spans.at(7, tolerance=3) == 1  # within 3 of the next span's start


def test_overlapping_spans_give_the_latest_start_and_reach_back_past_short_ones():
    spans = _spans([0, 2, 4], [100, 3, 5])  # a long span under two short ones
    assert spans.at(4.5) == 2
    assert spans.at(50) == 0  # found by walking back over spans that ended before 50


def test_an_empty_lane_has_nothing():
    assert _spans([], []).at(3) is None


def _index():
    view = prepare_trace(two_chunk_trace())
    return layout_lanes(view.lanes), view.hover


def test_running_span_in_a_stream_lane():
    layout, index = _index()
    stream1 = layout.lanes_of_group(LaneGroup.STREAMS)[1]
    hit = index.at(stream1.lane.key, 1.5 * MS)
    assert hit is not None and (hit.row, hit.waiting) == (3, False)


def test_waiting_part_of_a_stream_lane():
    layout, index = _index()
    stream1 = layout.lanes_of_group(LaneGroup.STREAMS)[1]
    hit = index.at(stream1.lane.key, 0.5 * MS)  # chunk 1's H2D was ready at 0, ran from 1 ms
    assert hit is not None and (hit.row, hit.waiting) == (3, True)


def test_unit_lanes_do_not_show_waiting_and_headers_hold_nothing():
    layout, index = _index()
    h2d_engine = layout.lanes_of_group(LaneGroup.HARDWARE)[0]
    assert index.at(h2d_engine.lane.key, 0.5 * MS).row == 0
    assert layout.lane_at(layout.groups[1].header_centre) is None
    assert index.at("no-such-lane", 0.5 * MS) is None

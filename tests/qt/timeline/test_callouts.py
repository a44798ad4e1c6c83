from pathlib import Path

import pytest
from PySide6.QtGui import QColor, QFont, QFontInfo
from qt_traces import two_chunk_trace

from overlapviz._qt.export.export_view import ExportOptions
from overlapviz._qt.export.image_export import render_image
from overlapviz._qt.themes import THEMES
from overlapviz._qt.timeline.widget import TimelineWidget
from overlapviz.core.analysis.metrics import host_blocked_per_row
from overlapviz.core.config import PipelineConfig
from overlapviz.core.findings import Finding
from overlapviz.core.trace.lanes import LaneGroup
from overlapviz.importers.read import read_trace_file
from overlapviz.session import analyse, run_pipeline
from overlapviz.view.callouts import callouts_for, merged_segments, rows_per_lane
from overlapviz.view.lane_rows import lanes_with_rows
from overlapviz.view.layout import CALLOUT_HEIGHT, MAX_CALLOUT_SHARE, VIEW_PAD, callout_row_height, layout_lanes
from overlapviz.view.prepared import prepare_trace

FIRST_CLAUSE = "small-copies"  # a rule whose callout is its finding's first clause (`first_clause_callout`)


def _callouts(result):
    return _callouts_of(result, result.findings)


def _callouts_of(result, findings):
    trace = result.trace
    return callouts_for(trace, result.metrics, findings, lanes_with_rows(trace), host_blocked_per_row(trace))


def _model(**changes):
    device = changes.pop("device", "h200")
    return run_pipeline(PipelineConfig(**changes), "sim", device)


@pytest.fixture
def timeline(qtbot):
    widget = TimelineWidget(THEMES["light"])
    qtbot.addWidget(widget)
    widget.resize(1200, 700)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


# --- what the callouts say, and where ---------------------------------------------------------


def test_pageable_copies_get_a_short_callout_over_the_blocked_host_time():
    result = _model(memory="pageable", chunks=8)
    [callout] = _callouts(result)
    assert callout.lane_key == "host" and callout.code == "host-blocked-pageable"
    blocked = result.metrics.host_blocked_ns / 1e6
    assert callout.text == f"host blocked {blocked:.1f} ms in cudaMemcpyAsync: the host buffer is pageable"
    assert len(callout.text) < 80  # a label, not the finding's paragraph
    (start, end), = callout.segments  # the host's blocked stretches, gaps between calls closed
    assert start < 0.05 * result.metrics.makespan_ns and end > 0.95 * result.metrics.makespan_ns


def test_a_run_with_nothing_to_explain_has_no_callouts():
    assert _callouts(_model()) == []


def test_too_few_chunks_brackets_the_fill_and_the_drain_where_they_happen():
    result = analyse(two_chunk_trace())
    fill, drain = [c for c in _callouts(result) if c.code == "too-few-chunks"]
    assert (fill.lane_key, fill.segments) == ("unit-h2d-engine", ((0, 1_000_000),))
    assert (drain.lane_key, drain.segments) == ("unit-d2h-engine", ((3_000_000, 4_000_000),))
    assert fill.text.startswith("fill:") and "2 chunks" in fill.text
    assert drain.text.startswith("drain:") and "2.00 ms" in drain.text


@pytest.mark.parametrize(
    ("changes", "code", "lane", "words"),
    [
        ({"streams": 1}, "single-stream", "stream-0", "one stream: every op waits"),
        ({"stream_kind": "legacy"}, "single-stream", "stream-0", "legacy default stream"),
        ({"iters": 8000}, "kernel-bound", "unit-compute", "compute busy 97%"),
        ({"iters": 0}, "copy-bound", "unit-d2h-engine", "copy-bound: D2H engine busy"),
        ({"order": "breadth"}, "copy-queue", "unit-h2d-engine", "H2D copies queued"),
        ({"chunks": 1024}, "too-many-chunks", "host", "3,072 API calls"),
        ({"host_alloc": "per-run"}, "alloc-per-run", "host", "cudaMallocHost pins every page"),
        ({"memory": "mapped"}, "mapped-memory", "unit-compute", "kernels move 512 MiB across the link"),
        ({"memory": "managed"}, "managed-faults", "unit-compute", "page faults inside the kernels: 16 kernels"),
        ({"memory": "managed-prefetch"}, "prefetch-bound", "unit-h2d-engine", "prefetches set the pace"),
        ({"memory": "staged"}, "staging-host-bound", "host", "the host copies through the ring: 95.0 ms"),
        ({"memory": "write-combined"}, "write-combined-read", "host", "write-combined output back uncached"),
        ({"chunks": 256, "graph": True}, "graph-launch", "host", "in cudaGraphLaunch for 768 ops"),
        ({"gpus": 2, "peer_access": False, "device": "h200x2-nvlink"}, "peer-bound", "gpu0-unit-device-copy",
         "copies between the GPUs ran 89% of the run, at 27.2 GB/s"),
        ({"gpus": 2, "peer_access": False, "device": "h200x2-nvlink"}, "copy-queue", "gpu0-unit-h2d-engine",
         "the GPU 0 H2D engine runs one copy at a time"),
    ],
)
def test_each_finding_code_has_its_own_words_and_lane(changes, code, lane, words):
    callouts = [c for c in _callouts(_model(**changes)) if c.code == code]
    assert callouts, f"no {code} callout"
    assert callouts[0].lane_key == lane
    assert words in callouts[0].text
    assert len(callouts[0].text) <= 100 and not callouts[0].text.endswith("\u2026")  # a label, in full


def test_an_idle_gpu_is_bracketed_where_it_stood_idle_on_the_compute_lane():
    # a real Nsight export whose many unified-memory migrations once drew the brackets over themselves
    data = Path(__file__).resolve().parents[2] / "data" / "nsys" / "clue-2023.2-managed-prefetch.sqlite.gz"
    result = analyse(read_trace_file(data))
    [callout] = [c for c in _callouts(result) if c.code == "gpu-idle"]
    trace = result.trace
    device = trace.device_mask
    assert callout.lane_key == "unit-compute"
    assert callout.text == "GPU idle 303.3 ms, 84% of the run, between its ops"
    assert callout.segments
    for start, end in callout.segments:  # gaps: no device op runs inside one
        inside = (trace["start_ns"][device] < end) & (trace["end_ns"][device] > start)
        assert not inside.any()


def test_a_finding_without_words_of_its_own_gets_its_first_clause_over_the_lane_with_its_spans():
    result = analyse(two_chunk_trace())
    odd = Finding(FIRST_CLAUSE, "Kernels waited for a reason nobody has named yet: more words follow.", (1, 4))
    [callout] = _callouts_of(result, [odd])
    assert callout.text == "Kernels waited for a reason nobody has named yet"
    assert callout.lane_key in {"unit-compute", "stream-0", "stream-1"}


def test_a_first_clause_is_not_the_gpu_that_leads_a_finding_of_several_gpus():
    result = analyse(two_chunk_trace())
    odd = Finding(FIRST_CLAUSE, "GPU 1: Kernels waited for a reason nobody has named yet: more.", (1, 4))
    [callout] = _callouts_of(result, [odd])
    assert callout.text == "Kernels waited for a reason nobody has named yet"


def test_a_first_clause_keeps_its_decimal_numbers_whole():
    result = analyse(two_chunk_trace())
    odd = Finding(FIRST_CLAUSE, "Copies took 95.0 ms (99%): more words follow.", (1, 4))
    [callout] = _callouts_of(result, [odd])
    assert callout.text == "Copies took 95.0 ms (99%)"


def test_a_finding_of_a_code_no_rule_declares_is_a_mistake():
    result = analyse(two_chunk_trace())
    with pytest.raises(KeyError, match="something-new"):
        _callouts_of(result, [Finding("something-new", "Kernels waited: more words follow.", (1, 4))])


def test_a_finding_with_no_spans_draws_nothing():
    result = analyse(two_chunk_trace())
    assert _callouts_of(result, [Finding("x", "words", ())]) == []


def test_segments_merge_across_short_gaps_only():
    assert merged_segments([0, 110, 500], [100, 200, 600], gap_ns=20) == ((0, 200), (500, 600))
    assert merged_segments([0, 110], [100, 200], gap_ns=5) == ((0, 100), (110, 200))


# --- room for them: a row of their own above the lane ---------------------------------------


def test_callout_rows_go_above_their_lane_and_push_the_lanes_below_down():
    trace = two_chunk_trace()
    plain = layout_lanes(lanes_with_rows(trace))
    result = analyse(trace)
    spaced = layout_lanes(lanes_with_rows(trace), callout_rows=rows_per_lane(_callouts(result)))
    assert spaced.height == pytest.approx(plain.height + 3 * CALLOUT_HEIGHT)
    host = spaced.lanes_of_group(LaneGroup.HOST)[0]
    top, bottom = host.callout_row(0)
    assert bottom == pytest.approx(host.top) and top == pytest.approx(host.top - CALLOUT_HEIGHT)
    assert spaced.lane_at((top + bottom) / 2) is None  # no lane (and no span) in a callout row
    with pytest.raises(IndexError, match="1 callout rows"):
        host.callout_row(1)
    assert spaced.callout_rows == 3 and spaced.lanes_height == pytest.approx(plain.height)


@pytest.mark.parametrize(("row_px", "plot_px", "rows"), [(30.0, 800.0, 3), (55.0, 1000.0, 1), (18.0, 300.0, 2)])
def test_a_callout_row_comes_out_as_many_pixels_tall_as_its_words_need(row_px, plot_px, rows):
    lanes_height = 9.3
    height = callout_row_height(row_px, plot_px, lanes_height, rows)
    px_per_lane = plot_px / (lanes_height + 2 * VIEW_PAD + rows * height)
    assert height * px_per_lane == pytest.approx(row_px)


def test_callout_rows_never_take_more_than_their_share_of_a_short_plot():
    lanes_height, rows = 9.3, 4
    height = callout_row_height(60.0, 200.0, lanes_height, rows)  # 240 px of words on a 200 px plot
    share = rows * height / (lanes_height + 2 * VIEW_PAD + rows * height)
    assert share == pytest.approx(MAX_CALLOUT_SHARE)
    assert callout_row_height(60.0, 0.0, lanes_height, rows) == CALLOUT_HEIGHT  # no pixels yet


def test_explanations_switch_off_and_on_and_the_lanes_make_room(timeline):
    timeline.set_view(prepare_trace(two_chunk_trace()))
    assert timeline.explanations and len(timeline.callouts()) == 3
    with_callouts = timeline.scene_items.layout
    timeline.highlight_rows([0])
    timeline.set_explanations(False)
    assert timeline.callouts() == []
    assert timeline.scene_items.layout.height == pytest.approx(with_callouts.lanes_height)
    assert with_callouts.callout_rows == 3 and with_callouts.height > with_callouts.lanes_height
    assert timeline.scene_items.highlight_item.count() == 2  # the outline survives the new layout
    timeline.set_explanations(True)
    assert len(timeline.callouts()) == 3


def _ink_in_row(image, widget, lane, t0_ms, t1_ms, colour):
    top, bottom = lane.callout_row(0)
    left, right = widget.map_to_widget(t0_ms, top), widget.map_to_widget(t1_ms, bottom)
    target = QColor(colour).rgb()
    return sum(
        image.pixel(x, y) == target for x in range(left.x(), right.x()) for y in range(left.y(), right.y())
    )


@pytest.mark.parametrize("theme", ["light", "dark", "projector"])
def test_a_callout_is_drawn_in_the_text_colour_right_above_its_span(timeline, theme):
    timeline.set_theme(THEMES[theme])
    timeline.set_view(prepare_trace(two_chunk_trace()))
    image = timeline.grab().toImage()
    host = timeline.scene_items.layout.lanes_of_group(LaneGroup.HOST)[0]
    ink = THEMES[theme].foreground
    assert _ink_in_row(image, timeline, host, 3.0, 4.0, ink) > 20  # bracket (and words) over the blocked call
    engine = next(p for p in timeline.scene_items.layout.lanes if p.lane.key == "unit-h2d-engine")
    assert _ink_in_row(image, timeline, engine, 1.5, 4.0, ink) == 0  # nothing over spans it does not explain
    # the spans keep their colour: the callout sits in its own row
    span = image.pixelColor(timeline.map_to_widget(3.5, host.centre)).name().upper()
    assert span == "#D55E00"


def test_exports_carry_the_callouts_unless_switched_off():
    with_callouts = render_image(prepare_trace(two_chunk_trace()), ExportOptions())
    without = render_image(prepare_trace(two_chunk_trace()), ExportOptions(explanations=False))
    assert with_callouts.height() > without.height()


def test_callouts_follow_the_timeline_font_and_their_rows_grow_with_it(timeline, qtbot):
    timeline.set_view(prepare_trace(two_chunk_trace()))
    heights = []
    for size in (14, 23):
        font = QFont()
        font.setPixelSize(size)
        timeline.set_font(font)
        qtbot.wait(20)
        item = timeline.scene_items.callout_item
        assert QFontInfo(item.font).pixelSize() == size and item.font.bold()  # never shrunk to a row
        host = timeline.scene_items.layout.lanes_of_group(LaneGroup.HOST)[0]
        top, bottom = host.callout_row(0)
        row_px = timeline.map_to_widget(0, bottom).y() - timeline.map_to_widget(0, top).y()
        assert row_px == pytest.approx(item.row_px(), abs=1.5)
        heights.append(row_px)
    assert heights[1] > heights[0] * 1.4

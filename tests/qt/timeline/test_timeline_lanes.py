"""The lanes of traces of several GPUs, of other kinds of work and of nested ranges, drawn."""

from itertools import pairwise
from pathlib import Path

import numpy as np
import pytest
from export_probes import picture_layout, wrong_pixels
from qt_traces import MS, many_streams_trace, two_chunk_trace, two_gpu_trace

from overlapviz._qt.export.export_view import ExportOptions, ExportView
from overlapviz._qt.export.image_export import render_image
from overlapviz._qt.themes import THEMES
from overlapviz._qt.timeline.widget import TimelineWidget
from overlapviz.backends.sim import create_backend
from overlapviz.core.config import MIB, PipelineConfig
from overlapviz.core.trace.lanes import LaneGroup
from overlapviz.core.trace.spans import OpKind
from overlapviz.importers.read import read_trace_file
from overlapviz.view.annotation_depth import depth_rows
from overlapviz.view.palette import KIND_COLOURS, LEGEND, OPTIONAL_LEGEND, SpanStyle
from overlapviz.view.prepared import legend_of, prepare_trace
from overlapviz.view.span_sets import styles_present
from overlapviz.view.span_text import describe_span

NSYS = Path(__file__).resolve().parents[2] / "data" / "nsys"
TORCH_REAL = Path(__file__).resolve().parents[2] / "data" / "torch-real"


@pytest.fixture
def timeline(qtbot):
    widget = TimelineWidget(THEMES["light"])
    qtbot.addWidget(widget)
    widget.resize(1200, 1000)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def _lane(widget, key):
    return next(placed for placed in widget.scene_items.layout.lanes if placed.lane.key == key)


def _probe(widget, t_ms, y):
    return widget.grab().toImage().pixelColor(widget.map_to_widget(t_ms, y)).name().upper()


@pytest.mark.parametrize(
    ("key", "t_ms", "style"),
    [
        ("gpu0-stream-0", 2.5, SpanStyle.MEMSET), ("gpu0-unit-memset", 2.5, SpanStyle.MEMSET),
        ("gpu0-stream-0", 3.5, SpanStyle.D2D), ("gpu0-unit-device-copy", 3.5, SpanStyle.D2D),
        ("gpu1-stream-0", 2.5, SpanStyle.PEER), ("gpu1-unit-device-copy", 2.5, SpanStyle.PEER),
        ("gpu1-unit-migration", 1.5, SpanStyle.MIGRATION), ("annotations", 3.0, SpanStyle.ANNOTATION),
        ("gpu1-unit-compute", 1.0, SpanStyle.KERNEL),
    ],
)  # fmt: skip
def test_each_kind_is_painted_in_its_own_colour(timeline, key, t_ms, style):
    timeline.set_view(prepare_trace(two_gpu_trace()))
    assert _probe(timeline, t_ms, _lane(timeline, key).centre) == KIND_COLOURS[style].upper()


def test_the_new_kinds_colours_differ_from_each_other_and_from_the_old():
    assert len(set(KIND_COLOURS.values())) == len(KIND_COLOURS)


def test_each_gpu_has_a_band_of_its_own_lanes_under_a_header_naming_it(timeline):
    timeline.set_view(prepare_trace(two_gpu_trace()))
    layout = timeline.scene_items.layout
    assert [(band.device, band.title) for band in layout.devices] == [(0, "GPU 0"), (1, "GPU 1")]
    for band in layout.devices:
        mine = [placed for placed in layout.lanes if placed.lane.device == band.device]
        assert mine and all(band.top < placed.top and placed.bottom <= band.bottom for placed in mine)
        others = [placed for placed in layout.lanes if placed.lane.device not in (None, band.device)]
        assert all(placed.bottom <= band.top or placed.top >= band.bottom for placed in others)
    assert layout.devices[0].bottom < layout.devices[1].top
    titles = [title for _y, title in timeline._lane_axis._tickLevels[0]]
    assert {"GPU 0", "GPU 1"} <= set(titles)
    groups = [(band.group, band.top) for band in layout.groups]
    assert [group for group, _top in groups] == [
        LaneGroup.HOST, LaneGroup.ANNOTATIONS, LaneGroup.STREAMS, LaneGroup.HARDWARE, LaneGroup.STREAMS,
        LaneGroup.HARDWARE,
    ]  # fmt: skip


def test_one_gpu_has_no_gpu_header(timeline):
    timeline.set_view(prepare_trace(two_chunk_trace()))
    layout = timeline.scene_items.layout
    assert layout.devices == ()
    assert [band.title for band in layout.groups] == ["HOST", "STREAMS", "HARDWARE"]


def test_rows_of_nested_and_overlapping_ranges_never_overlap():
    starts = np.array([0, 0, 5, 20, 5, 11, 30], dtype=np.int64)
    ends = np.array([100, 50, 15, 40, 10, 20, 30], dtype=np.int64)
    depths = depth_rows(starts, ends)
    assert depths.tolist()[:4] == [0, 1, 2, 2]  # the parent above its child above its grandchild
    for depth in set(depths.tolist()):
        mine = np.flatnonzero(depths == depth)
        order = mine[np.argsort(starts[mine])]
        assert np.all(starts[order][1:] >= ends[order][:-1])


def test_nested_ranges_are_stacked_one_row_each_and_named_inside(timeline):
    timeline.set_view(prepare_trace(two_gpu_trace()))
    rows = timeline.scene_items.layout.lanes_of_group(LaneGroup.ANNOTATIONS)
    trace = timeline.trace
    assert [[trace.name_of(r) for r in placed.rows] for placed in rows] == [
        ["step"], ["forward", "backward"], ["attention"]
    ]
    assert all(placed.bottom <= below.top for placed, below in pairwise(rows))
    assert rows[0].height < 1.0  # thinner than a lane: nesting eight deep stays on screen
    timeline.grab()
    assert sorted(timeline.scene_items.range_labels.written) == ["attention", "backward", "forward", "step"]
    timeline.set_view_range_ms(0.0, 4.0)
    timeline.resize(300, 1000)  # 1 ms in about 40 px: "attention" is cut short, "step" still fits
    timeline.grab()
    written = timeline.scene_items.range_labels.written
    assert "step" in written and "attention" not in written
    assert any(text.endswith("\u2026") and "attention".startswith(text[:-1]) for text in written)


def test_a_real_nvtx_trace_nests_eight_deep_without_overlap(timeline):
    timeline.set_view(prepare_trace(read_trace_file(NSYS / "nvfuser-2024.6-nvtx.sqlite.gz")))
    trace = timeline.trace
    rows = timeline.scene_items.layout.lanes_of_group(LaneGroup.ANNOTATIONS)
    assert len(rows) == 8
    for placed in rows:
        starts, ends = trace["start_ns"][placed.rows], trace["end_ns"][placed.rows]
        assert np.all(starts[1:] >= ends[:-1])
    timeline.grab()
    written = timeline.scene_items.range_labels.written
    assert "KernelExecutor::compileFusion" in written
    assert 0 < len(written) < sum(len(placed.rows) for placed in rows)  # the slivers are not named


def test_a_real_trace_draws_its_memsets_and_migrations(timeline):
    timeline.set_view(prepare_trace(read_trace_file(NSYS / "balinski-gomory-2025.5-pageable-uvm.sqlite.gz")))
    trace = timeline.trace
    for key, style in (("unit-memset", SpanStyle.MEMSET), ("unit-migration", SpanStyle.MIGRATION)):
        placed = _lane(timeline, key)
        longest = placed.rows[np.argmax(trace.duration_ns[placed.rows])]
        start, end = trace["start_ns"][longest] / MS, trace["end_ns"][longest] / MS
        timeline.set_view_range_ms(start - (end - start), end + (end - start))
        assert _probe(timeline, (start + end) / 2, placed.centre) == KIND_COLOURS[style].upper()


def test_the_legend_names_the_other_kinds_only_when_present():
    assert legend_of([prepare_trace(two_chunk_trace())]) == LEGEND
    shown = legend_of([prepare_trace(two_gpu_trace())])
    host_kinds = (SpanStyle.PREFETCH, SpanStyle.HOST_COPY)  # only a run on those kinds of memory has them
    talking = (SpanStyle.COMMUNICATION,)  # only a distributed program's trace has it
    assert shown == LEGEND + tuple(
        entry for style, entry in OPTIONAL_LEGEND.items() if style not in host_kinds + talking
    )
    memsets_only = legend_of([prepare_trace(read_trace_file(NSYS / "mordred-2021-no-enums.sqlite.gz"))])
    assert memsets_only == (*LEGEND, OPTIONAL_LEGEND[SpanStyle.MEMSET])


def test_a_real_distributed_trace_draws_its_communication_in_its_own_lane_and_colour(timeline):
    view = prepare_trace(read_trace_file(TORCH_REAL / "hta-sampled-rank0-of-128.json.gz"))
    assert OPTIONAL_LEGEND[SpanStyle.COMMUNICATION] in legend_of([view])
    timeline.set_view(view)
    trace = timeline.trace
    placed = _lane(timeline, "unit-communication")
    assert (trace["kind"][placed.rows] == OpKind.COMMUNICATION).all()
    longest = placed.rows[np.argmax(trace.duration_ns[placed.rows])]
    start, end = trace["start_ns"][longest] / MS, trace["end_ns"][longest] / MS
    timeline.set_view_range_ms(start - (end - start), end + (end - start))
    assert _probe(timeline, (start + end) / 2, placed.centre) == KIND_COLOURS[SpanStyle.COMMUNICATION].upper()


def test_tooltips_of_the_other_kinds():
    trace = two_gpu_trace()
    texts = {trace.name_of(row): describe_span(trace, row) for row in range(len(trace))}
    assert "Unified-memory migration: Unified memory HtoD" in texts["Unified memory HtoD"]
    migration = texts["Unified memory HtoD"]
    assert "No stream" in migration and "not a copy the program issued" in migration
    assert "Peer copy: Memcpy PtoP" in texts["Memcpy PtoP"] and "Stream 0" in texts["Memcpy PtoP"]
    assert "Host memory" not in texts["Memcpy PtoP"]  # no host side
    assert "Memset: Memset (Device)" in texts["Memset (Device)"]
    assert texts["attention"].splitlines()[0] == "Range: attention"
    assert "Duration 1.00 ms" in texts["attention"]


def test_an_export_draws_the_same_lanes_and_legend(qapp):
    view = prepare_trace(two_gpu_trace())
    options = ExportOptions()
    layout = picture_layout(view, options)
    wanted = {KIND_COLOURS[style].upper() for style in OPTIONAL_LEGEND if style in styles_present(view.span_sets)}
    assert len(wanted) == 5 and layout.colours() >= wanted  # memsets, D2D, peer copies, migrations, ranges
    assert wrong_pixels(render_image(view, options), layout) == []
    export = ExportView(view, options)
    try:
        assert export.legend.entries == legend_of([view])
    finally:
        export.deleteLater()


def _stream_titles(widget):
    return [placed.lane.title for placed in widget.scene_items.layout.lanes_of_group(LaneGroup.STREAMS)]


def test_the_stream_filter_shows_only_for_many_streams(timeline):
    timeline.set_view(prepare_trace(two_gpu_trace()))
    assert not timeline.stream_filter.isVisible()
    timeline.set_view(prepare_trace(many_streams_trace(24)))
    assert timeline.stream_filter.isVisible()
    assert _stream_titles(timeline) == ["Stream 0", "Stream 1", "Stream 2", "21 quiet streams"]
    assert timeline.stream_filter.count.text() == "4 of 24 stream lanes"
    timeline.set_view(prepare_trace(many_streams_trace(16)))
    assert not timeline.stream_filter.isVisible()
    assert _stream_titles(timeline) == [f"Stream {s}" for s in range(16)]


def test_the_folded_quiet_streams_are_drawn_and_hovered(timeline):
    timeline.set_view(prepare_trace(many_streams_trace(24)))
    folded = _lane(timeline, "streams-quiet")
    t_ms = 2.3 + 0.005  # stream 23's 10 µs kernel
    timeline.set_view_range_ms(2.29, 2.32)
    assert _probe(timeline, t_ms, folded.centre) == KIND_COLOURS[SpanStyle.KERNEL].upper()
    assert "Kernel: kernel_23" in timeline.scene_items.describe_at(t_ms, folded.centre)


def test_typing_a_filter_keeps_the_streams_that_mention_it(timeline, qtbot):
    timeline.set_view(prepare_trace(many_streams_trace(24)))
    timeline.activateWindow()
    timeline.stream_filter.text.setFocus()
    qtbot.waitUntil(timeline.stream_filter.text.hasFocus, timeout=2000)
    qtbot.keyClicks(timeline.stream_filter.text, "kernel_2")  # kernel_2, kernel_20 ... kernel_23
    assert _stream_titles(timeline) == ["Stream 2", "Stream 20", "Stream 21", "Stream 22", "Stream 23"]
    assert timeline.stream_filter.count.text() == "5 of 24 stream lanes"
    assert timeline.stream_filter.text.hasFocus()  # redrawing the lanes left the text where it was typed
    timeline.stream_filter.text.clear()
    timeline.stream_filter.quiet.setChecked(False)
    assert len(_stream_titles(timeline)) == 24
    assert _stream_titles(timeline)[:3] == ["Stream 0", "Stream 1", "Stream 2"]  # busiest first
    hardware = timeline.scene_items.layout.lanes_of_group(LaneGroup.HARDWARE)
    assert [placed.lane.title for placed in hardware] == ["Compute"]  # untouched by the filter


def test_a_new_trace_starts_unfiltered_and_an_export_draws_the_lanes_on_show(timeline, qapp):
    timeline.set_view(prepare_trace(many_streams_trace(24)))
    timeline.stream_filter.text.setText("kernel_1")
    shown = timeline.view
    assert _stream_titles(timeline) == ["Stream 1", "Stream 10", "Stream 11", "Stream 12", "Stream 13", "Stream 14",
                                        "Stream 15", "Stream 16", "Stream 17", "Stream 18", "Stream 19"]  # fmt: skip
    export = ExportView(shown, ExportOptions())
    try:
        export.fill()
        assert not export.timeline.stream_filter.isVisible()
        assert _stream_titles(export.timeline) == _stream_titles(timeline)
    finally:
        export.deleteLater()
    timeline.set_view(prepare_trace(many_streams_trace(24)))
    assert timeline.stream_filter.current().text == ""
    assert len(_stream_titles(timeline)) == 4


# --- what some kinds of host memory add: prefetches, the host's own copies, kernels over the link ---


def _model_run(memory):
    return create_backend().run(PipelineConfig(memory=memory, size_bytes=64 * MIB, chunks=4, streams=2), "h200")


def _longest(trace, kind_rows):
    return kind_rows[np.argmax(trace.duration_ns[kind_rows])]


@pytest.mark.parametrize(
    ("memory", "kind", "lane_key", "style"),
    [
        ("managed-prefetch", OpKind.PREFETCH, "unit-h2d-engine", SpanStyle.PREFETCH),
        ("managed-prefetch", OpKind.PREFETCH, "stream-0", SpanStyle.PREFETCH),
        ("staged", OpKind.HOST_COPY, "host", SpanStyle.HOST_COPY),
    ],
)
def test_prefetches_and_host_copies_are_painted_in_their_colour(timeline, memory, kind, lane_key, style):
    view = prepare_trace(_model_run(memory))
    timeline.set_view(view)
    trace = timeline.trace
    placed = _lane(timeline, lane_key)
    rows = placed.rows[trace["kind"][placed.rows] == kind]
    row = _longest(trace, rows)
    start, end = trace["start_ns"][row] / MS, trace["end_ns"][row] / MS
    timeline.set_view_range_ms(start - (end - start), end + (end - start))
    assert _probe(timeline, (start + end) / 2, placed.centre) == KIND_COLOURS[style].upper()
    assert OPTIONAL_LEGEND[style] in legend_of([view])


def test_tooltips_of_prefetches_host_copies_and_kernels_over_the_link():
    prefetched = _model_run("managed-prefetch")
    row = next(r for r in range(len(prefetched)) if prefetched.name_of(r) == "prefetch to device")
    text = describe_span(prefetched, row)
    assert text.startswith("Prefetch: prefetch to device") and "not counted as copy bytes" in text
    assert "Host memory managed" in text and "Bandwidth \u2014" not in text and "GB/s" in text
    staged = _model_run("staged")
    row = next(r for r in range(len(staged)) if staged.name_of(r) == "memcpy pageable->pinned")
    text = describe_span(staged, row)
    assert text.startswith("Host copy: memcpy pageable->pinned") and "pinned staging slot" in text
    assert "Host thread, chunk 0" in text and "Bytes 16 MiB" in text and "GB/s" in text
    mapped = _model_run("mapped")
    row = next(r for r in range(len(mapped)) if mapped.name_of(r) == "fma_chain")
    text = describe_span(mapped, row)
    assert "Over the link 32 MiB at" in text and "Host memory mapped" in text

"""The comparison picture: A above B on one time axis, each span where the shared axis puts it."""

import pytest
from export_probes import first_column, last_column, on_slide, picture_layout, rasterise_svg, wrong_pixels
from PySide6.QtGui import QColor
from qt_traces import two_chunk_trace

from overlapviz._qt.export.comparison_view import ComparisonPicture
from overlapviz._qt.export.export_view import ExportOptions
from overlapviz._qt.export.image_export import render_image, svg_bytes
from overlapviz._qt.themes import THEMES
from overlapviz.core.config import PipelineConfig
from overlapviz.session import run_pipeline
from overlapviz.view.palette import KIND_COLOURS, SpanStyle
from overlapviz.view.prepared import prepare_trace, prepare_view

H2D, D2H = KIND_COLOURS[SpanStyle.H2D].upper(), KIND_COLOURS[SpanStyle.D2H].upper()


def _legacy_and_plain():
    """The same spans twice; A's lanes are titled for the legacy stream, wider than B's."""
    plain = two_chunk_trace()
    legacy = plain.with_meta(config={**plain.meta.config, "stream_kind": "legacy"})
    return ComparisonPicture((prepare_trace(legacy), prepare_trace(plain)), ("legacy", "plain"), "Same spans")


@pytest.mark.parametrize("width", [1920, 3840])
def test_the_same_time_is_at_the_same_x_in_a_and_b(qapp, width):
    picture, options = _legacy_and_plain(), ExportOptions(width=width)
    layout = picture_layout(picture, options, times_ms=(0.0, 1.0, 4.0))
    for t_ms in (0.0, 1.0, 4.0):
        assert layout.time_x[0, t_ms] == layout.time_x[1, t_ms], t_ms
    image = render_image(picture, options)
    assert wrong_pixels(image, layout) == []
    # Read off the pixels: the H2D at 0-1 ms and the D2H ending at 4 ms begin and end in the same column.
    edges = []
    for side in (0, 1):
        h2d_row, d2h_row = layout.lane_rows[side, "unit-h2d-engine"], layout.lane_rows[side, "unit-d2h-engine"]
        edges.append((first_column(image, h2d_row, H2D), last_column(image, d2h_row, D2H)))
    assert edges[0] == edges[1]
    start, end = edges[0]
    assert start is not None and end is not None
    assert abs(start - layout.time_x[0, 0.0]) <= 1
    assert abs(end - layout.time_x[0, 4.0]) <= 1 + options.scale  # a span leaves a pixel free at its end


def test_the_legacy_trap_lines_up_with_four_streams(qapp):
    runs = [run_pipeline(PipelineConfig(stream_kind=kind), "sim", "h200") for kind in ("legacy", "nonblocking")]
    picture = ComparisonPicture(tuple(prepare_view(run) for run in runs), ("legacy", "4 streams"))
    options = ExportOptions(width=3840)
    ticks = (0.0, 5.0, 10.0)
    layout = picture_layout(picture, options, times_ms=ticks)
    assert [layout.time_x[0, t] for t in ticks] == [layout.time_x[1, t] for t in ticks]
    assert {layout.time_x[0, t] for t in ticks} == {layout.time_x[1, t] for t in ticks}
    assert layout.colours() >= {H2D, D2H, KIND_COLOURS[SpanStyle.KERNEL].upper()}
    assert {probe.side for probe in layout.probes} == {0, 1}
    assert wrong_pixels(render_image(picture, options), layout) == []


@pytest.mark.parametrize("options", [ExportOptions(), ExportOptions(theme="dark", width=3840)], ids=["light", "dark"])
def test_the_comparison_svg_draws_both_sides_where_the_layout_puts_them(qapp, options):
    picture = _legacy_and_plain()
    layout = picture_layout(picture, options)
    assert {probe.side for probe in layout.probes} == {0, 1} and layout.colours() >= {H2D, D2H}
    assert wrong_pixels(rasterise_svg(svg_bytes(picture, options), layout.size), layout) == []


@pytest.mark.parametrize(("width", "height"), [(1920, 1080), (3840, 2160)])
def test_a_comparison_fills_a_slide_exactly_scaled_to_fit_with_nothing_cut(qapp, width, height):
    runs = [run_pipeline(PipelineConfig(memory=memory), "sim", "h200") for memory in ("pageable", "pinned")]
    picture = ComparisonPicture(tuple(prepare_view(run) for run in runs), ("pageable", "pinned"), "Pageable vs pinned")
    tall = render_image(picture, ExportOptions(width=width))
    assert tall.height() > height  # as tall as it needs: more than a slide
    options = ExportOptions(width=width, height=height)
    image = render_image(picture, options)
    assert (image.width(), image.height()) == (width, height)
    layout = on_slide(picture_layout(picture, options), options)
    assert {probe.side for probe in layout.probes} == {0, 1} and wrong_pixels(image, layout) == []
    background = QColor(THEMES["light"].background).rgb()
    bands = (0, 2, width - 3, width - 1)  # the picture is narrower than the slide: centred between two bands
    assert all(image.pixel(x, y) == background for x in bands for y in range(0, height, 7))


def test_a_comparison_svg_slide_is_the_slide_s_size(qapp):
    picture = _legacy_and_plain()
    options = ExportOptions(width=1920, height=1080, theme="dark")
    data = svg_bytes(picture, options)
    assert b'viewBox="0 0 1920 1080"' in data
    layout = on_slide(picture_layout(picture, options), options)
    image = rasterise_svg(data, layout.size)
    assert wrong_pixels(image, layout) == []
    assert image.pixelColor(1, 1).name().upper() == QColor(THEMES["dark"].background).name().upper()

import pytest
from export_probes import picture_layout, rasterise_svg, wrong_pixels
from PySide6.QtGui import QColor, QImage
from qt_traces import two_chunk_trace

from overlapviz._qt.export.export_view import ExportOptions
from overlapviz._qt.export.image_export import render_image, svg_bytes
from overlapviz._qt.render import render_trace_png, render_trace_svg
from overlapviz._qt.themes import THEMES
from overlapviz.view.palette import KIND_COLOURS, SpanStyle
from overlapviz.view.prepared import prepare_trace

SOLID_KINDS = {KIND_COLOURS[style].upper() for style in (SpanStyle.H2D, SpanStyle.KERNEL, SpanStyle.D2H)}
HOST_KINDS = {KIND_COLOURS[style].upper() for style in (SpanStyle.API, SpanStyle.BLOCKED)}


def _spans_in_place(image, options, view=None):
    layout = picture_layout(view or prepare_trace(two_chunk_trace()), options)
    assert layout.colours() >= SOLID_KINDS | HOST_KINDS  # a probe on every kind, the host's too
    assert wrong_pixels(image, layout) == []


@pytest.mark.parametrize("width", [1920, 3840])
def test_png_is_as_wide_as_asked_and_scales_rather_than_shrinks(qapp, width):
    image = render_image(prepare_trace(two_chunk_trace()), ExportOptions(width=width))
    assert image.width() == width
    base = render_image(prepare_trace(two_chunk_trace()), ExportOptions(width=1920))
    assert image.height() == base.height() * width // 1920


@pytest.mark.parametrize(
    "options",
    [ExportOptions(), ExportOptions(width=3840), ExportOptions(width=1000, theme="dark"),
     ExportOptions(theme="projector", caption=False), ExportOptions(explanations=False)],
    ids=["1920", "3840", "1000-dark", "projector-no-caption", "no-callouts"],
)  # fmt: skip
def test_every_span_is_painted_in_its_colour_where_the_layout_puts_it(qapp, options):
    _spans_in_place(render_image(prepare_trace(two_chunk_trace()), options), options)


def test_a_time_window_shows_its_spans_where_the_window_puts_them(qapp):
    options = ExportOptions(window_ms=(1.2, 3.8))
    layout = picture_layout(prepare_trace(two_chunk_trace()), options)
    assert all(1.2 < probe.t_ms < 3.8 for probe in layout.probes)
    assert layout.colours() >= SOLID_KINDS
    assert wrong_pixels(render_image(prepare_trace(two_chunk_trace()), options), layout) == []


def test_a_wrong_layout_reads_the_background(qapp):
    """The probes see spans, not colours anywhere: aimed at another window, they miss."""
    image = render_image(prepare_trace(two_chunk_trace()), ExportOptions())
    elsewhere = picture_layout(prepare_trace(two_chunk_trace()), ExportOptions(window_ms=(2.0, 4.0)))
    assert len(wrong_pixels(image, elsewhere)) > len(elsewhere.probes) // 2


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_themed_background(qapp, theme):
    image = render_image(prepare_trace(two_chunk_trace()), ExportOptions(theme=theme))
    assert image.pixelColor(2, 2).name().upper() == QColor(THEMES[theme].background).name().upper()


def test_transparent_background(qapp):
    options = ExportOptions(transparent=True)
    image = render_image(prepare_trace(two_chunk_trace()), options)
    assert image.pixelColor(2, 2).alpha() == 0
    assert image.pixelColor(image.width() - 3, image.height() // 2).alpha() == 0
    _spans_in_place(image, options)


def test_no_caption_makes_a_different_picture(qapp):
    with_caption = render_image(prepare_trace(two_chunk_trace()), ExportOptions())
    without = render_image(prepare_trace(two_chunk_trace()), ExportOptions(caption=False))
    assert with_caption.size() == without.size() and with_caption != without


def test_svg_is_vector_with_the_caption(qapp):
    text = svg_bytes(prepare_trace(two_chunk_trace()), ExportOptions()).decode()
    assert text.lstrip().startswith("<?xml") and "<svg" in text
    assert "overlapviz timeline" in text and "makespan\u00a04.00\u00a0ms" in text


@pytest.mark.parametrize("options", [ExportOptions(), ExportOptions(theme="dark", width=3840)], ids=["light", "dark"])
def test_svg_draws_every_span_where_the_layout_puts_it(qapp, options):
    layout = picture_layout(prepare_trace(two_chunk_trace()), options)
    image = rasterise_svg(svg_bytes(prepare_trace(two_chunk_trace()), options), layout.size)
    assert layout.colours() >= SOLID_KINDS | HOST_KINDS
    assert wrong_pixels(image, layout) == []


def test_headless_render_writes_the_file(qapp, tmp_path):
    path = render_trace_png(two_chunk_trace(), tmp_path / "out.png", width=3840, theme="dark")
    image = QImage(str(path))
    assert image.width() == 3840 and not image.isNull()
    _spans_in_place(image.convertToFormat(QImage.Format.Format_ARGB32_Premultiplied),
                    ExportOptions(width=3840, theme="dark"))  # fmt: skip
    svg = render_trace_svg(two_chunk_trace(), tmp_path / "out.svg")
    assert svg.read_text().count("<svg") == 1
    layout = picture_layout(prepare_trace(two_chunk_trace()), ExportOptions())
    assert wrong_pixels(rasterise_svg(svg.read_bytes(), layout.size), layout) == []


@pytest.mark.parametrize(("kwargs", "words"), [({"width": 100}, "width 100 px"), ({"theme": "neon"}, "neon")])
def test_headless_render_refuses_bad_options(qapp, tmp_path, kwargs, words):
    with pytest.raises(ValueError, match=words):
        render_trace_png(two_chunk_trace(), tmp_path / "out.png", **kwargs)
    assert not (tmp_path / "out.png").exists()

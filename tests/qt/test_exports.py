import pytest
from PySide6.QtGui import QColor, QImage
from qt_traces import two_chunk_trace

from overlapviz._qt.export.export_view import ExportOptions
from overlapviz._qt.export.image_export import render_image, svg_bytes
from overlapviz._qt.render import render_trace_png, render_trace_svg
from overlapviz._qt.themes import THEMES
from overlapviz.view.palette import KIND_COLOURS, SpanStyle
from overlapviz.view.prepared import prepare_trace


def _count(image, hex_colour):
    target = QColor(hex_colour).rgb()
    return sum(image.pixel(x, y) == target for x in range(0, image.width(), 3) for y in range(0, image.height(), 3))


@pytest.mark.parametrize("width", [1920, 3840])
def test_png_is_as_wide_as_asked_and_scales_rather_than_shrinks(qapp, width):
    image = render_image(prepare_trace(two_chunk_trace()), ExportOptions(width=width))
    assert image.width() == width
    base = render_image(prepare_trace(two_chunk_trace()), ExportOptions(width=1920))
    assert image.height() == base.height() * width // 1920


def test_every_kind_appears_in_its_colour(qapp):
    image = render_image(prepare_trace(two_chunk_trace()), ExportOptions())
    for style in (SpanStyle.H2D, SpanStyle.KERNEL, SpanStyle.D2H, SpanStyle.API, SpanStyle.BLOCKED):
        assert _count(image, KIND_COLOURS[style]) > 0, style


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_themed_background(qapp, theme):
    image = render_image(prepare_trace(two_chunk_trace()), ExportOptions(theme=theme))
    assert image.pixelColor(2, 2).name().upper() == QColor(THEMES[theme].background).name().upper()


def test_transparent_background(qapp):
    image = render_image(prepare_trace(two_chunk_trace()), ExportOptions(transparent=True))
    assert image.pixelColor(2, 2).alpha() == 0
    assert image.pixelColor(image.width() - 3, image.height() // 2).alpha() == 0
    assert _count(image, KIND_COLOURS[SpanStyle.KERNEL]) > 0


def test_no_caption_makes_a_different_picture(qapp):
    with_caption = render_image(prepare_trace(two_chunk_trace()), ExportOptions())
    without = render_image(prepare_trace(two_chunk_trace()), ExportOptions(caption=False))
    assert with_caption.size() == without.size() and with_caption != without


def test_svg_is_vector_with_the_caption(qapp):
    text = svg_bytes(prepare_trace(two_chunk_trace()), ExportOptions()).decode()
    assert text.lstrip().startswith("<?xml") and "<svg" in text
    assert "overlapviz timeline" in text and "makespan 4.00 ms" in text


def test_headless_render_writes_the_file(qapp, tmp_path):
    path = render_trace_png(two_chunk_trace(), tmp_path / "out.png", width=3840, theme="dark")
    image = QImage(str(path))
    assert image.width() == 3840 and not image.isNull()
    svg = render_trace_svg(two_chunk_trace(), tmp_path / "out.svg")
    assert svg.read_text().count("<svg") == 1


@pytest.mark.parametrize(("kwargs", "words"), [({"width": 100}, "width 100 px"), ({"theme": "neon"}, "neon")])
def test_headless_render_refuses_bad_options(qapp, tmp_path, kwargs, words):
    with pytest.raises(ValueError, match=words):
        render_trace_png(two_chunk_trace(), tmp_path / "out.png", **kwargs)
    assert not (tmp_path / "out.png").exists()

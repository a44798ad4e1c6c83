"""The "Simulated" badge: on every timeline (window, presentation, exports) the model drew; on no other."""

from pathlib import Path

import pytest
from export_probes import picture_layout, rasterise_svg, wrong_pixels
from PySide6.QtCore import QRect
from PySide6.QtGui import QColor, QFont, QImage
from qt_traces import two_chunk_trace
from teaching_helpers import make_window_fixture, run_and_wait  # noqa: F401 (the make_window fixture)

from overlapviz._qt.export.comparison_view import ComparisonPicture
from overlapviz._qt.export.export_view import ExportOptions
from overlapviz._qt.export.image_export import picture_view, render_image, svg_bytes
from overlapviz._qt.themes import THEMES
from overlapviz._qt.timeline.simulated_badge import BADGE_COLOUR, BADGE_WORD, badge_text, is_simulated
from overlapviz._qt.timeline.widget import TimelineWidget
from overlapviz.commands.main import main
from overlapviz.core.files.trace_export import export_chrome
from overlapviz.core.trace.meta import TraceMeta
from overlapviz.importers.read import read_trace_file
from overlapviz.view.prepared import prepare_trace

ROOT = Path(__file__).resolve().parents[3]
REAL_GPU = ROOT / "assets" / "traces" / "h200-legacy-stream.json"  # the CuPy backend on an H200
RECORDED = ROOT / "tests" / "data" / "torch" / "torch-pinned.json.gz"  # the PyTorch profiler's file


def _not_simulated():
    return {"real GPU": read_trace_file(REAL_GPU), "recorded": read_trace_file(RECORDED)}


def _badge_pixels(image: QImage, rect: QRect | None = None) -> int:
    target = QColor(BADGE_COLOUR).rgb()
    area = rect if rect is not None else image.rect()
    return sum(image.pixel(x, y) == target for x in range(area.left(), area.right() + 1, 2)
               for y in range(area.top(), area.bottom() + 1, 2))  # fmt: skip


@pytest.fixture
def timeline(qtbot):
    widget = TimelineWidget(THEMES["light"])
    qtbot.addWidget(widget)
    widget.resize(1000, 600)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def test_what_counts_as_simulated():
    assert is_simulated(two_chunk_trace().meta) and badge_text(two_chunk_trace().meta) == "SIMULATED \u00b7 Test GPU"
    assert not any(is_simulated(trace.meta) for trace in _not_simulated().values())
    assert badge_text(TraceMeta(simulated=True)) == BADGE_WORD


def test_the_timeline_of_a_simulated_run_wears_the_badge_above_its_spans(timeline):
    timeline.set_view(prepare_trace(two_chunk_trace()))
    badge = timeline.simulated_badge
    assert badge.isVisible() and badge.text() == "SIMULATED \u00b7 Test GPU"
    image = timeline.grab().toImage()
    assert _badge_pixels(image, badge.geometry()) > badge.width() * badge.height() // 8  # drawn, in its colour
    top_lane = timeline.scene_items.layout.lanes[0]
    assert badge.geometry().bottom() < timeline.map_to_widget(0.0, top_lane.top - 0.75).y()  # above the plot's lanes
    assert badge.geometry().right() >= timeline.width() - 2  # at the right


@pytest.mark.parametrize("kind", ["real GPU", "recorded"])
def test_a_measured_trace_has_no_badge(timeline, kind):
    timeline.set_view(prepare_trace(two_chunk_trace()))
    timeline.set_view(prepare_trace(_not_simulated()[kind]))
    assert timeline.simulated_badge.isHidden()
    assert _badge_pixels(timeline.grab().toImage()) == 0


def test_the_badge_goes_with_the_trace_and_follows_the_font(timeline):
    timeline.set_view(prepare_trace(two_chunk_trace()))
    font = QFont()
    font.setPixelSize(30)
    timeline.set_font(font)
    assert timeline.simulated_badge.font().pixelSize() == 30 and timeline.simulated_badge.font().bold()
    timeline.clear()
    assert timeline.simulated_badge.isHidden()


def test_presentation_mode_keeps_the_badge_in_sight(make_window, qtbot):
    window = make_window()
    run_and_wait(qtbot, window)
    with qtbot.waitSignal(window.teaching.presentation.settled, timeout=5000):  # painted in its final layout
        window.teaching.presentation.enter()
    badge = window.timeline.simulated_badge
    assert window.statusBar().isHidden() and badge.isVisible()
    assert badge.text().startswith(BADGE_WORD)
    assert _badge_pixels(window.timeline.grab().toImage(), badge.geometry()) > 0
    window.teaching.presentation.leave()


def _badge_rects(subject, options):
    """Where each timeline's badge is in the exported image, device pixels (None when it is hidden)."""
    with picture_view(subject, options) as view:
        view.fill()
        view.lay_out()
        rects = []
        for timeline in view.timelines():
            badge = timeline.simulated_badge
            rect = QRect(badge.mapTo(view, badge.rect().topLeft()), badge.size())
            scaled = QRect(round(rect.x() * options.scale), round(rect.y() * options.scale),
                           round(rect.width() * options.scale), round(rect.height() * options.scale))  # fmt: skip
            rects.append(None if badge.isHidden() else scaled)
        return rects


@pytest.mark.parametrize("options", [ExportOptions(), ExportOptions(width=3840, theme="dark")], ids=["1920", "3840"])
def test_an_exported_simulated_run_wears_the_badge_and_its_spans_are_uncovered(qapp, options):
    view = prepare_trace(two_chunk_trace())
    image = render_image(view, options)
    (rect,) = _badge_rects(view, options)
    assert rect is not None and _badge_pixels(image, rect) > rect.width() * rect.height() // 8
    assert wrong_pixels(image, picture_layout(view, options)) == []
    assert BADGE_WORD in svg_bytes(view, options).decode()


def test_the_badge_in_the_svg_is_where_the_layout_puts_it(qapp):
    view, options = prepare_trace(two_chunk_trace()), ExportOptions()
    layout = picture_layout(view, options)
    (rect,) = _badge_rects(view, options)
    assert _badge_pixels(rasterise_svg(svg_bytes(view, options), layout.size), rect) > 0


@pytest.mark.parametrize("kind", ["real GPU", "recorded"])
def test_an_exported_measured_trace_has_no_badge(qapp, kind):
    view = prepare_trace(_not_simulated()[kind])
    assert _badge_rects(view, ExportOptions()) == [None]
    assert _badge_pixels(render_image(view, ExportOptions())) == 0
    assert BADGE_WORD not in svg_bytes(view, ExportOptions()).decode()


def test_each_side_of_a_comparison_says_whether_it_was_simulated(qapp):
    picture = ComparisonPicture((prepare_trace(two_chunk_trace()), prepare_trace(_not_simulated()["real GPU"])))
    image = render_image(picture, ExportOptions())
    simulated, measured = _badge_rects(picture, ExportOptions())
    assert simulated is not None and measured is None
    assert _badge_pixels(image, simulated) > 0
    assert _badge_pixels(image.copy(0, image.height() // 2, image.width(), image.height() // 2)) == 0  # not B's


def test_render_draws_the_badge_only_for_the_model(capsys, tmp_path):
    export_chrome(two_chunk_trace(), tmp_path / "sim.json")
    for name, source in (("sim", tmp_path / "sim.json"), ("real", REAL_GPU)):
        assert main(["render", str(source), "-o", str(tmp_path / f"{name}.png")]) == 0
    capsys.readouterr()
    (rect,) = _badge_rects(prepare_trace(read_trace_file(tmp_path / "sim.json")), ExportOptions())
    sim = QImage(str(tmp_path / "sim.png")).convertToFormat(QImage.Format.Format_ARGB32_Premultiplied)
    real = QImage(str(tmp_path / "real.png")).convertToFormat(QImage.Format.Format_ARGB32_Premultiplied)
    assert _badge_pixels(sim, rect) > 0 and _badge_pixels(real) == 0

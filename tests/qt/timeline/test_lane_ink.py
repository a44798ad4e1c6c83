"""Each lane of a rendered timeline is inked as busy as its spans kept it, at every zoom.

Runs of the model of 16, 1024 and 16,384 chunks (ops from about a hundred pixels wide down to
a fraction of one) and real traces (Nsight exports with 735 and 67 unified-memory migrations,
a PyTorch profile), drawn by the timeline widget (the window's, and presentation mode's in the
projector theme) and exported as PNG and SVG: each lane's ink, read from the pixels, is its busy
share over the window shown, within a few points.
"""

import re
from pathlib import Path

import pytest
from export_probes import _device, rasterise_svg
from lane_ink import lane_inks
from teaching_helpers import make_window_fixture, run_and_wait  # noqa: F401 (the make_window fixture)

from overlapviz._qt.export.export_view import ExportOptions
from overlapviz._qt.export.image_export import picture_view, render_image, svg_bytes
from overlapviz._qt.themes import THEMES
from overlapviz._qt.timeline.widget import TimelineWidget
from overlapviz.core.config import PipelineConfig
from overlapviz.importers.read import read_trace_file
from overlapviz.session import run_pipeline
from overlapviz.view.prepared import prepare_trace, prepare_view

DATA = Path(__file__).parents[2] / "data"
POINTS = 0.03  # ink and busy share may differ by this much (rounding of span edges to pixels)
RUNS = {"16 chunks": 16, "1024 chunks": 1024, "16384 chunks": 16384}
TRACES = {
    "nsys migrations": "nsys/clue-2023.2-managed-prefetch.sqlite.gz",
    "nsys pageable and migrations": "nsys/balinski-gomory-2025.5-pageable-uvm.sqlite.gz",
    "torch": "torch/torch-dataloader.json.gz",
}
_views = {}


def _view(name):
    if name not in _views:
        if name in RUNS:
            _views[name] = prepare_view(run_pipeline(PipelineConfig(chunks=RUNS[name]), backend="sim"))
        else:
            _views[name] = prepare_trace(read_trace_file(DATA / TRACES[name]))
    return _views[name]


def _assert_true_to_the_numbers(inks):
    assert inks, "no lane measured"
    wrong = [str(ink) for ink in inks if abs(ink.ink - ink.busy) > POINTS]
    assert not wrong, wrong


@pytest.mark.parametrize("theme", ["light", "dark", "projector"])
@pytest.mark.parametrize("name", [*RUNS, *TRACES])
def test_the_timeline_inks_each_lane_as_busy_as_it_was(qtbot, name, theme):
    timeline = TimelineWidget(THEMES[theme])
    qtbot.addWidget(timeline)
    timeline.resize(1600, 900)
    timeline.show()
    timeline.set_view(_view(name))
    qtbot.waitUntil(lambda: timeline.scene_items is not None)
    image = timeline.grab().toImage()
    _assert_true_to_the_numbers(
        lane_inks(image, timeline.scene_items, timeline.view_range_ms(), timeline.map_to_widget)
    )


def test_presentation_mode_inks_each_lane_as_busy_as_it_was(make_window, qtbot):
    window = make_window()
    run_and_wait(qtbot, window, PipelineConfig(chunks=1024))
    with qtbot.waitSignal(window.teaching.presentation.settled, timeout=5000):  # painted in its final layout
        window.teaching.presentation.enter()
    assert window.theme_name() == "projector"
    timeline = window.timeline
    image = timeline.grab().toImage()
    _assert_true_to_the_numbers(
        lane_inks(image, timeline.scene_items, timeline.view_range_ms(), timeline.map_to_widget)
    )
    window.teaching.presentation.leave()


def _shown_timeline(qtbot):
    timeline = TimelineWidget()
    qtbot.addWidget(timeline)
    timeline.resize(1600, 900)
    timeline.show()
    return timeline


def test_a_zoomed_window_inks_each_lane_as_busy_as_it_was_there(qtbot):
    timeline = _shown_timeline(qtbot)
    timeline.set_view(_view("16384 chunks"))
    timeline.set_view_range_ms(10.0, 12.5)  # ops of a few pixels beside ops of a fraction of one
    image = timeline.grab().toImage()
    _assert_true_to_the_numbers(lane_inks(image, timeline.scene_items, (10.0, 12.5), timeline.map_to_widget))


@pytest.mark.parametrize(
    "options", [ExportOptions(), ExportOptions(theme="dark", width=3840)], ids=["light", "dark-4k"]
)
@pytest.mark.parametrize("name", [*RUNS, *TRACES])
def test_the_png_export_inks_each_lane_as_busy_as_it_was(qapp, name, options):
    view = _view(name)
    _assert_true_to_the_numbers(_export_inks(view, options, render_image(view, options)))


@pytest.mark.parametrize("name", ["1024 chunks", "nsys migrations"])
def test_the_svg_export_inks_each_lane_as_busy_as_it_was(qapp, name):
    view, options = _view(name), ExportOptions()
    png = render_image(view, options)
    _assert_true_to_the_numbers(_export_inks(view, options, rasterise_svg(svg_bytes(view, options), png.size())))


def _export_inks(view, options, image):
    """The inks of `image`, an export of `view` with `options`, its lanes where the export lays them out."""
    with picture_view(view, options) as picture:
        picture.fill()
        picture.lay_out()
        timeline = picture.timelines()[0]
        inks = lane_inks(
            image,
            timeline.scene_items,
            timeline.view_range_ms(),
            lambda t, y: _device(picture, timeline, t, y, options.scale),
        )
    return inks


def test_a_spans_tooltip_over_a_column_of_ink_says_how_busy_the_column_is(qtbot):
    timeline = _shown_timeline(qtbot)
    timeline.set_view(_view("1024 chunks"))
    engine = next(lane for lane in timeline.scene_items.layout.lanes if lane.lane.key == "unit-h2d-engine")
    pixel_ms = 31.0 / 1500
    text = timeline.scene_items.describe_at(15.0, engine.centre, 3 * pixel_ms)
    assert "H2D" in text and re.search(r"This pixel column: \d+ % busy with ops narrower than a pixel", text)
    copies = next(item for item in timeline.scene_items.batches.values() if item.layers[0].lane_key == engine.lane.key)
    start_ms, end_ms = copies.layers[0].starts[513] / 1e6, copies.layers[0].ends[513] / 1e6
    timeline.set_view_range_ms(start_ms - 0.05, end_ms + 0.05)  # the copy hundreds of pixels wide: no ink
    text = timeline.scene_items.describe_at((start_ms + end_ms) / 2, engine.centre, 0.0)
    assert "H2D" in text and "pixel column" not in text

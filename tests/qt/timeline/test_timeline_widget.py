import time

import pytest
from PySide6.QtGui import QColor
from qt_traces import long_trace, two_chunk_trace

from overlapviz._qt.themes import THEMES
from overlapviz._qt.timeline.widget import TimelineWidget
from overlapviz.core.trace.lanes import LaneGroup
from overlapviz.view.palette import KIND_COLOURS, SpanStyle
from overlapviz.view.prepared import prepare_trace


@pytest.fixture
def timeline(qtbot):
    widget = TimelineWidget(THEMES["light"])
    qtbot.addWidget(widget)
    widget.resize(1000, 600)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def _lane(widget, group, index):
    return widget.scene_items.layout.lanes_of_group(group)[index]


def _probe(widget, t_ms, y):
    image = widget.grab().toImage()
    point = widget.map_to_widget(t_ms, y)
    return image.pixelColor(point).name().upper()


def test_one_item_per_lane_group_and_kind_whatever_the_span_count(timeline):
    timeline.set_view(prepare_trace(two_chunk_trace()))
    small = set(timeline.scene_items.batches)
    timeline.set_view(prepare_trace(long_trace(512)))
    assert set(timeline.scene_items.batches) == small
    assert small == {
        (LaneGroup.HOST, "api"),
        *((LaneGroup.STREAMS, kind) for kind in ("h2d", "kernel", "d2h")),
        *((LaneGroup.HARDWARE, kind) for kind in ("h2d", "kernel", "d2h")),
    }


@pytest.mark.parametrize(
    ("group", "lane", "t_ms", "style"),
    [
        (LaneGroup.STREAMS, 0, 0.5, SpanStyle.H2D),
        (LaneGroup.STREAMS, 0, 1.5, SpanStyle.KERNEL),
        (LaneGroup.STREAMS, 1, 3.5, SpanStyle.D2H),
        (LaneGroup.HARDWARE, 1, 2.5, SpanStyle.KERNEL),
        (LaneGroup.HOST, 0, 3.5, SpanStyle.BLOCKED),
        (LaneGroup.HOST, 0, 2.0, SpanStyle.API),
    ],
)
def test_pixel_at_a_span_centre_is_its_kind_colour(timeline, group, lane, t_ms, style):
    timeline.set_view(prepare_trace(two_chunk_trace()))
    assert _probe(timeline, t_ms, _lane(timeline, group, lane).centre) == KIND_COLOURS[style].upper()


def test_waiting_is_drawn_pale_not_solid(timeline):
    timeline.set_view(prepare_trace(two_chunk_trace()))
    stream1 = _lane(timeline, LaneGroup.STREAMS, 1)
    image = timeline.grab().toImage()
    left = timeline.map_to_widget(0.1, stream1.centre)
    right = timeline.map_to_widget(0.9, stream1.centre)
    colours = {image.pixelColor(x, left.y()).name().upper() for x in range(left.x(), right.x())}
    h2d = QColor(KIND_COLOURS[SpanStyle.H2D])
    assert len(colours) == 2  # hatch lines and the pale fill between them
    for colour in map(QColor, colours):
        assert abs(colour.hslHue() - h2d.hslHue()) <= 8  # the kind's hue, blended with the lane band ...
        assert colour.lightness() > h2d.lightness()  # ... but paler than a running span


def test_nothing_is_drawn_where_nothing_ran(timeline):
    timeline.set_view(prepare_trace(two_chunk_trace()))
    background = QColor(THEMES["light"].band).name().upper()
    assert _probe(timeline, 3.5, _lane(timeline, LaneGroup.STREAMS, 0).centre) == background


def test_hover_text_describes_the_span(timeline):
    timeline.set_view(prepare_trace(two_chunk_trace()))
    scene = timeline.scene_items
    text = scene.describe_at(3.5, _lane(timeline, LaneGroup.STREAMS, 1).centre)
    for words in ("D2H copy", "Stream 1, chunk 1", "Duration 1.00 ms", "Bytes 4 MiB", "Bandwidth 4.19 GB/s",
                  "Host memory pageable", "Waited 0 ms"):  # fmt: skip
        assert words in text
    waiting = scene.describe_at(0.5, _lane(timeline, LaneGroup.STREAMS, 1).centre)
    assert "(waiting)" in waiting and "Waited 1.00 ms" in waiting
    host = scene.describe_at(3.5, _lane(timeline, LaneGroup.HOST, 0).centre)
    assert "Host blocked 1.00 ms" in host and "Issued D2H copy of chunk 1 on stream 1" in host


def test_hover_through_the_mouse(timeline, qtbot):
    from PySide6.QtWidgets import QToolTip

    timeline.set_view(prepare_trace(two_chunk_trace()))
    viewport = timeline._plot.viewport()
    point = viewport.mapFrom(timeline, timeline.map_to_widget(1.5, _lane(timeline, LaneGroup.STREAMS, 0).centre))
    qtbot.mouseMove(viewport, point)
    qtbot.waitUntil(lambda: "Kernel: fma_chain" in QToolTip.text(), timeout=2000)
    assert "Stream 0, chunk 0" in QToolTip.text()
    header_y = timeline.scene_items.layout.groups[1].header_centre
    qtbot.mouseMove(viewport, viewport.mapFrom(timeline, timeline.map_to_widget(1.5, header_y)))
    qtbot.waitUntil(lambda: not QToolTip.isVisible(), timeout=2000)


def test_the_span_tooltip_answers_qts_own_tooltip_request(timeline, qtbot):
    # Once the pointer rests, Qt sends the view a tooltip request (QEvent.ToolTip, only to an
    # active window, so only on a real desktop); the graphics scene, whose items have no
    # tooltips, answered it with an empty one, which hid the span's tooltip.
    from PySide6.QtCore import QEvent
    from PySide6.QtGui import QHelpEvent
    from PySide6.QtWidgets import QApplication, QToolTip

    timeline.set_view(prepare_trace(two_chunk_trace()))
    viewport = timeline._plot.viewport()
    point = viewport.mapFrom(timeline, timeline.map_to_widget(1.5, _lane(timeline, LaneGroup.STREAMS, 0).centre))
    qtbot.mouseMove(viewport, point)
    qtbot.waitUntil(lambda: "Kernel: fma_chain" in QToolTip.text(), timeout=2000)
    QApplication.sendEvent(viewport, QHelpEvent(QEvent.Type.ToolTip, point, viewport.mapToGlobal(point)))
    qtbot.wait(600)  # a tooltip told to hide goes after 300 ms
    assert QToolTip.isVisible()
    assert "Kernel: fma_chain" in QToolTip.text() and "Stream 0, chunk 0" in QToolTip.text()


def test_the_span_tooltip_goes_when_the_spans_move_under_the_pointer(timeline, qtbot):
    from PySide6.QtWidgets import QToolTip

    timeline.set_view(prepare_trace(two_chunk_trace()))
    viewport = timeline._plot.viewport()
    header_y = timeline.scene_items.layout.groups[1].header_centre
    qtbot.mouseMove(viewport, viewport.mapFrom(timeline, timeline.map_to_widget(1.5, header_y)))
    qtbot.waitUntil(lambda: not QToolTip.isVisible(), timeout=2000)  # no tooltip left from before
    point = viewport.mapFrom(timeline, timeline.map_to_widget(1.5, _lane(timeline, LaneGroup.STREAMS, 0).centre))
    qtbot.mouseMove(viewport, point)
    qtbot.waitUntil(lambda: "Kernel: fma_chain" in QToolTip.text(), timeout=2000)
    timeline.zoom_by(4.0)  # by key: the pointer rests, a different instant is under it now
    qtbot.waitUntil(lambda: not QToolTip.isVisible(), timeout=2000)


def test_zoom_and_pan_move_time_only(timeline):
    timeline.set_view(prepare_trace(two_chunk_trace()))
    y_before = timeline._view_box.viewRange()[1]
    t0, t1 = timeline.view_range_ms()
    timeline.zoom_by(2.0)
    z0, z1 = timeline.view_range_ms()
    assert z1 - z0 == pytest.approx((t1 - t0) / 2)
    timeline.pan_by(0.1)
    p0, _p1 = timeline.view_range_ms()
    assert p0 == pytest.approx(z0 + (z1 - z0) * 0.1)
    assert timeline._view_box.viewRange()[1] == y_before
    timeline.reset_view()
    assert timeline.view_range_ms() == pytest.approx((t0, t1))


def test_keys_zoom_and_reset(timeline, qtbot):
    timeline.set_view(prepare_trace(two_chunk_trace()))
    full = timeline.view_range_ms()
    timeline._plot.setFocus()
    qtbot.keyClick(timeline._plot, "+")
    assert timeline.view_range_ms()[1] - timeline.view_range_ms()[0] < full[1] - full[0]
    qtbot.keyClick(timeline._plot, "0")
    assert timeline.view_range_ms() == pytest.approx(full)


def test_time_axis_stays_in_ms_at_any_zoom_without_a_negative_zero(timeline):
    timeline.set_view(prepare_trace(two_chunk_trace()))
    axis = timeline._time_axis
    assert "(ms)" in axis.label.toPlainText()
    timeline.set_view_range_ms(1.0, 1.5)
    assert "(ms)" in axis.label.toPlainText()
    assert axis.tickStrings([-1e-9, 1.05], 1.0, 0.05) == ["0.00", "1.05"]
    assert axis.tickStrings([0.0, 20_000.0], 1.0, 5_000.0) == ["0", "20000"]


def test_highlight_outlines_a_span_in_each_of_its_lanes(timeline):
    timeline.set_view(prepare_trace(two_chunk_trace()))
    timeline.highlight_rows([3, 6])  # chunk 1's H2D (stream and engine lanes) and a host call
    assert timeline.scene_items.highlight_item.count() == 3
    stream1 = _lane(timeline, LaneGroup.STREAMS, 1)
    image = timeline.grab().toImage()
    top = timeline.map_to_widget(1.5, stream1.span_top)
    colours = {image.pixelColor(top.x(), y).name().upper() for y in range(top.y() - 4, top.y() + 2)}
    assert THEMES["light"].foreground.upper() in colours
    timeline.highlight_rows([])
    assert timeline.scene_items.highlight_item.count() == 0


def test_a_4096_chunk_trace_draws_quickly_with_few_rectangles(timeline):
    trace = long_trace(4096)
    started = time.perf_counter()
    timeline.set_view(prepare_trace(trace))
    timeline.grab()
    elapsed = time.perf_counter() - started
    assert elapsed < 1.0
    assert timeline.scene_items.shown_rect_count() < 2 * 1000 * len(timeline.scene_items.layout.lanes)
    timeline.set_view_range_ms(10.0, 10.2)  # zoomed in: the spans of 200 µs come back one by one
    assert 0 < timeline.scene_items.shown_rect_count() < 200


def test_dark_theme_recolours_the_background_not_the_spans(timeline):
    timeline.set_view(prepare_trace(two_chunk_trace()))
    timeline.set_theme(THEMES["dark"])
    stream0 = _lane(timeline, LaneGroup.STREAMS, 0)
    assert _probe(timeline, 0.5, stream0.centre) == KIND_COLOURS[SpanStyle.H2D].upper()
    assert _probe(timeline, 3.5, stream0.centre) == QColor(THEMES["dark"].band).name().upper()


def _wheel(widget, point, steps):
    from PySide6.QtCore import QPoint, QPointF, Qt
    from PySide6.QtGui import QWheelEvent
    from PySide6.QtWidgets import QApplication

    viewport = widget._plot.viewport()
    local = QPointF(viewport.mapFrom(widget, point))
    event = QWheelEvent(
        local, QPointF(viewport.mapToGlobal(local.toPoint())), QPoint(0, 0), QPoint(0, 120 * steps),
        Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False,
    )  # fmt: skip
    QApplication.sendEvent(viewport, event)


def test_the_wheel_zooms_time_around_the_pointer_and_never_the_lanes(timeline):
    timeline.set_view(prepare_trace(two_chunk_trace()))
    y_before = timeline._view_box.viewRange()[1]
    t0, t1 = timeline.view_range_ms()
    _wheel(timeline, timeline.map_to_widget(3.0, 1.0), 2)
    z0, z1 = timeline.view_range_ms()
    assert z1 - z0 < t1 - t0
    assert z0 < 3.0 < z1 and (3.0 - z0) / (z1 - z0) == pytest.approx((3.0 - t0) / (t1 - t0), abs=0.02)
    assert timeline._view_box.viewRange()[1] == y_before


def test_dragging_pans_time_only(timeline, qtbot):
    from PySide6.QtCore import Qt

    timeline.set_view(prepare_trace(two_chunk_trace()))
    timeline.zoom_by(2.0)
    y_before = timeline._view_box.viewRange()[1]
    t0, t1 = timeline.view_range_ms()
    viewport = timeline._plot.viewport()
    start = viewport.mapFrom(timeline, timeline.map_to_widget((t0 + t1) / 2, 5.0))
    qtbot.mousePress(viewport, Qt.MouseButton.LeftButton, pos=start)
    for dx in range(10, 110, 10):
        qtbot.mouseMove(viewport, start + type(start)(dx, 30))
    qtbot.mouseRelease(viewport, Qt.MouseButton.LeftButton, pos=start + type(start)(100, 30))
    p0, p1 = timeline.view_range_ms()
    assert p1 - p0 == pytest.approx(t1 - t0)
    assert p0 < t0  # dragged right: earlier times come into view
    assert timeline._view_box.viewRange()[1] == y_before

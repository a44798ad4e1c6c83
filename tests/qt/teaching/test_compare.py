from dataclasses import replace

import pytest
from export_probes import picture_layout, wrong_pixels
from file_waits import write_and_wait
from PySide6.QtGui import QImage
from qt_traces import two_chunk_trace
from teaching_helpers import (
    H200,
    config_of,
    make_window_fixture,  # noqa: F401 (the make_window fixture)
    run_and_wait,
)

from overlapviz._qt.export.comparison_view import ComparisonPicture
from overlapviz._qt.export.export_view import ExportOptions
from overlapviz._qt.export.image_export import render_image, svg_bytes
from overlapviz._qt.render import render_comparison_png, render_trace_png
from overlapviz.app.pair_run import pageable_vs_pinned
from overlapviz.core.config import HostMemory, PipelineConfig
from overlapviz.presets import get_preset
from overlapviz.session import run_pipeline
from overlapviz.view import deltas
from overlapviz.view.deltas import delta_html, delta_line, delta_rows
from overlapviz.view.formatting import format_duration
from overlapviz.view.prepared import prepare_trace, prepare_view


@pytest.fixture(scope="module")
def pageable_and_pinned():
    return [run_pipeline(PipelineConfig(memory=m), "sim", "h200") for m in ("pageable", "pinned")]


# --- the deltas ------------------------------------------------------------------------------


def test_deltas_say_how_b_differs_from_a(pageable_and_pinned):
    a, b = (r.metrics for r in pageable_and_pinned)
    rows = {row.name: row for row in delta_rows(a, b)}
    assert list(rows) == [
        "Makespan", "Copy time hidden", "Engines busy together", "Efficiency", "Time saved", "Wall", "Host blocked",
        "H2D bandwidth", "D2H bandwidth",
    ]  # fmt: skip
    ratio = a.makespan_ns / b.makespan_ns
    assert rows["Makespan"].change.startswith("\u2212")
    assert rows["Makespan"].change.endswith(f"{ratio:.1f}\u00d7 faster")
    assert rows["Efficiency"].change.startswith("+") and rows["Efficiency"].change.endswith(" points")
    assert rows["Time saved"].a.startswith("none: ") and rows["Time saved"].a.endswith(" slower")
    assert rows["Time saved"].b.endswith(f"({b.speedup:.2f}\u00d7)") and rows["Time saved"].change.startswith("+")
    assert rows["Host blocked"].b == "none" and rows["Host blocked"].change.startswith("\u2212")
    assert rows["H2D bandwidth"].change.startswith("+") and "\u00d7" in rows["H2D bandwidth"].change
    backwards = {row.name: row for row in delta_rows(b, a)}
    assert backwards["Makespan"].change.endswith("slower") and backwards["Makespan"].change.startswith("+")


def test_pinned_memory_hides_the_copies_that_pageable_memory_cannot(pageable_and_pinned):
    a, b = (r.metrics for r in pageable_and_pinned)
    hidden = next(row for row in delta_rows(a, b) if row.name == "Copy time hidden")
    assert a.copy_hidden_pct is not None and a.copy_hidden_pct < 1 and hidden.a == "0 %"
    assert b.copy_hidden_pct is not None and b.copy_hidden_pct > 80
    assert hidden.b == f"{round(b.copy_hidden_pct)} %"
    assert hidden.change == f"+{round(b.copy_hidden_pct)} points"


def _lesson_deltas(name):
    lesson = get_preset(name)
    a, b = (run_pipeline(config, "sim", "h200").metrics for config in lesson.configs)
    rows = {row.name: row for row in delta_rows(a, b)}
    assert rows["Wall"].a == format_duration(a.wall_ns) and rows["Wall"].b == format_duration(b.wall_ns)
    return rows


def test_malloc_against_cudamallochost_shows_the_pinned_program_waiting_longer():
    rows = _lesson_deltas("alloc-cudamallochost-vs-malloc")
    assert rows["Makespan"].change.endswith("faster")  # the pinned copies and kernels win...
    assert rows["Wall"].change.startswith("+") and rows["Wall"].change.endswith("slower")  # ...the program loses


def test_allocating_once_shows_only_in_the_wall_time():
    rows = _lesson_deltas("alloc-once-and-reuse")
    assert rows["Makespan"].change == "same"
    assert rows["Wall"].change.startswith("\u2212") and rows["Wall"].change.endswith("faster")


def test_shares_change_by_the_points_between_the_shares_as_shown(pageable_and_pinned):
    pinned = pageable_and_pinned[1].metrics
    a, b = (replace(pinned, efficiency_pct=pct) for pct in (0.4, 86.6))
    row = next(row for row in delta_rows(a, b) if row.name == "Efficiency")
    assert (row.a, row.b, row.change) == ("0 %", "87 %", "+87 points")
    no_copies = replace(pinned, copy_hidden_pct=None)
    row = next(row for row in delta_rows(no_copies, pinned) if row.name == "Copy time hidden")
    assert row.a == "no copies" and row.change == "\u2014"


def test_deltas_of_a_run_against_itself_are_the_same(pageable_and_pinned):
    m = pageable_and_pinned[1].metrics
    assert {row.change for row in delta_rows(m, m)} == {"same"}


def test_deltas_as_a_line_and_a_table(pageable_and_pinned):
    rows = delta_rows(pageable_and_pinned[0].metrics, pageable_and_pinned[1].metrics)
    assert delta_line(rows).startswith("Makespan ") and " \u2192 " in delta_line(rows)
    table = delta_html(rows, ("A \u00b7 pageable", "B \u00b7 <pinned>"))
    assert table.count("<tr>") == 4 and "B \u00b7 &lt;pinned&gt;" in table
    assert "67.6\u00a0ms" in table  # a number stays with its unit when a narrow table wraps its cells


# --- the comparison in the window ---------------------------------------------------------------


def test_pin_a_change_anything_run_b(make_window, qtbot):
    window = make_window()
    assert not window.teaching.compare.pin_current()
    assert "no run to pin" in window.banner.message()
    a = run_and_wait(qtbot, window)
    window.teaching.actions.pin_a.trigger()
    assert window.compare.is_comparing() and window.teaching.actions.unpin.isEnabled()
    b = run_and_wait(qtbot, window, PipelineConfig(streams=1))
    assert window.compare.side_a().result is a and config_of(b).streams == 1
    assert window.compare.timeline_a.trace is a.trace and window.timeline.trace is b.trace
    assert "A: " in window.compare.caption_a.text() and "B: " in window.compare.caption_b.text()
    assert "Makespan" in window.compare.deltas.text() and "slower" in window.compare.deltas.text()
    window.teaching.actions.unpin.trigger()
    assert not window.compare.is_comparing() and window.compare.timeline_a.isHidden() is False
    assert window.compare.timeline_a.parentWidget().isHidden()


def test_a_and_b_share_one_time_axis(make_window, qtbot):
    window = make_window()
    run_and_wait(qtbot, window, PipelineConfig(memory="pageable", stream_kind="legacy"))
    window.teaching.compare.pin_current()
    run_and_wait(qtbot, window, PipelineConfig())
    a, b = window.compare.timeline_a, window.compare.timeline_b
    qtbot.waitUntil(lambda: a.view_range_ms() == pytest.approx(b.view_range_ms()), timeout=5000)
    assert b.view_range_ms()[1] > 60  # B (6 ms) is drawn on A's 67 ms axis
    assert a.lane_axis_width() > b.lane_axis_width()  # "Legacy default stream" against "Stream 0"
    assert a._lane_axis.width() == b._lane_axis.width()  # so that a time lines up in both
    b.zoom_by(4)
    qtbot.waitUntil(lambda: a.view_range_ms() == pytest.approx(b.view_range_ms(), rel=1e-3), timeout=5000)
    window.teaching.compare.unpin()
    assert b.view_range_ms()[1] < 10  # on its own again


def test_pageable_vs_pinned_is_one_click(make_window, qtbot):
    window = make_window()
    window.model.set_config(PipelineConfig(chunks=8))
    window.teaching.actions.pageable_vs_pinned.trigger()
    qtbot.waitUntil(window.compare.is_comparing, timeout=10_000)
    a, b = window.compare.side_a(), window.shown()
    assert a.label == "pageable" and config_of(a.result).memory is HostMemory.PAGEABLE
    assert config_of(b.result).memory is HostMemory.PINNED and config_of(b.result).chunks == 8
    assert window.controls.config().memory is HostMemory.PINNED  # the controls hold B
    assert "A \u00b7 pageable" in window.compare.caption_a.text()
    assert "B \u00b7 pinned" in window.compare.caption_b.text()


def test_pageable_vs_pinned_drops_the_pageable_only_setting():
    config = PipelineConfig(memory="pageable", fresh_output=True)
    a, b = pageable_vs_pinned(config, H200)
    assert a.config.fresh_output and not b.config.fresh_output and b.config.memory is HostMemory.PINNED


def test_the_comparison_exports_as_one_picture(make_window, qtbot, tmp_path):
    window = make_window()
    window.teaching.compare.pageable_vs_pinned()
    qtbot.waitUntil(window.compare.is_comparing, timeout=10_000)
    assert isinstance(window.current_picture(), ComparisonPicture)
    assert write_and_wait(qtbot, window, lambda: window.files.export_png(tmp_path / "ab.png", ExportOptions()))
    assert write_and_wait(qtbot, window, lambda: window.files.export_svg(tmp_path / "ab.svg", ExportOptions()))
    single = tmp_path / "b.png"
    render_trace_png(window.current_trace(), single)
    exported = QImage(str(tmp_path / "ab.png")).convertToFormat(QImage.Format.Format_ARGB32_Premultiplied)
    assert exported.height() > QImage(str(single)).height() * 1.3
    layout = picture_layout(window.current_picture(), ExportOptions())
    assert {probe.side for probe in layout.probes} == {0, 1} and wrong_pixels(exported, layout) == []
    svg = (tmp_path / "ab.svg").read_text()
    assert "Pageable vs pinned" in svg and "A \u00b7 pageable" in svg and "B \u00b7 pinned" in svg
    run_and_wait(qtbot, window, PipelineConfig(streams=2))  # B is no longer the pair's own
    assert window.current_picture().title == "" and window.current_picture().labels == ("pageable", "")


# --- the comparison picture, headless ------------------------------------------------------------


def test_a_comparison_picture_has_a_caption_per_side_and_the_deltas(pageable_and_pinned):
    views = tuple(prepare_view(r) for r in pageable_and_pinned)
    picture = ComparisonPicture(views, ("pageable", "pinned"), "Pinned wins")
    text = svg_bytes(picture, ExportOptions()).decode().replace("\u00a0", " ")
    for words in ("Pinned wins", "A \u00b7 pageable: 256 MiB", "B \u00b7 pinned: 256 MiB", "Makespan", "faster"):
        assert words in text
    image = render_image(picture, ExportOptions(width=3840, theme="dark"))
    assert image.width() == 3840


def test_render_comparison_png_checks_its_sides(tmp_path):
    with pytest.raises(ValueError, match="two sides"):
        render_comparison_png([two_chunk_trace()], ["only"], tmp_path / "x.png")
    assert not (tmp_path / "x.png").exists()
    path = render_comparison_png([two_chunk_trace(), two_chunk_trace()], ["a", "b"], tmp_path / "x.png", width=1600)
    image = QImage(str(path)).convertToFormat(QImage.Format.Format_ARGB32_Premultiplied)
    assert image.width() == 1600
    picture = ComparisonPicture((prepare_trace(two_chunk_trace()), prepare_trace(two_chunk_trace())), ("a", "b"))
    layout = picture_layout(picture, ExportOptions(width=1600))
    assert {probe.side for probe in layout.probes} == {0, 1} and wrong_pixels(image, layout) == []


def test_a_share_that_moves_by_one_point_says_one_point():
    assert deltas._points_change(10.2, 11.1) == "+1 point"
    assert deltas._points_change(50.0, 48.0) == "\u22122 points"

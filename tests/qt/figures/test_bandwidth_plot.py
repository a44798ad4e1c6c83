import math

import pyqtgraph as pg
import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import qGray
from teaching_helpers import H200, make_window_fixture  # noqa: F401 (the make_window fixture)

from overlapviz._qt.bandwidth.bandwidth_dialog import BandwidthDialog
from overlapviz._qt.bandwidth.bandwidth_plot import BandwidthPlot, series, sweep_title
from overlapviz._qt.teaching.tools import BANDWIDTH_HERE_ONLY
from overlapviz._qt.themes import THEMES
from overlapviz.app.lab_connection import LAB_TARGET, LabSettings
from overlapviz.app.run_targets import RunTarget
from overlapviz.session import BandwidthSweep, sweep_bandwidth


@pytest.fixture(scope="module")
def h200_sweep():
    return sweep_bandwidth("sim", "h200")


def test_the_models_sweep_has_both_directions_three_memories_and_the_link_limit(h200_sweep):
    assert h200_sweep.simulated and h200_sweep.link_peak_gbps == pytest.approx(63.0)
    curves = series(h200_sweep)
    assert set(curves) == {(m, d) for m in ("pinned", "pageable", "write-combined") for d in ("h2d", "d2h")}
    sizes, rates = curves[("pinned", "h2d")]
    assert sizes[0] == 64 * 1024 and sizes[-1] == 1024**3
    assert rates[-1] > 50 > curves[("pageable", "h2d")][1][-1]
    assert sweep_title(h200_sweep) == "NVIDIA H200 (model), simulated (sim backend)"


def test_the_plot_draws_six_curves_on_a_log_size_axis_and_the_limit(qtbot, h200_sweep):
    plot = BandwidthPlot(THEMES["dark"])
    qtbot.addWidget(plot)
    plot.show_sweep(h200_sweep)
    assert len(plot.curves) == 6
    assert plot.plot.getPlotItem().ctrl.logXCheck.isChecked()
    xs, _ys = plot.curves[("pageable", "d2h")].getData()
    assert xs[0] == pytest.approx(math.log10(64 * 1024))  # log-x: the item holds log10(size)
    assert plot.peak_line is not None and plot.peak_line.value() == pytest.approx(63.0)
    assert "theoretical limit 63.0 GB/s" in plot.peak_line.label.toPlainText()
    legend = [label.text for _sample, label in plot.plot.getPlotItem().legend.items]
    assert legend == [
        "H2D, pinned", "H2D, pageable", "H2D, write-combined", "D2H, pinned", "D2H, pageable", "D2H, write-combined",
    ]  # fmt: skip
    assert "simulated" in plot.plot.getPlotItem().titleLabel.text


def test_a_sweep_without_a_known_link_draws_no_limit(qtbot, h200_sweep):
    plot = BandwidthPlot(THEMES["light"])
    qtbot.addWidget(plot)
    bare = BandwidthSweep("cupy", "cuda:0", "Some GPU", False, None, None, h200_sweep.points)
    plot.show_sweep(bare)
    assert plot.peak_line is None and "measured" in plot.plot.getPlotItem().titleLabel.text


def test_the_dialog_sweeps_off_the_gui_thread_and_shows_it(qtbot):
    dialog = BandwidthDialog(H200, THEMES["light"])
    qtbot.addWidget(dialog)
    dialog.sweep()
    qtbot.waitUntil(lambda: dialog.last is not None, timeout=10_000)
    assert "simulated" in dialog.status.text() and len(dialog.plot.curves) == 6
    dialog.close()
    assert not dialog.runner._thread.isRunning()


def test_a_sweep_that_fails_is_said_in_the_dialog(qtbot):
    dialog = BandwidthDialog(RunTarget("sim", "no-such-gpu", "nothing", True), THEMES["light"])
    qtbot.addWidget(dialog)
    dialog.sweep()
    qtbot.waitUntil(lambda: "did not complete" in dialog.status.text(), timeout=10_000)
    assert "no-such-gpu" in dialog.status.text()
    dialog.close()


def test_the_window_opens_the_plot_for_the_chosen_device(make_window, qtbot):
    window = make_window()
    window.teaching.actions.bandwidth.trigger()
    dialog = window.teaching.bandwidth
    assert dialog is not None and dialog.target == window.controls.target()
    qtbot.waitUntil(lambda: dialog.last is not None, timeout=10_000)
    assert dialog.last.device == "h200"


def _strip(plot, memory, between, half_px=9):
    """The colours in a short vertical strip across `memory`'s curves, halfway between two sizes."""
    vb = plot.plot.getPlotItem().vb
    (xs, ys), = [plot.curves[(memory, "h2d")].getData()]
    i, j = (list(xs).index(math.log10(size)) for size in between)
    x, y = (xs[i] + xs[j]) / 2, (ys[i] + ys[j]) / 2
    point = plot.plot.mapFromScene(vb.mapViewToScene(QPointF(x, y)))
    image = plot.plot.grab().toImage()
    return [image.pixelColor(point.x(), point.y() + dy) for dy in range(-half_px, half_px + 1)]


def _greenish(colour):
    return colour.green() > colour.red() + 40


def _pinkish(colour):
    return colour.red() > colour.green() + 40


@pytest.fixture
def drawn(qtbot, h200_sweep):
    plot = BandwidthPlot(THEMES["light"])
    qtbot.addWidget(plot)
    plot.resize(1000, 620)
    plot.show()
    qtbot.waitExposed(plot)
    plot.show_sweep(h200_sweep)
    return plot


def test_h2d_shows_beside_d2h_where_the_two_coincide_also_in_grey(drawn, h200_sweep):
    curves = series(h200_sweep)
    assert curves[("pinned", "h2d")][1][-2:] == pytest.approx(curves[("pinned", "d2h")][1][-2:], rel=1e-3)
    strip = _strip(drawn, "pinned", (256 * 1024**2, 1024**3))
    assert any(map(_greenish, strip)) and any(map(_pinkish, strip))  # the H2D band around the D2H line
    band = [qGray(c.rgb()) for c in strip if _greenish(c)]
    line = [qGray(c.rgb()) for c in strip if _pinkish(c)]
    assert min(band) - max(line) >= 25  # a pale band and a darker line: two greys


def test_pageable_is_dashed_with_hollow_marks_and_pinned_is_solid_with_filled_ones(drawn):
    vb = drawn.plot.getPlotItem().vb
    image = drawn.plot.grab().toImage()

    def along(memory):
        xs, ys = drawn.curves[(memory, "h2d")].getData()
        left, right = (drawn.plot.mapFromScene(vb.mapViewToScene(QPointF(xs[k], ys[k]))) for k in (-3, -2))
        return [image.pixelColor(x, left.y()) for x in range(left.x() + 15, right.x() - 15)]

    background = image.pixelColor(2, 2)
    assert background not in along("pinned")  # solid: the line is unbroken between two marks
    assert background in along("pageable") and any(map(_greenish, along("pageable")))  # dashes and gaps
    brushes = {m: drawn.curves[(m, "h2d")].opts["symbolBrush"] for m in ("pinned", "pageable")}
    assert pg.mkBrush(brushes["pinned"]).color() != pg.mkBrush(brushes["pageable"]).color()


def test_write_combined_runs_dotted_with_diamonds_on_top_of_the_pinned_curve_it_matches(drawn):
    """On the H200 write-combined copies move like pinned ones: its curve must not hide under theirs."""
    pinned, combined = (drawn.curves[(m, "h2d")] for m in ("pinned", "write-combined"))
    others = [drawn.curves[(m, d)] for m in ("pinned", "pageable") for d in ("h2d", "d2h")]
    assert combined.zValue() > max(curve.zValue() for curve in others)
    assert combined.opts["symbol"] == "d" != pinned.opts["symbol"]
    assert combined.opts["pen"].style() == Qt.PenStyle.CustomDashLine
    assert pinned.opts["pen"].style() == Qt.PenStyle.SolidLine
    assert combined.opts["pen"].widthF() < pinned.opts["pen"].widthF()  # a dotted line along the wide band
    vb = drawn.plot.getPlotItem().vb
    image = drawn.plot.grab().toImage()
    xs, ys = combined.getData()
    mark = drawn.plot.mapFromScene(vb.mapViewToScene(QPointF(xs[-2], ys[-2])))
    assert image.pixelColor(mark) == drawn.plot.backgroundBrush().color()  # the diamond's hollow middle shows


def test_on_the_lab_gpu_the_sweep_is_off_and_says_why(make_window, qtbot):
    window = make_window()
    action = window.teaching.actions.bandwidth
    usual_tip = action.toolTip()
    window.lab.set(LabSettings("http://127.0.0.1:1", "ABCD-EFGH"))  # set, so choosing the lab asks nothing
    window.model.set_target(LAB_TARGET)
    assert not action.isEnabled() and action.toolTip() == BANDWIDTH_HERE_ONLY
    assert window.teaching.open_bandwidth() is None and window.teaching.bandwidth is None
    assert window.banner.message() == BANDWIDTH_HERE_ONLY
    window.model.set_target(H200)
    assert action.isEnabled() and action.toolTip() == usual_tip

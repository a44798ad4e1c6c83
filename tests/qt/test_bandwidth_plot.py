import math

import pytest
from teaching_helpers import H200, make_window_fixture  # noqa: F401 (the make_window fixture)

from overlapviz._qt.bandwidth.bandwidth_dialog import BandwidthDialog
from overlapviz._qt.bandwidth.bandwidth_plot import BandwidthPlot, series, sweep_title
from overlapviz._qt.themes import THEMES
from overlapviz.app.run_targets import RunTarget
from overlapviz.session import BandwidthSweep, sweep_bandwidth


@pytest.fixture(scope="module")
def h200_sweep():
    return sweep_bandwidth("sim", "h200")


def test_the_models_sweep_has_both_directions_both_memories_and_the_link_limit(h200_sweep):
    assert h200_sweep.simulated and h200_sweep.link_peak_gbps == pytest.approx(63.0)
    curves = series(h200_sweep)
    assert set(curves) == {(m, d) for m in ("pinned", "pageable") for d in ("h2d", "d2h")}
    sizes, rates = curves[("pinned", "h2d")]
    assert sizes[0] == 64 * 1024 and sizes[-1] == 1024**3
    assert rates[-1] > 50 > curves[("pageable", "h2d")][1][-1]
    assert sweep_title(h200_sweep) == "NVIDIA H200 (model), simulated (sim backend)"


def test_the_plot_draws_four_curves_on_a_log_size_axis_and_the_limit(qtbot, h200_sweep):
    plot = BandwidthPlot(THEMES["dark"])
    qtbot.addWidget(plot)
    plot.show_sweep(h200_sweep)
    assert len(plot.curves) == 4
    assert plot.plot.getPlotItem().ctrl.logXCheck.isChecked()
    xs, _ys = plot.curves[("pageable", "d2h")].getData()
    assert xs[0] == pytest.approx(math.log10(64 * 1024))  # log-x: the item holds log10(size)
    assert plot.peak_line is not None and plot.peak_line.value() == pytest.approx(63.0)
    assert "theoretical limit 63.0 GB/s" in plot.peak_line.label.toPlainText()
    legend = [label.text for _sample, label in plot.plot.getPlotItem().legend.items]
    assert legend == ["H2D, pinned", "H2D, pageable", "D2H, pinned", "D2H, pageable"]
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
    assert "simulated" in dialog.status.text() and len(dialog.plot.curves) == 4
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

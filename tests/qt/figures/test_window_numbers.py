"""The numbers the window shows: the metrics panel's rows and tooltips, and the status bar's caveat."""

import re

import pytest
from PySide6.QtWidgets import QLabel
from qt_traces import kernels_only_trace
from teaching_helpers import make_window_fixture, run_and_wait  # noqa: F401 (the make_window fixture)

from overlapviz._qt.teaching.presentation import TEXT_SCALE
from overlapviz._qt.widgets.metrics_panel import MetricsPanel, metric_texts
from overlapviz.core.analysis.metrics import METRIC_DEFINITIONS, compute_metrics
from overlapviz.core.config import PipelineConfig
from overlapviz.core.run_errors import BackendError
from overlapviz.presets import lessons
from overlapviz.session import run_pipeline
from overlapviz.view.prepared import prepare_trace, prepare_view

ROWS = [
    "makespan", "serial", "time_saved", "copy_hidden", "comm_hidden", "engines_together", "efficiency", "wall",
    "blocked", "h2d_bandwidth", "d2h_bandwidth", "utilisation",
]  # fmt: skip
# The rows whose figure METRIC_DEFINITIONS defines, and the definition each row's tooltip opens with.
DEFINED = {
    "time_saved": "time_saved",
    "copy_hidden": "copy_hidden",
    "comm_hidden": "comm_hidden",
    "engines_together": "engines_together",
    "efficiency": "efficiency",
    "wall": "wall",
}
CAVEAT = "The model's pageable copies follow one host: real pageable times vary with the host's memory system."


@pytest.fixture
def panel(qtbot):
    widget = MetricsPanel()
    qtbot.addWidget(widget)
    return widget


def _label(panel, name):
    found = panel.findChild(QLabel, name)
    assert found is not None, name
    return found


def _texts(config):
    return metric_texts(run_pipeline(config, "sim", "h200").metrics)


def test_the_panel_has_the_new_rows_and_not_the_old_ones(panel):
    titles = sorted(label.objectName() for label in panel.findChildren(QLabel) if label.objectName().endswith("_title"))
    assert titles == sorted(f"{row}_title" for row in ROWS)
    assert set(metric_texts(compute_metrics(kernels_only_trace()))) == set(ROWS)


def test_each_rows_label_and_value_carry_its_definition(panel):
    for row in ROWS:
        title, value = _label(panel, f"{row}_title"), _label(panel, f"{row}_value")
        assert title.toolTip() and value.toolTip() == title.toolTip(), row
        if row in DEFINED:
            assert title.toolTip().splitlines()[0] == METRIC_DEFINITIONS[DEFINED[row]], row
    lower_bound = _label(panel, "efficiency_value").toolTip().splitlines()[1]
    assert lower_bound == f"Lower bound: {METRIC_DEFINITIONS['lower_bound']}"


def test_a_pinned_run_reads_as_time_saved_and_shares(panel):
    result = run_pipeline(PipelineConfig(), "sim", "h200")
    panel.show_results(result.metrics, result.findings)
    m = result.metrics
    assert panel.value_text("time_saved") == f"9.58 ms ({m.speedup:.2f}\u00d7)"
    assert panel.value_text("copy_hidden") == "86 %" and panel.value_text("engines_together") == "89 %"
    assert panel.value_text("efficiency") == "90 %\nlower bound 5.31 ms"
    assert panel.value_text("wall") == "5.93 ms"  # nothing allocated inside the run: no allocating part


def test_a_run_slower_than_back_to_back_saved_nothing():
    texts = _texts(PipelineConfig(memory="pageable"))
    assert texts["time_saved"] == "none: 0.367 ms slower\nthan back to back"
    assert texts["copy_hidden"] == "0 %" and texts["engines_together"] == "0 %"


def test_the_wall_says_how_much_of_it_went_to_allocating():
    texts = _texts(PipelineConfig(host_alloc="per-run"))
    assert re.fullmatch(r"2\d\d\.\d ms\n2\d\d\.\d ms of it allocating", texts["wall"]), texts["wall"]


def test_a_run_without_copies_says_so_rather_than_a_share():
    texts = metric_texts(compute_metrics(kernels_only_trace()))
    assert texts["copy_hidden"] == "no copies" and texts["efficiency"] == "100 %\nlower bound 2.00 ms"


def test_every_share_of_every_lesson_is_between_0_and_100():
    shown = 0
    for lesson in lessons():
        for config, device in zip(lesson.configs, lesson.devices, strict=True):
            try:
                texts = metric_texts(run_pipeline(config, "sim", device or lesson.device or "h200").metrics)
            except BackendError:  # the lesson on pinning too much is refused on purpose: no numbers
                continue
            shown += 1
            for row in ("copy_hidden", "engines_together", "efficiency", "utilisation"):
                for share in re.findall(r"-?\d+(?= ?%)", texts[row]):
                    assert 0 <= int(share) <= 100, (lesson.name, row, texts[row])
    assert shown >= 20


def test_clearing_shows_dashes(panel):
    result = run_pipeline(PipelineConfig(), "sim", "h200")
    panel.show_results(result.metrics, result.findings)
    panel.clear()
    assert {panel.value_text(row) for row in ROWS} == {"\u2014"}


def test_the_status_bar_gives_a_runs_caveat_and_a_pinned_run_has_none(make_window, qtbot):
    window = make_window()
    pinned = run_and_wait(qtbot, window, PipelineConfig())
    assert pinned.trace.meta.caveat is None and CAVEAT not in window.status_label.text()
    pageable = run_pipeline(PipelineConfig(memory="pageable"), "sim", "h200")
    window.show_result(prepare_trace(pageable.trace.with_meta(caveat=CAVEAT), pageable.wall_s))
    assert window.status_label.text().endswith(f"\u00b7  {CAVEAT}")
    assert "simulated" in window.status_label.text()
    window.show_result(prepare_view(pinned))
    assert CAVEAT not in window.status_label.text()


@pytest.mark.parametrize("scale", [1.0, 1.5])
def test_no_metric_is_cut_off_at_1920_by_1080(make_window, qtbot, scale):
    window = make_window()
    window.resize(1920, 1080)
    window.fonts.set_scale(scale)
    run_and_wait(qtbot, window, PipelineConfig(memory="pageable", host_alloc="per-run"))  # the longest values
    labels = [_label(window.metrics, f"{row}_{part}") for row in ROWS for part in ("title", "value")]

    def cut_off():
        shown = [label for label in labels if label.isVisible()]  # communication hidden: only with communication
        return [(label.objectName(), label.text()) for label in shown if label.width() < label.sizeHint().width()]

    qtbot.waitUntil(lambda: not cut_off(), timeout=2_000)  # the new texts lay out (slower on a busy machine)
    assert cut_off() == []


def test_the_comparison_table_never_makes_the_window_wider_than_a_projector(make_window, qtbot):
    window = make_window()
    window.fonts.set_scale(TEXT_SCALE)
    window.teaching.compare.pageable_vs_pinned()
    qtbot.waitUntil(lambda: window.compare.is_comparing() and "Wall" in window.compare.deltas.text(), timeout=10_000)
    qtbot.wait(100)  # let the table lay out
    assert window.minimumSizeHint().width() <= 1280  # the table wraps its cells instead

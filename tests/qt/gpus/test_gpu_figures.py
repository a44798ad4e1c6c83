"""The metrics panel of a trace of several GPUs: a choice of GPU above the figures."""

from PySide6.QtWidgets import QComboBox
from teaching_helpers import make_window_fixture  # noqa: F401 (the make_window fixture)

from overlapviz._qt.widgets.metrics_panel import ROW_NAMES, metric_texts
from overlapviz.app.model import Shown
from overlapviz.core.devices.figures import metrics_per_device
from overlapviz.core.trace.meta import TraceMeta
from overlapviz.session import analyse
from overlapviz.view.prepared import prepare_trace
from tests.core.tracefactory import MS, on_gpus, pipeline_trace

META = TraceMeta(
    backend="file", device="cuda:0,cuda:1", device_name="NVIDIA H200 + NVIDIA A100", timing="nsys",
    device_facts={"copy_engines": 2},
)  # fmt: skip


def two_gpus():
    return on_gpus(pipeline_trace(4, 4, h2d_ns=3 * MS), pipeline_trace(6, 3, kernel_ns=2 * MS), meta=META)


def _shown_texts(panel):
    return {name: panel.value_text(name) for name in ROW_NAMES}


def test_one_gpu_shows_no_choice(panel):
    trace = pipeline_trace(4, 2)
    result = analyse(trace)
    panel.show_results(result.metrics, result.findings, trace)
    assert panel.gpu_titles() == []
    assert _shown_texts(panel) == metric_texts(result.metrics)


def test_several_gpus_show_all_of_them_first_then_one_gpus_figures_and_findings(panel, qtbot):
    trace = two_gpus()
    result = analyse(trace)
    panel.show_results(result.metrics, result.findings, trace)
    assert panel.gpu_titles() == ["All GPUs", "GPU 0 (NVIDIA H200)", "GPU 1 (NVIDIA A100)"]
    assert _shown_texts(panel) == metric_texts(result.metrics)
    with qtbot.waitSignal(panel.finding_selected) as cleared:
        panel.findChild(QComboBox, "gpu_choice").setCurrentIndex(2)  # as the user picks it
    assert len(cleared.args[0]) == 0
    assert _shown_texts(panel) == metric_texts(metrics_per_device(trace)[1])
    assert any(text.startswith("Kernels limit this run") for text in panel.finding_texts())
    with qtbot.waitSignal(panel.finding_selected) as outlined:
        panel.select_finding(0)
    rows = outlined.args[0]
    assert len(rows) and (trace["device"][rows[trace.device_mask[rows]]] == 1).all()
    panel.choose_gpu(None)
    assert _shown_texts(panel) == metric_texts(result.metrics)


def test_clearing_hides_the_choice(panel):
    trace = two_gpus()
    result = analyse(trace)
    panel.show_results(result.metrics, result.findings, trace)
    panel.clear()
    assert panel.gpu_titles() == [] and panel.value_text("makespan") == "\u2014"


def test_the_window_offers_each_gpu_of_a_trace_on_show(make_window):
    window = make_window()
    view = prepare_trace(two_gpus())
    window.model.set_shown(Shown(view))
    window.metrics.choose_gpu(0)
    gpu_0 = metrics_per_device(view.trace)[0]
    assert window.metrics.value_text("makespan") == metric_texts(gpu_0)["makespan"]
    assert window.metrics.value_text("serial") == metric_texts(gpu_0)["serial"] != metric_texts(view.metrics)["serial"]
    assert gpu_0.lower_bound_ns == 12 * MS  # its own H2D engine's busy time

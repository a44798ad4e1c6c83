"""The GPU whose figures the metrics panel shows. No Qt."""

import pytest

from overlapviz.app.gpu_choice import ALL_GPUS, GpuChoice, GpuOption, gpu_options
from overlapviz.core.analysis.metrics import compute_metrics
from overlapviz.core.analysis.time_window import Window, clip_to_window
from overlapviz.core.devices.figures import findings_per_device, metrics_per_device
from overlapviz.core.findings import find_findings
from overlapviz.core.trace.meta import TraceMeta
from tests.core.tracefactory import MS, on_gpus, pipeline_trace

META = TraceMeta(device="cuda:0,cuda:1", device_name="NVIDIA H200 + NVIDIA A100", device_facts={"copy_engines": 2})


def two_gpus():
    return on_gpus(pipeline_trace(4, 4, h2d_ns=3 * MS), pipeline_trace(6, 3, kernel_ns=2 * MS), meta=META)


def shown(choice, trace):
    metrics = compute_metrics(trace)
    choice.show(trace, metrics, find_findings(trace, metrics))
    return metrics


def test_a_trace_of_one_gpu_offers_no_choice_and_shows_its_figures():
    choice, trace = GpuChoice(), pipeline_trace(4, 2)
    metrics = shown(choice, trace)
    assert gpu_options(trace) == () and choice.options == ()
    assert choice.figures().metrics == metrics
    with pytest.raises(ValueError, match="no GPU 0"):
        choice.choose(0)


def test_several_gpus_offer_all_of_them_first_then_each_by_its_name():
    assert gpu_options(two_gpus()) == (
        GpuOption(None, ALL_GPUS), GpuOption(0, "GPU 0 (NVIDIA H200)"), GpuOption(1, "GPU 1 (NVIDIA A100)"),
    )  # fmt: skip


def test_all_gpus_by_default_then_the_chosen_gpus_figures_and_findings():
    choice, trace = GpuChoice(), two_gpus()
    whole = shown(choice, trace)
    assert choice.device is None and choice.figures().metrics == whole
    choice.choose(1)
    figures = choice.figures()
    assert figures.metrics == metrics_per_device(trace)[1] != whole
    assert list(figures.findings) == list(findings_per_device(trace)[1])
    assert [f.code for f in figures.findings] == ["kernel-bound"]
    choice.choose(None)
    assert choice.figures().metrics == whole


def test_the_choice_holds_for_a_part_of_the_trace_and_falls_back_where_the_gpu_is_missing():
    choice, trace = GpuChoice(), two_gpus()
    shown(choice, trace)
    choice.choose(1)
    part = clip_to_window(trace, Window(MS, 3 * MS))
    shown(choice, part)
    assert choice.device == 1 and choice.figures().metrics == metrics_per_device(part)[1]
    one = pipeline_trace(4, 2)
    assert shown(choice, one) == choice.figures().metrics and choice.device is None


def test_nothing_on_show_has_no_figures_and_offers_nothing():
    choice = GpuChoice()
    assert choice.figures() is None
    shown(choice, two_gpus())
    choice.clear()
    assert choice.figures() is None and choice.options == ()

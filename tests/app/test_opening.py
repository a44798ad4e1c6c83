"""Where a trace opens (its GPU work, or whole), the window the command line gives, the title. No Qt."""

from pathlib import Path

import pytest

from overlapviz.app.main_window_title import window_title
from overlapviz.app.model import Pinned, Shown
from overlapviz.app.pair_run import Side
from overlapviz.app.session_file import open_file
from overlapviz.app.time_window import TimeWindow, cut_trace, text_window, trace_window
from overlapviz.core.analysis.time_window import Window, WindowError
from overlapviz.core.config import HostAlloc, PipelineConfig
from overlapviz.session import run_pipeline
from overlapviz.view.opening import (
    MARGIN,
    device_work_ms,
    device_work_ns,
    opening_ms,
    opening_note,
    pair_opening_ms,
)
from overlapviz.view.prepared import prepare_trace

DATA = Path(__file__).parent.parent / "data"
NSYS = DATA / "nsys" / "test-cuda-2026.1-pinned-streams.sqlite.gz"
NSYS_UVM = DATA / "nsys" / "balinski-gomory-2025.5-pageable-uvm.sqlite.gz"
TRAIN_STEP = DATA / "torch" / "torch-train-step.json.gz"
DATALOADER = DATA / "torch" / "torch-dataloader.json.gz"
ALEXNET = DATA / "torch-real" / "hta-alexnet-stream-wait.json.gz"  # 30 s of host before 13 s of GPU work
RESNET_2021 = DATA / "torch-real" / "kineto-2021.6-resnet50-capitalised.json.gz"


def _trace(path):
    return open_file(path).trace


def _end_ms(trace):
    return float(trace["end_ns"].max()) / 1e6


@pytest.mark.parametrize("path", [NSYS, NSYS_UVM, TRAIN_STEP, DATALOADER, ALEXNET, RESNET_2021])
def test_another_tools_trace_opens_on_its_gpu_work_with_a_small_margin(path):
    trace = _trace(path)
    device = trace.device_mask
    first, last = trace["start_ns"][device].min() / 1e6, trace["end_ns"][device].max() / 1e6
    assert device_work_ns(trace) == (trace["start_ns"][device].min(), trace["end_ns"][device].max())
    start, end = opening_ms(trace)
    pad = (last - first) * MARGIN
    assert start == pytest.approx(max(first - pad, 0.0)) and end == pytest.approx(min(last + pad, _end_ms(trace)))
    assert 0.0 <= start < first and last <= end <= _end_ms(trace)


def test_a_sliver_of_gpu_work_fills_the_opening_view():
    trace = _trace(NSYS)  # 1.1 s recorded, about 0.1 s of copies and kernels near the end
    start, end = opening_ms(trace)
    assert (end - start) < 0.11 * _end_ms(trace)
    assert start > 850.0 and end < 960.0
    note = opening_note(trace)
    assert note == f"Showing the GPU work, {start:.3f} to {end:.3f} ms of a 1100.7 ms trace"


@pytest.mark.parametrize(
    "config", [PipelineConfig(), PipelineConfig(memory="pageable"), PipelineConfig(host_alloc=HostAlloc.PER_RUN)]
)
def test_overlapvizs_own_runs_open_whole(config):
    trace = run_pipeline(config, "sim", "h200").trace
    assert opening_ms(trace) is None and opening_note(trace) == ""
    start, end = device_work_ms(trace)  # what View > Zoom to GPU work shows of it
    if config.host_alloc is HostAlloc.PER_RUN:  # the host spends most of the run before its first copy ...
        assert start > 0.5 * _end_ms(trace)  # ... which opening whole keeps in view
    else:  # host and device work coincide: whole or not makes no difference
        assert start < 0.01 * _end_ms(trace) and end == pytest.approx(_end_ms(trace), rel=0.01)


def test_a_trace_cut_to_a_window_opens_on_its_window_and_one_without_device_ops_whole():
    trace = _trace(TRAIN_STEP)
    cut = cut_trace(trace, text_window(trace, "step 1"))
    assert opening_ms(cut) is None
    hosts_only = cut_trace(trace, TimeWindow(Window(0, 1_000_000)))  # the first ms: Python, no GPU work yet
    assert not hosts_only.device_mask.any() and device_work_ms(hosts_only) is None


def test_stacked_timelines_open_on_every_sides_opening():
    nsys, train = _trace(NSYS), _trace(TRAIN_STEP)
    run = run_pipeline(PipelineConfig(), "sim", "h200").trace
    assert pair_opening_ms([run, run]) is None
    both = pair_opening_ms([train, nsys])
    assert both == (opening_ms(train)[0], opening_ms(nsys)[1])
    with_run = pair_opening_ms([run, nsys])  # a run that opens whole counts whole
    assert with_run == (0.0, opening_ms(nsys)[1])


def test_the_command_lines_window_is_a_span_in_ms_or_a_ranges_name():
    trace = _trace(TRAIN_STEP)
    assert text_window(trace, "2:4.5") == TimeWindow(Window(2_000_000, 4_500_000))
    assert text_window(trace, "10:").window == Window(10_000_000, int(trace["end_ns"].max()))
    step = text_window(trace, "step 1")
    assert step.name == "step 1" and step.window.end_ns > step.window.start_ns
    cut = cut_trace(trace, step)
    assert trace_window(cut) == step  # the caption names it
    assert cut["start_ns"].min() >= step.window.start_ns and cut["end_ns"].max() <= step.window.end_ns


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("5:2", "the window 5:2 is empty: it must end after it starts"),
        ("3:3", "is empty"),
        ("a:b", "'a:b' is not START:END in ms (e.g. 2:4.5 or 10:); as a name: no range is named 'a:b'; the trace has"),
        ("ProfilerStep#3", "no range is named 'ProfilerStep#3'; the trace has 'step 0', "),
        ("step 1#4", "there is 1 range named 'step 1', so none is #4"),
    ],
)
def test_a_window_that_cannot_be_says_why(text, words):
    with pytest.raises(WindowError) as raised:
        text_window(_trace(TRAIN_STEP), text)
    assert words in str(raised.value) and "\n" not in str(raised.value)


def test_the_title_names_the_file_on_show(tmp_path):
    trace = _trace(TRAIN_STEP)
    view = prepare_trace(trace)
    run = prepare_trace(run_pipeline(PipelineConfig(), "sim", "h200").trace)
    assert window_title(None, None) == "overlapviz"
    assert window_title(Shown(run), None) == "overlapviz"  # a run, as the title always said
    assert window_title(Shown(view, TRAIN_STEP), None) == "torch-train-step.json.gz \u2014 overlapviz"
    pinned_file = Pinned(Side(view, "train", TRAIN_STEP))
    assert window_title(Shown(run), pinned_file) == "A: torch-train-step.json.gz \u2014 overlapviz"
    both = window_title(Shown(view, NSYS, "B"), pinned_file)
    assert both == f"A: torch-train-step.json.gz \u00b7 B: {NSYS.name} \u2014 overlapviz"
    assert window_title(Shown(run), Pinned(Side(run, "a"))) == "overlapviz"

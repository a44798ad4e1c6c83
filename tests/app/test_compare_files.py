"""Comparing files with files and with runs, lined up at their first device ops; time windows. No Qt."""

from pathlib import Path

import numpy as np
import pytest

from overlapviz.app.aligning import first_device_ns, pair_shifts, shifted_trace
from overlapviz.app.session_file import open_file
from overlapviz.app.time_window import trace_window
from overlapviz.core.trace.spans import UNKNOWN
from overlapviz.view.prepared import prepare_trace

DATA = Path(__file__).parent.parent / "data"
PAGEABLE = DATA / "torch" / "torch-pageable.json.gz"
PINNED = DATA / "torch" / "torch-pinned.json.gz"
TRAIN_STEP = DATA / "torch" / "torch-train-step.json.gz"
NSYS = DATA / "nsys" / "test-cuda-2026.1-pinned-streams.sqlite.gz"


def _open(app, path):
    data = open_file(path)
    app.show_loaded(data, prepare_trace(data.trace), path)
    app.executor.run_all()  # lining up, when it needs a side drawn again
    return app.model.shown


def _run(app):
    app.run()
    app.executor.run_all()
    app.executor.run_all()  # lining up, when the run must be drawn again
    return app.model.shown


def _first(view):
    return first_device_ns(view.trace)


def test_a_file_against_a_run_lines_up_at_the_first_device_ops(app):
    run = _run(app)
    assert app.compare.pin_current()
    shown = _open(app, PAGEABLE)
    pinned = app.model.pinned
    a_first, file_first = _first(run.view), _first(shown.own_view)
    assert file_first > a_first * 100  # the profiler recorded Python long before the first copy
    assert _first(pinned.view) == _first(shown.view) == file_first  # both start their GPU work together
    assert pinned.shift_ns == file_first - a_first and shown.shift_ns == 0 and shown.view is shown.own_view
    assert pinned.a.view is run.view  # A as pinned keeps its own times
    assert pinned.view.metrics is run.view.metrics  # moving a run changes no figure
    assert shown.label == "torch-pageable.json.gz" and shown.source == PAGEABLE
    assert app.messages.notices[-1] == "torch-pageable.json.gz is B, against the pinned run as A"


def test_a_run_against_a_pinned_file_moves_the_run_and_a_new_run_lines_up_again(app):
    file_view = _open(app, PINNED).view
    assert app.compare.pin_current()
    assert app.model.pinned.a.label == "torch-pinned.json.gz" and app.model.pinned.a.source == PINNED
    first = _run(app)
    assert _first(first.view) == _first(file_view) and first.shift_ns == _first(file_view) - _first(first.unshifted)
    assert app.model.pinned.drawn is None and app.model.pinned.view is file_view
    assert first.view.metrics is first.unshifted.metrics
    second = _run(app)
    assert second.view is not first.view and _first(second.view) == _first(file_view)
    # Pinning the moved B pins it in its own times.
    assert app.compare.pin_current()
    assert app.model.pinned.a.view is second.unshifted


def test_two_files_line_up_and_are_each_named(app):
    a = _open(app, PAGEABLE)
    assert app.compare.pin_current()
    b = _open(app, NSYS)
    pinned = app.model.pinned
    assert _first(pinned.view) == _first(b.view)
    assert pinned.a.label == "torch-pageable.json.gz" and b.label == NSYS.name
    assert pinned.a.view is a.view and sorted([pinned.shift_ns, b.shift_ns])[0] == 0


def test_two_runs_share_their_start_as_before(app):
    _run(app)
    app.compare.pin_current()
    shown = _run(app)
    assert app.model.pinned.drawn is None and shown.shift_ns == 0 and shown.unshifted is None


def test_moving_a_trace_moves_every_known_time_and_no_unknown_one():
    trace = open_file(TRAIN_STEP).trace
    moved = shifted_trace(trace, 5_000)
    for name in ("enqueue_ns", "ready_ns", "start_ns", "end_ns"):
        known = trace[name] != UNKNOWN
        assert (moved[name][known] == trace[name][known] + 5_000).all()
        assert (moved[name][~known] == UNKNOWN).all()
    assert pair_shifts(trace, moved) == (5_000, 0) and pair_shifts(moved, trace) == (0, 5_000)


def test_a_named_range_is_the_window_of_the_figures_and_the_whole_trace_comes_back(app):
    whole = _open(app, TRAIN_STEP)
    assert app.windows.choose_range("step 1")
    app.executor.run_all()
    cut = app.model.shown
    window = app.model.time_window
    assert window is not None and window.name == "step 1" and cut.whole is whole.view
    assert cut.source == TRAIN_STEP
    trace = cut.view.trace
    assert trace["start_ns"].min() >= window.window.start_ns and trace["end_ns"].max() <= window.window.end_ns
    assert len(trace) < len(whole.view.trace)
    assert cut.view.metrics.makespan_ns < whole.view.metrics.makespan_ns
    assert trace_window(trace) == window  # what the export's caption reads
    assert window.describe().startswith("step 1, ")
    # Another range is cut from the whole trace, not from the window on show.
    assert app.windows.choose_range("step 2")
    app.executor.run_all()
    assert app.model.shown.whole is whole.view and app.model.time_window.name == "step 2"
    app.windows.whole_trace()
    assert app.model.shown.view is whole.view and app.model.time_window is None


def test_a_window_that_cannot_be_is_said_and_changes_nothing(app):
    shown = _open(app, TRAIN_STEP)
    assert not app.windows.choose_range("ProfilerStep#9")
    assert app.messages.error.startswith("Time window: no range is named 'ProfilerStep#9'; the trace has 'step 0'")
    assert not app.windows.choose_span(3.0, 3.0)
    assert "empty" in app.messages.error
    assert app.windows.choose_span(1e8, 2e8)  # long after the trace's end: nothing in it
    app.executor.run_all()
    assert app.messages.error.startswith("Time window: no span of the trace lies in the window")
    assert app.model.shown is shown


def test_the_span_on_show_can_be_the_window(app):
    whole = _open(app, TRAIN_STEP).view
    t0, t1 = whole.end_ms * 0.5, whole.end_ms * 0.25
    assert app.windows.choose_span(t0, t1)
    app.executor.run_all()
    window = app.model.time_window
    assert window.name == "" and window.window.start_ns == round(t1 * 1e6)
    assert np.all(app.model.shown.view.trace["end_ns"] <= window.window.end_ns)


def test_a_new_run_starts_whole(app):
    _open(app, TRAIN_STEP)
    app.windows.choose_range("step 0")
    app.executor.run_all()
    assert app.model.time_window is not None
    shown = _run(app)
    assert shown.window is None and app.model.time_window is None


@pytest.mark.parametrize("path", [PAGEABLE, NSYS])
def test_every_side_of_a_real_file_has_a_first_device_op(path):
    assert first_device_ns(open_file(path).trace) is not None

"""Time windows while comparing (a span of the shared axis, a named range of each side) and a dragged span. No Qt."""

import numpy as np
import pytest
from test_compare_files import PAGEABLE, PINNED, TRAIN_STEP, _open, _run

from overlapviz.app.session_file import open_file
from overlapviz.app.time_window import (
    TimeWindow,
    lacking_note,
    pair_range_windows,
    span_label,
    trace_window,
    window_choices,
    window_status,
)
from overlapviz.core.analysis.time_window import Window, clip_to_window
from overlapviz.core.analysis.time_window_names import range_names, range_window


def _compare(app, a_path, b_path):
    a = _open(app, a_path)
    assert app.compare.pin_current()
    b = _open(app, b_path)
    assert app.model.pinned.a.view is a.view and b.source == b_path
    return app.model.pinned, app.model.shown


def _ms(ns):
    return ns / 1e6


def _within(view, window):
    trace = view.trace
    return trace["start_ns"].min() >= window.start_ns and trace["end_ns"].max() <= window.end_ns


def test_a_span_while_comparing_cuts_both_sides_to_the_same_span_of_the_shared_axis(app):
    pinned, shown = _compare(app, PAGEABLE, PINNED)
    assert shown.shift_ns > 0 and pinned.shift_ns == 0  # B is drawn later, to start with A
    t0, t1 = _ms(shown.view.trace["start_ns"].min()) + 1.0, _ms(shown.view.trace["start_ns"].min()) + 3.0
    assert app.windows.choose_span(t1, t0)  # dragged right to left
    app.executor.run_all()
    a, b = app.model.pinned, app.model.shown
    window = Window(round(t0 * 1e6), round(t1 * 1e6))
    assert a.window == b.window == TimeWindow(window)
    assert a.view is a.cut and a.lined_up is pinned.view and b.whole is shown.view
    assert _within(a.view, window) and _within(b.view, window)
    assert trace_window(a.view.trace) == trace_window(b.view.trace) == TimeWindow(window)  # the captions' window
    # B's cut is the same part of B as its own times cut `shift_ns` earlier: the span of the shared axis.
    own = clip_to_window(shown.unshifted.trace, Window(window.start_ns - b.shift_ns, window.end_ns - b.shift_ns))
    assert len(own) == len(b.view.trace)
    assert np.array_equal(own["end_ns"] - own["start_ns"], b.view.trace["end_ns"] - b.view.trace["start_ns"])
    assert a.view.metrics.makespan_ns < pinned.view.metrics.makespan_ns
    assert b.view.metrics.makespan_ns <= window.end_ns - window.start_ns
    assert window_status(b.window, a.window, comparing=True) == f"Window (A and B): {window.describe()}"


def test_a_named_range_while_comparing_is_each_sides_own_range(app):
    pinned, shown = _compare(app, PAGEABLE, PINNED)
    assert app.windows.choose_range("chunk 2")
    app.executor.run_all()
    a, b = app.model.pinned, app.model.shown
    assert a.window.window == range_window(pinned.lined_up.trace, "chunk 2")
    assert b.window.window == range_window(shown.view.trace, "chunk 2")
    assert a.window != b.window  # the two programs ran their chunk 2 at different times
    assert _within(a.view, a.window.window) and _within(b.view, b.window.window)
    assert a.window.name == b.window.name == "chunk 2" and app.messages.notices[-1].endswith("as A")  # no note
    status = window_status(b.window, a.window, comparing=True)
    assert status == f"Window: A {a.window.describe()}; B {b.window.describe()}"


def test_a_range_only_one_side_has_cuts_that_side_and_says_so(app):
    pinned, shown = _compare(app, TRAIN_STEP, PINNED)
    assert "step 1" in range_names(pinned.lined_up.trace) and "step 1" not in range_names(shown.view.trace)
    assert app.windows.choose_range("step 1")
    assert app.messages.notices[-1] == "B has no range named 'step 1': B's figures are of its whole run"
    app.executor.run_all()
    a, b = app.model.pinned, app.model.shown
    assert a.window.name == "step 1" and a.view is a.cut
    assert b is shown and b.window is None  # B as it was: whole
    assert window_status(b.window, a.window, comparing=True) == f"Window: A {a.window.describe()}; B whole run"


def test_a_range_neither_side_has_is_said_and_changes_nothing(app):
    pinned, shown = _compare(app, PAGEABLE, PINNED)
    assert not app.windows.choose_range("step 1")
    assert app.messages.error == "Time window: neither A nor B has a range named 'step 1'"
    assert app.executor.pending == [] and app.model.pinned is pinned and app.model.shown is shown


def test_a_span_with_nothing_of_one_side_is_said_and_changes_nothing(app):
    pinned, shown = _compare(app, PINNED, PAGEABLE)  # A's run ends long before B's
    a_end = _ms(pinned.view.trace["end_ns"].max())
    assert app.windows.choose_span(a_end + 5.0, a_end + 10.0)
    app.executor.run_all()
    assert app.messages.error.startswith("Time window: A: no span of the trace lies in the window ")
    assert app.model.pinned is pinned and app.model.shown is shown


def test_whole_trace_while_comparing_puts_both_sides_back(app):
    pinned, shown = _compare(app, PAGEABLE, PINNED)
    app.windows.choose_range("chunk 1")
    app.executor.run_all()
    app.windows.whole_trace()
    a, b = app.model.pinned, app.model.shown
    assert a.window is None and a.cut is None and a.view is pinned.view
    assert b.window is None and b.view is shown.view
    assert window_status(b.window, a.window, comparing=True) == ""


def test_a_new_run_against_a_cut_pair_puts_both_back_whole(app):
    _run(app)
    app.compare.pin_current()
    _run(app)
    end = app.model.shown.view.end_ms
    assert app.windows.choose_span(end * 0.25, end * 0.75)
    app.executor.run_all()
    assert app.model.pinned.window is not None and app.model.shown.window is not None
    _run(app)
    assert app.model.pinned.window is None and app.model.pinned.cut is None and app.model.shown.window is None


def test_a_pair_of_runs_is_cut_alike(app):
    assert app.compare.pageable_vs_pinned()
    app.executor.run_all()
    a, b = app.model.pinned, app.model.shown
    assert a.shift_ns == b.shift_ns == 0
    assert app.windows.choose_span(0.5, 2.0)
    app.executor.run_all()
    assert app.model.pinned.window == app.model.shown.window == TimeWindow(Window(500_000, 2_000_000))
    assert app.model.pinned.view.metrics.makespan_ns <= 1_500_000


def test_a_cut_that_arrives_after_whole_trace_or_a_new_file_is_dropped(app):
    shown = _open(app, TRAIN_STEP)
    assert app.windows.choose_span(2.0, 5.0)
    app.windows.whole_trace()  # Esc before the cut came back
    app.executor.run_all()
    assert app.model.shown is shown and app.model.time_window is None
    assert app.windows.choose_range("step 1")
    other = _open(app, PINNED)  # a file opened while the cut was on its way
    app.executor.run_all()
    assert app.model.shown is other and app.model.time_window is None
    assert app.windows.choose_range("chunk 1")
    app.compare.pin_current()  # comparing began meanwhile: a cut of one run is not the pair's
    app.executor.run_all()
    assert app.model.shown is other and app.model.pinned.window is None


def test_a_window_is_no_step_of_undo_whether_picked_or_dragged(app):
    _open(app, TRAIN_STEP)
    history = app.runs.history
    before = (history.can_undo, history.can_redo)
    changes = []
    history.changed.connect(lambda _none: changes.append(1))
    app.windows.choose_range("step 1")
    app.executor.run_all()
    app.windows.choose_span(1.0, 4.0)
    app.executor.run_all()
    assert app.model.time_window.name == ""
    assert (history.can_undo, history.can_redo) == before and changes == []
    app.windows.whole_trace()
    assert changes == []


def test_the_menu_offers_both_sides_ranges_the_first_sides_first():
    b = _open_trace(PINNED)
    a = _open_trace(TRAIN_STEP)
    names = window_choices(b, a)
    assert tuple(names[: len(range_names(b))]) == range_names(b)[: len(names)]
    assert "step 1" in names and len(names) == len(set(names))


def _open_trace(path):
    return open_file(path).trace


def test_pair_range_windows_and_the_note_for_a_side_without_the_range():
    a, b = _open_trace(TRAIN_STEP), _open_trace(PINNED)
    windows = pair_range_windows(a, b, "step 2")
    assert windows[0] is not None and windows[0].name == "step 2" and windows[1] is None
    assert lacking_note(windows, "step 2") == "B has no range named 'step 2': B's figures are of its whole run"
    assert lacking_note(pair_range_windows(b, b, "chunk 0"), "chunk 0") == ""
    with pytest.raises(ValueError, match="neither A nor B has a range named 'nope'"):
        pair_range_windows(a, b, "nope")


def test_the_status_and_the_band_say_which_times():
    step = TimeWindow(Window(6_654_000, 9_546_000), "step 1")
    assert window_status(None) == "" and window_status(step) == "Window: step 1, 6.654 to 9.546 ms"
    assert window_status(None, None, comparing=True) == ""
    assert window_status(None, step, comparing=True) == "Window: A step 1, 6.654 to 9.546 ms; B whole run"
    assert span_label(9.546, 6.654) == "6.654 to 9.546 ms (2.89 ms)"
    assert span_label(1.0, 1.0002) == "1.000 to 1.000 ms (200 ns)"

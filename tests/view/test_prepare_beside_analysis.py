"""A big trace is drawn on a second thread while it is analysed: the same view, no thread left, cancellable."""

import threading

import numpy as np
import pytest

from overlapviz.core.cancel import CancelToken
from overlapviz.core.config import PipelineConfig
from overlapviz.core.run_errors import RunCancelled
from overlapviz.session import run_pipeline
from overlapviz.view import prepared
from overlapviz.view.prepared import prepare_trace

DRAW_THREAD = "overlapviz-draw"


@pytest.fixture(scope="module")
def trace():
    return run_pipeline(PipelineConfig(memory="pageable"), "sim", "h200").trace  # with a finding and its callout


def _drawing_threads(monkeypatch):
    """The names of the threads that draw a trace from now on, as they draw."""
    threads: list[str] = []
    draw = prepared.draw_trace

    def recorded(*args, **kwargs):
        threads.append(threading.current_thread().name)
        return draw(*args, **kwargs)

    monkeypatch.setattr(prepared, "draw_trace", recorded)
    return threads


@pytest.fixture
def drawn_beside(monkeypatch):
    """Every trace counts as big, on two cores; the names of the threads that drew."""
    monkeypatch.setattr(prepared, "DRAW_BESIDE_MIN_SPANS", 1)
    monkeypatch.setattr(prepared, "usable_cores", lambda: 2)
    return _drawing_threads(monkeypatch)


def _draw_threads_alive():
    return [t.name for t in threading.enumerate() if t.name.startswith(DRAW_THREAD)]


def test_a_big_trace_is_drawn_on_a_thread_of_its_own_and_that_thread_ends(trace, drawn_beside):
    prepare_trace(trace)
    assert len(drawn_beside) == 1 and drawn_beside[0].startswith(DRAW_THREAD)
    assert _draw_threads_alive() == []


def test_a_small_trace_is_drawn_after_its_analysis_on_the_callers_thread(trace, monkeypatch):
    monkeypatch.setattr(prepared, "DRAW_BESIDE_MIN_SPANS", len(trace) + 1)
    threads = _drawing_threads(monkeypatch)
    prepare_trace(trace)
    assert threads == [threading.current_thread().name]


def test_on_one_core_a_big_trace_is_drawn_after_its_analysis(trace, drawn_beside, monkeypatch):
    monkeypatch.setattr(prepared, "usable_cores", lambda: 1)
    prepare_trace(trace)
    assert drawn_beside == [threading.current_thread().name]


def test_drawn_beside_or_after_the_analysis_the_view_is_the_same(trace, monkeypatch):
    after = prepare_trace(trace)
    monkeypatch.setattr(prepared, "DRAW_BESIDE_MIN_SPANS", 1)
    monkeypatch.setattr(prepared, "usable_cores", lambda: 2)
    beside = prepare_trace(trace)
    assert beside.metrics == after.metrics and beside.findings == after.findings
    assert beside.callouts == after.callouts and len(after.callouts) == 1 and beside.end_ms == after.end_ms
    assert [(lane.key, lane.rows.tolist()) for lane in beside.lanes] == [
        (lane.key, lane.rows.tolist()) for lane in after.lanes
    ]
    assert beside.span_sets.keys() == after.span_sets.keys()
    for key, sets in after.span_sets.items():
        for one, other in zip(sets, beside.span_sets[key], strict=True):
            assert np.array_equal(one.starts, other.starts) and np.array_equal(one.rows, other.rows)
    assert np.array_equal(beside.blocked_ns, after.blocked_ns)


def test_a_cancelled_open_of_a_big_trace_stops_and_leaves_no_thread(trace, drawn_beside):
    token = CancelToken()
    token.cancel()
    with pytest.raises(RunCancelled):
        prepare_trace(trace, cancel=token)
    assert _draw_threads_alive() == []


def test_an_analysis_that_fails_still_waits_for_the_drawing(trace, drawn_beside, monkeypatch):
    def failing(*args):
        raise ValueError("no metrics")

    monkeypatch.setattr(prepared, "analyse", failing)
    with pytest.raises(ValueError, match="no metrics"):
        prepare_trace(trace)
    assert _draw_threads_alive() == []

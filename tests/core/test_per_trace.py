import gc
import weakref

import numpy as np
import pytest
from tracefactory import pipeline_trace

from overlapviz.core.analysis.metrics import host_blocked_per_row, issuing_calls
from overlapviz.core.trace.answer_cache import kept_per_trace, once_per_trace
from overlapviz.core.trace.frozen_columns import distinct


def test_an_answer_is_worked_out_once_per_trace_and_read_only():
    asked = []

    @once_per_trace
    def durations(trace):
        asked.append(trace)
        return trace.duration_ns

    first, second = pipeline_trace(4, 2), pipeline_trace(8, 2)
    assert durations(first) is durations(first)
    assert durations(second).tolist() == second.duration_ns.tolist()
    assert asked == [first, second]
    with pytest.raises(ValueError, match="read-only"):
        durations(first)[0] = 0


def test_an_answer_goes_with_its_trace():
    made = []

    @once_per_trace
    def rows(trace):
        answer = np.arange(len(trace))
        made.append(weakref.ref(answer))
        return answer

    assert rows(pipeline_trace(4, 2)).size
    gc.collect()
    assert made[0]() is None


def test_the_host_questions_of_the_analysis_are_answered_once():
    trace = pipeline_trace(8, 2, memory="pageable")
    assert host_blocked_per_row(trace) is host_blocked_per_row(trace)
    assert issuing_calls(trace) is issuing_calls(trace)
    assert not host_blocked_per_row(trace).flags.writeable


@pytest.mark.parametrize(
    "values", [[], [3], [2, 2, 2], [5, -1, 3, 5, -1, 0], np.random.default_rng(0).integers(0, 50, 1000)]
)
def test_distinct_is_numpys_unique(values):
    array = np.asarray(values, dtype=np.int64)
    assert distinct(array).tolist() == np.unique(array).tolist()


def test_a_kept_answer_is_worked_out_once_per_trace_and_goes_with_it():
    asked = []

    class Summary:
        def __init__(self, rows):
            self.rows = rows

    @kept_per_trace
    def summary(trace):
        asked.append(len(trace))
        return Summary(len(trace))

    first = pipeline_trace(4, 2)
    assert summary(first) is summary(first)
    assert asked == [len(first)]
    kept = weakref.ref(summary(pipeline_trace(8, 2)))
    gc.collect()
    assert kept() is None

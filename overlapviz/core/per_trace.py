"""Per-row arrays worked out once per trace, however many rules and views read them.

An analysis asks the same questions of a trace many times: which host calls issued an op,
how long each waited for it (the metrics, three findings and the timeline's tooltips and
blocked spans all read that). On 10^6 spans each answer is tens of milliseconds of numpy
work, so `once_per_trace` keeps it beside the trace it came from. A trace's columns are
read-only, so an answer never goes stale; the answers are read-only too, so no reader can
change what the next one sees. They are kept only while the trace itself is.
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Callable
from typing import Any, TypeVar

import numpy.typing as npt

from overlapviz.core.trace import Trace

Answer = TypeVar("Answer", bound=npt.NDArray[Any])


def once_per_trace(question: Callable[[Trace], Answer]) -> Callable[[Trace], Answer]:
    """`question`, answered once per trace object and then read back, read-only."""
    answers: weakref.WeakKeyDictionary[Trace, Answer] = weakref.WeakKeyDictionary()

    @functools.wraps(question)
    def answered(trace: Trace) -> Answer:
        answer = answers.get(trace)
        if answer is None:
            answer = question(trace)
            answer.flags.writeable = False
            answers[trace] = answer
        return answer

    return answered

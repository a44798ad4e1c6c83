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

from overlapviz.core.trace.spans import Trace

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


Value = TypeVar("Value")


def kept_per_trace(question: Callable[[Trace], Value]) -> Callable[[Trace], Value]:
    """`question`, answered once per trace object and then read back as it is.

    For answers that are not arrays (a mapping of figures, say): their type must keep readers
    from changing them, since every later reader gets the same object.
    """
    answers: weakref.WeakKeyDictionary[Trace, Value] = weakref.WeakKeyDictionary()

    @functools.wraps(question)
    def answered(trace: Trace) -> Value:
        if trace not in answers:
            answers[trace] = question(trace)
        return answers[trace]

    return answered


Key = TypeVar("Key")


def kept_per_trace_and_key(question: Callable[[Trace, Key], Value]) -> Callable[[Trace, Key], Value]:
    """`question`, answered once per trace object and key (a hashable) and then read back as it is.

    As with `kept_per_trace`, the answer's type must keep readers from changing it.
    """
    answers: weakref.WeakKeyDictionary[Trace, dict[Key, Value]] = weakref.WeakKeyDictionary()

    @functools.wraps(question)
    def answered(trace: Trace, key: Key) -> Value:
        kept = answers.setdefault(trace, {})
        if key not in kept:
            kept[key] = question(trace, key)
        return kept[key]

    return answered

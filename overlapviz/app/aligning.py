"""Lining up the two sides of a comparison at their first device ops.

Two runs of overlapviz start at the same moment, the run's start, so they share an origin as
they are. A file's time 0 is wherever its profiler began recording: a PyTorch trace may spend
half a second in Python before its first copy, a run none. So when either side came from a
file, the side whose first device op is earlier is moved later by the difference, and both
first device ops sit at the same x: "before" and "after" start their GPU work together, and
nothing is moved before 0. Moving a trace changes no figure (every metric is a difference
of times), so the side keeps its metrics and findings and only its picture is prepared again.
Pure: no Qt here.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from overlapviz.core.cancel import CancelToken
from overlapviz.core.trace.spans import UNKNOWN, Trace
from overlapviz.session import RunResult
from overlapviz.view.opening import device_work_ns
from overlapviz.view.prepared import PreparedView, prepare_view

TIME_COLUMNS = ("enqueue_ns", "ready_ns", "start_ns", "end_ns")


@dataclass(frozen=True)
class AlignedPair:
    """A and B as drawn, and how far each was moved later (ns; one of them is 0)."""

    a: PreparedView
    b: PreparedView
    shift_a_ns: int = 0
    shift_b_ns: int = 0


def first_device_ns(trace: Trace) -> int | None:
    """The start of the trace's first device op; None when it has none."""
    work = device_work_ns(trace)
    return None if work is None else work[0]


def pair_shifts(a: Trace, b: Trace) -> tuple[int, int]:
    """How far to move A and B later so that their first device ops start together (one is 0)."""
    first_a, first_b = first_device_ns(a), first_device_ns(b)
    if first_a is None or first_b is None:
        return 0, 0
    return max(first_b - first_a, 0), max(first_a - first_b, 0)


def shifted_trace(trace: Trace, shift_ns: int) -> Trace:
    """`trace` with every time `shift_ns` later (unknown times stay unknown)."""
    columns = dict(trace.columns)
    for name in TIME_COLUMNS:
        values = trace[name]
        columns[name] = np.where(values != UNKNOWN, values + shift_ns, values)
    return Trace(columns, trace.names, trace.meta)


def shifted_view(view: PreparedView, shift_ns: int, cancel: CancelToken | None = None) -> PreparedView:
    """`view` moved `shift_ns` later: the same figures and findings, the picture prepared again."""
    if shift_ns == 0:
        return view
    result = view.result
    moved = RunResult(shifted_trace(result.trace, shift_ns), result.metrics, result.findings, result.wall_s)
    return prepare_view(moved, cancel)


def align_pair(a: PreparedView, b: PreparedView, cancel: CancelToken | None = None) -> AlignedPair:
    """A and B with their first device ops at the same time (see the module docstring)."""
    shift_a, shift_b = pair_shifts(a.trace, b.trace)
    return AlignedPair(shifted_view(a, shift_a, cancel), shifted_view(b, shift_b, cancel), shift_a, shift_b)

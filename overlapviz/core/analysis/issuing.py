"""The host calls that issued device ops: which they are, how long each waited for its op, how long it spent issuing.

The metrics' host blocked and host issue, each GPU's figures and the host-bound findings all
read these per-row answers, each worked out once per trace.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from overlapviz.core.analysis.busy_unions import kinds_union, read_only
from overlapviz.core.analysis.intervals import IntArray, covered_in_tiles, union_intervals
from overlapviz.core.trace.answer_cache import kept_per_trace, once_per_trace
from overlapviz.core.trace.spans import MemoryKind, OpKind, Trace


@once_per_trace
def issuing_calls(trace: Trace) -> npt.NDArray[np.bool_]:
    """Host API spans that issued a device op (their `op` points at a copy or kernel row)."""
    op = trace["op"]
    linked = (trace["kind"] == OpKind.API) & (op >= 0) & (op < len(trace))
    target = np.where(linked, op, 0)
    issued: npt.NDArray[np.bool_] = linked & trace.device_mask[target]
    return issued


@once_per_trace
def pageable_copy_calls(trace: Trace) -> npt.NDArray[np.bool_]:
    """Issuing calls whose op is a copy from or to pageable host memory."""
    calls = issuing_calls(trace)
    target = np.where(calls, trace["op"], 0)
    pageable: npt.NDArray[np.bool_] = calls & (trace["memory"][target] == MemoryKind.PAGEABLE)
    return pageable


def host_issue_ns(trace: Trace, calls: npt.NDArray[np.intp]) -> int:
    """Host time spent issuing `calls`: each call and the caller's own code up to the next issuing call.

    `calls` are rows of issuing calls (`issuing_calls`). The time a call spent blocked (its op
    already running) is not issuing; nor is the time after the last issuing call.
    """
    if calls.size == 0:
        return 0
    return int(issue_spent_per_row(trace)[calls].sum())


@once_per_trace  # the metrics, each GPU's figures and the host-bound findings each sum some of the calls
def issue_spent_per_row(trace: Trace) -> IntArray:
    """Per issuing call: its host time spent issuing (see `host_issue_ns`), 0 or more; 0 for other rows."""
    spent_per_row = np.zeros(len(trace), dtype=np.int64)
    calls = issuing_in_order(trace)
    if calls.size == 0:
        return spent_per_row
    # each call runs to the next one's start (the last: to its own end), so the windows tile
    bounds = np.append(trace["start_ns"][calls], trace["end_ns"][calls[-1]])
    spent = np.diff(bounds)
    spent -= host_blocked_per_row(trace)[calls]
    spent -= covered_in_tiles(*kinds_union(trace, OpKind.HOST_COPY), bounds)  # a staging ring's copies: no issuing
    spent -= covered_in_tiles(*_waiting_calls(trace), bounds)  # nor is waiting in a call that issues nothing
    spent_per_row[calls] = np.maximum(spent, 0)
    return spent_per_row


@once_per_trace
def issuing_in_order(trace: Trace) -> npt.NDArray[np.intp]:
    """The issuing calls' rows in the order of their starts (equal starts in row order)."""
    calls = np.flatnonzero(issuing_calls(trace))
    starts = trace["start_ns"][calls]
    if calls.size > 1 and (np.diff(starts) < 0).any():  # sorted already, as most traces' rows are: no argsort
        calls = calls[np.argsort(starts, kind="stable")]
    return calls


@kept_per_trace
def _waiting_calls(trace: Trace) -> tuple[IntArray, IntArray]:
    """When the host sat in calls that issue nothing (a synchronize), as disjoint sorted intervals."""
    waits = (trace["kind"] == OpKind.API) & (trace["op"] < 0)
    return read_only(union_intervals(trace["start_ns"][waits], trace["end_ns"][waits]))


@once_per_trace
def host_blocked_per_row(trace: Trace) -> IntArray:
    """Per row: how long an issuing call waited while its own op ran; 0 for other rows."""
    blocked = np.zeros(len(trace), dtype=np.int64)
    calls = np.flatnonzero(issuing_calls(trace))
    op_start = trace["start_ns"][trace["op"][calls]]
    since = np.maximum(trace["start_ns"][calls], op_start)
    blocked[calls] = np.maximum(0, trace["end_ns"][calls] - since)
    return blocked

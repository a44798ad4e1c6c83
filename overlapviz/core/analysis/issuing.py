"""The host calls that issued device ops: which they are, how long each waited for its op, how long it spent issuing.

The metrics' host blocked and host issue, each GPU's figures and the host-bound findings all
read these per-row answers, each worked out once per trace.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from overlapviz.core.analysis.busy_unions import kinds_union, read_only
from overlapviz.core.analysis.intervals import IntArray, covered_in_tiles, start_order, union_intervals
from overlapviz.core.trace.answer_cache import kept_per_trace, once_per_trace
from overlapviz.core.trace.spans import MemoryKind, OpKind, Trace


@once_per_trace
def issuing_rows(trace: Trace) -> npt.NDArray[np.intp]:
    """The rows of the host API spans that issued a device op (their `op` points at a device row), in row order.

    Read from the API calls' rows alone: the other columns' rows have no say.
    """
    api = trace.rows(OpKind.API)
    op = trace["op"][api]
    linked = (op >= 0) & (op < len(trace))
    if not linked.all():
        api, op = api[linked], op[linked]
    issued: npt.NDArray[np.intp] = api[trace.device_mask[op]]
    return issued


@once_per_trace
def issued_ops(trace: Trace) -> npt.NDArray[np.intp]:
    """The op each issuing call issued (in the order of `issuing_rows`)."""
    ops: npt.NDArray[np.intp] = trace["op"][issuing_rows(trace)]
    return ops


@once_per_trace  # the sync-after-copy finding reads the calls in the order the host made them
def api_by_start(trace: Trace) -> npt.NDArray[np.intp]:
    """The host API calls' rows in the order of their starts (equal starts in row order)."""
    calls = trace.rows(OpKind.API)
    order = start_order(trace["start_ns"][calls])
    return calls if order is None else calls[order]


@once_per_trace
def issuing_calls(trace: Trace) -> npt.NDArray[np.bool_]:
    """Host API spans that issued a device op (their `op` points at a copy or kernel row)."""
    return rows_mask(trace, issuing_rows(trace))


@once_per_trace
def pageable_copy_rows(trace: Trace) -> npt.NDArray[np.intp]:
    """The rows of the issuing calls whose op is a copy from or to pageable host memory, in row order."""
    pageable: npt.NDArray[np.intp] = issuing_rows(trace)[_issues_pageable(trace)]
    return pageable


@once_per_trace
def _issues_pageable(trace: Trace) -> npt.NDArray[np.bool_]:
    """Per issuing call (in the order of `issuing_rows`): whether its op copies from or to pageable memory."""
    pageable: npt.NDArray[np.bool_] = trace["memory"][issued_ops(trace)] == MemoryKind.PAGEABLE
    return pageable


@once_per_trace
def pageable_copy_calls(trace: Trace) -> npt.NDArray[np.bool_]:
    """Issuing calls whose op is a copy from or to pageable host memory."""
    return rows_mask(trace, pageable_copy_rows(trace))


@once_per_trace  # the metrics' host issue and the host-bound findings each read them
def unpaged_issuing_rows(trace: Trace) -> npt.NDArray[np.intp]:
    """The issuing calls that copy no pageable memory (those wait for their copy: host blocked, not issuing)."""
    pageable = _issues_pageable(trace)
    unpaged: npt.NDArray[np.intp] = issuing_rows(trace)[~pageable] if pageable.any() else issuing_rows(trace)
    return unpaged


def rows_mask(trace: Trace, rows: npt.NDArray[np.intp]) -> npt.NDArray[np.bool_]:
    """A mask of the trace's rows, true at `rows`."""
    mask = np.zeros(len(trace), dtype=bool)
    mask[rows] = True
    return mask


def host_issue_ns(trace: Trace, calls: npt.NDArray[np.intp]) -> int:
    """Host time spent issuing `calls`: each call and the caller's own code up to the next issuing call.

    `calls` are rows of issuing calls (`issuing_calls`). The time a call spent blocked (its op
    already running) is not issuing; nor is the time after the last issuing call.
    """
    if calls.size == 0:
        return 0
    return int(issue_spent_per_row(trace)[calls].sum())


@once_per_trace  # each GPU's figures and the timeline read it by row
def issue_spent_per_row(trace: Trace) -> IntArray:
    """Per issuing call: its host time spent issuing (see `host_issue_ns`), 0 or more; 0 for other rows."""
    spent_per_row = np.zeros(len(trace), dtype=np.int64)
    spent_per_row[issuing_rows(trace)] = _spent_of_issuing(trace)
    return spent_per_row


@kept_per_trace  # the metrics' host issue and the host-bound findings' both
def unpaged_issue_ns(trace: Trace) -> int:
    """`host_issue_ns` of the calls of `unpaged_issuing_rows`."""
    pageable = _issues_pageable(trace)
    spent = _spent_of_issuing(trace)
    return int(spent[~pageable].sum() if pageable.any() else spent.sum())


def unpaged_issuing_parts(trace: Trace) -> tuple[IntArray, IntArray]:
    """Each call of `unpaged_issuing_rows` up to the moment its op started: after that the host is blocked."""
    starts, ends = _issuing_times(trace)
    parts = starts, ends - _blocked_of_issuing(trace)  # the end, or where the op started if sooner
    pageable = _issues_pageable(trace)
    return (parts[0][~pageable], parts[1][~pageable]) if pageable.any() else parts


@once_per_trace
def _spent_of_issuing(trace: Trace) -> IntArray:
    """Per issuing call (in the order of `issuing_rows`): its host time spent issuing, 0 or more."""
    starts, ends = _issuing_times(trace)
    if starts.size == 0:
        return np.zeros(0, dtype=np.int64)
    blocked = _blocked_of_issuing(trace)
    order = start_order(starts)  # None as in most traces, whose rows come in order
    if order is not None:
        starts, ends, blocked = starts[order], ends[order], blocked[order]
    # each call runs to the next one's start (the last: to its own end), so the windows tile
    bounds = np.append(starts, ends[-1])
    spent = np.diff(bounds)
    spent -= blocked
    spent -= covered_in_tiles(*kinds_union(trace, OpKind.HOST_COPY), bounds)  # a staging ring's copies: no issuing
    spent -= covered_in_tiles(*_waiting_calls(trace), bounds)  # nor is waiting in a call that issues nothing
    np.maximum(spent, 0, out=spent)
    if order is None:
        return spent
    in_row_order = np.empty_like(spent)
    in_row_order[order] = spent
    return in_row_order


@kept_per_trace
def _waiting_calls(trace: Trace) -> tuple[IntArray, IntArray]:
    """When the host sat in calls that issue nothing (a synchronize), as disjoint sorted intervals."""
    api = trace.rows(OpKind.API)
    waits = api[trace["op"][api] < 0]
    return read_only(union_intervals(trace["start_ns"][waits], trace["end_ns"][waits]))


@once_per_trace
def host_blocked_per_row(trace: Trace) -> IntArray:
    """Per row: how long an issuing call waited while its own op ran; 0 for other rows."""
    blocked = np.zeros(len(trace), dtype=np.int64)
    blocked[issuing_rows(trace)] = _blocked_of_issuing(trace)
    return blocked


def pageable_blocked(trace: Trace) -> IntArray:
    """Per pageable copy call (in the order of `pageable_copy_rows`): how long it waited while its copy ran."""
    blocked: IntArray = _blocked_of_issuing(trace)[_issues_pageable(trace)]
    return blocked


def host_blocked_ns(trace: Trace) -> int:
    """The time the issuing calls waited while their own ops ran, summed."""
    return int(_blocked_of_issuing(trace).sum())


@once_per_trace
def _blocked_of_issuing(trace: Trace) -> IntArray:
    """Per issuing call (in the order of `issuing_rows`): how long it waited while its own op ran."""
    starts, ends = _issuing_times(trace)
    blocked: IntArray = trace["start_ns"][issued_ops(trace)]  # worked in place: millions of calls, no temporaries
    np.maximum(blocked, starts, out=blocked)  # blocked from the later of the call's start and its op's
    np.subtract(ends, blocked, out=blocked)
    np.maximum(blocked, 0, out=blocked)
    return blocked


@kept_per_trace
def _issuing_times(trace: Trace) -> tuple[IntArray, IntArray]:
    """Per issuing call (in the order of `issuing_rows`): its start and its end."""
    calls = issuing_rows(trace)
    starts, ends = trace["start_ns"][calls], trace["end_ns"][calls]
    for times in (starts, ends):
        times.flags.writeable = False
    return starts, ends

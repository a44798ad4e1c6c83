"""Interval arithmetic on integer-ns spans, vectorised with numpy.

Every metric that asks "how much of this happened while that was going on" reduces to these:
merge a set of spans into a disjoint union, then measure how much of a window the union covers.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

IntArray = npt.NDArray[np.int64]


def union_intervals(starts: npt.ArrayLike, ends: npt.ArrayLike) -> tuple[IntArray, IntArray]:
    """Merge intervals into sorted, disjoint ones (touching intervals join)."""
    s = np.asarray(starts, dtype=np.int64)
    e = np.asarray(ends, dtype=np.int64)
    if s.size == 0:
        return s.copy(), e.copy()
    order = np.argsort(s, kind="stable")
    s, e = s[order], e[order]
    reach = np.maximum.accumulate(e)
    # an interval opens a new piece when it starts after everything before it has ended
    opens = np.concatenate(([True], s[1:] > reach[:-1]))
    first = np.flatnonzero(opens)
    last = np.concatenate((first[1:] - 1, [s.size - 1]))
    return s[first], reach[last]


def covered_ns(union_starts: IntArray, union_ends: IntArray, a: npt.ArrayLike, b: npt.ArrayLike) -> IntArray:
    """For each window [a, b], how much of it the disjoint sorted union covers."""
    return _covered_until(union_starts, union_ends, b) - _covered_until(union_starts, union_ends, a)


def at_least_two_ns(unions: list[tuple[IntArray, IntArray]]) -> int:
    """Time during which two or more of the given disjoint unions are covered at once.

    A sweep over every piece's start (+1) and end (-1): the depth between two consecutive
    instants is how many unions cover that stretch. Each union is disjoint in itself, so the
    depth counts unions, not pieces.
    """
    if len(unions) < 2:
        return 0
    steps = np.concatenate([np.full(s.size, 1) for s, _ in unions] + [np.full(e.size, -1) for _, e in unions])
    # ends sorted before starts at the same instant: touching pieces do not count as together
    times = np.concatenate([s for s, _ in unions] + [e for _, e in unions])
    order = np.lexsort((steps, times))
    times, depth = times[order], np.cumsum(steps[order])
    gaps = np.diff(times)
    return int(gaps[depth[:-1] >= 2].sum())


def _covered_until(union_starts: IntArray, union_ends: IntArray, t: npt.ArrayLike) -> IntArray:
    """Covered time before each instant `t` (vectorised over `t`)."""
    t = np.asarray(t, dtype=np.int64)
    if union_starts.size == 0:
        return np.zeros(t.shape, dtype=np.int64)
    before = np.concatenate(([0], np.cumsum(union_ends - union_starts)))
    k = np.searchsorted(union_starts, t, side="right")  # pieces that start at or before t
    inside = np.where(k > 0, np.minimum(t, union_ends[k - 1]) - union_starts[k - 1], 0)
    covered: IntArray = before[np.maximum(k - 1, 0)] + np.maximum(inside, 0)
    return covered

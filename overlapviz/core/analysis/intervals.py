"""Interval arithmetic on integer-ns spans, vectorised with numpy.

Every metric that asks "how much of this happened while that was going on" reduces to these:
merge a set of spans into a disjoint union, then measure how much of a window the union covers.
Merging is written once (`merge_runs`): the metrics' unions, the callouts' brackets (gaps
shorter than a share of the run closed) and the timeline's rectangles in device pixels all
merge through it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

IntArray = npt.NDArray[np.int64]
IntpArray = npt.NDArray[np.intp]
Times = npt.NDArray[Any]  # any numeric dtype: int64 ns, or float device pixels


def by_start(starts: npt.ArrayLike, ends: npt.ArrayLike) -> tuple[IntArray, IntArray]:
    """The spans `starts`, `ends` as int64, sorted by start (stably: equal starts keep their order)."""
    s = np.asarray(starts, dtype=np.int64)
    e = np.asarray(ends, dtype=np.int64)
    order = start_order(s)
    if order is not None:
        s, e = s[order], e[order]
    return s, e


def start_order(starts: IntArray) -> IntpArray | None:
    """The order that sorts `starts` (stably); None where they are sorted already, as traces' rows mostly are."""
    if starts.size > 1 and (starts[1:] < starts[:-1]).any():
        return np.argsort(starts, kind="stable")
    return None


def merge_runs(
    starts: Times, ends: Times, join_below: float | None = None, *, overlapping: bool = True
) -> tuple[IntpArray, Times]:
    """Of spans sorted by start, the runs that merge into one piece: each run's first span and its end.

    A span joins the run before it when it starts no later than every span of the run has
    ended (touching spans join), or, with `join_below`, less than `join_below` after it: a
    gap exactly `join_below` wide stays open. With `overlapping` False, a span joins only
    where it starts exactly where the span before it ends (a translucent fill paints an
    overlap twice). Returns the index of each run's first span and where each run ends,
    in the dtype of `ends`.
    """
    if not len(starts):
        return np.zeros(0, dtype=np.intp), ends.copy()
    reach = np.maximum.accumulate(ends) if overlapping else ends
    # a span opens a new run when it starts after everything before it has ended
    opens = starts[1:] > reach[:-1] if overlapping else starts[1:] != ends[:-1]
    if join_below is not None:
        opens &= (starts[1:] - reach[:-1]) >= join_below
    first = np.flatnonzero(np.concatenate(([True], opens)))
    last = np.concatenate((first[1:] - 1, [len(starts) - 1]))
    return first, reach[last]


def union_intervals(
    starts: npt.ArrayLike, ends: npt.ArrayLike, join_below: float | None = None
) -> tuple[IntArray, IntArray]:
    """Merge intervals into sorted, disjoint ones (touching intervals join; see `merge_runs` for `join_below`)."""
    s, e = by_start(starts, ends)
    first, union_e = merge_runs(s, e, join_below)
    return s[first], union_e


def union_with_pieces(starts: IntArray, ends: IntArray) -> tuple[IntArray, IntArray, IntpArray]:
    """`union_intervals` of the spans, and for each span (in the order given) the index of the piece that holds it."""
    order = start_order(starts)
    s, e = (starts, ends) if order is None else (starts[order], ends[order])
    if not s.size:
        return s.copy(), e.copy(), np.zeros(0, dtype=np.intp)
    reach = np.maximum.accumulate(e)
    piece = np.empty(s.size, dtype=np.intp)
    piece[0] = 0
    np.cumsum(s[1:] > reach[:-1], out=piece[1:])  # a span opens a new piece as in `merge_runs`
    first = np.flatnonzero(np.diff(piece, prepend=-1))
    last = np.append(first[1:] - 1, s.size - 1)
    if order is not None:
        in_given_order = np.empty_like(piece)
        in_given_order[order] = piece
        piece = in_given_order
    return s[first], reach[last], piece


def uncovered_up_to_pieces(union_starts: IntArray, union_ends: IntArray, a: IntArray, pieces: IntpArray) -> IntArray:
    """For each window from `a` to a point inside the union's piece `pieces` (no earlier than `a`): its time uncovered.

    What ``(b - a) - covered_ns(..., a, b)`` gives, with one search for `a` and none for the ends (their pieces known).
    Gaps lie only before each window's piece, so a window that starts inside its piece is covered throughout.
    """
    gaps_before = union_starts.copy()  # the union's gaps before each piece: its start less the pieces before it
    gaps_before[1:] -= np.cumsum(union_ends[:-1] - union_starts[:-1])
    uncovered = np.zeros(a.size, dtype=np.int64)
    outside = np.flatnonzero(a < union_starts[pieces])
    if outside.size:
        ahead = a[outside]
        uncovered[outside] = gaps_before[pieces[outside]] - (ahead - _CoveredUntil(union_starts, union_ends)(ahead))
    return uncovered


def union_ns(starts: npt.ArrayLike, ends: npt.ArrayLike) -> int:
    """Time covered by at least one of the intervals (overlapping ones count once)."""
    union_s, union_e = union_intervals(starts, ends)
    return int((union_e - union_s).sum())


def covered_ns(union_starts: IntArray, union_ends: IntArray, a: npt.ArrayLike, b: npt.ArrayLike) -> IntArray:
    """For each window [a, b], how much of it the disjoint sorted union covers."""
    if union_starts.size == 0:
        return np.zeros(np.shape(a), dtype=np.int64)
    until = _CoveredUntil(union_starts, union_ends)
    covered = until(b)
    covered -= until(a)
    return covered


def covered_in_tiles(union_starts: IntArray, union_ends: IntArray, bounds: IntArray) -> IntArray:
    """For each window [bounds[i], bounds[i + 1]] of windows that tile, how much of it the union covers.

    What `covered_ns` gives for these windows, each bound searched once rather than twice.
    """
    if union_starts.size == 0:
        return np.zeros(max(bounds.size - 1, 0), dtype=np.int64)
    until = _CoveredUntil(union_starts, union_ends)
    covered: IntArray = np.diff(until.at_sorted(bounds))
    return covered


def at_least_two_ns(unions: list[tuple[IntArray, IntArray]]) -> int:
    """Time during which two or more of the given disjoint unions are covered at once.

    A sweep over every piece's start (+1) and end (-1): the depth between two consecutive
    instants is how many unions cover that stretch. Each union is disjoint in itself, so the
    depth counts unions, not pieces.
    """
    if len(unions) < 2:
        return 0
    # Each instant as one key, 2t + 1 for a start, 2t for an end: ends sort before starts at the
    # same instant (touching pieces do not count as together) and one sort of plain integers,
    # merging each union's ready-sorted run, does what an argsort and two gathers would.
    keys = np.concatenate([np.column_stack((2 * s + 1, 2 * e)).ravel() for s, e in unions])
    keys.sort(kind="stable")
    depth = np.cumsum((keys & 1) * 2 - 1)
    gaps = np.diff(keys >> 1)
    return int(gaps[depth[:-1] >= 2].sum())


class _CoveredUntil:
    """Covered time before an instant, of a disjoint sorted union: one search and two gathers per instant.

    Piece j (of those that start at or before t) gives ``covered(t) = before[j] - starts[j] +
    min(t, ends[j])``, where ``before[j]`` is the length of the pieces ahead of it. A piece of
    no length before them all stands for "no piece started yet", so that every instant finds
    one, and the sum needs no test: at 10^7 instants each pass over them costs tens of ms.
    """

    _NEVER = np.iinfo(np.int64).min // 4  # before any instant of a trace (times are ns >= 0)

    def __init__(self, union_starts: IntArray, union_ends: IntArray) -> None:
        self._starts = union_starts
        self._ends = np.concatenate(([self._NEVER], union_ends))
        lengths = union_ends - union_starts
        self._base = np.empty(union_starts.size + 1, dtype=np.int64)
        self._base[0] = -self._NEVER
        self._base[1:2] = 0
        np.cumsum(lengths[:-1], out=self._base[2:])
        self._base[1:] -= union_starts

    def __call__(self, t: npt.ArrayLike) -> IntArray:
        t = np.asarray(t, dtype=np.int64)
        piece = np.searchsorted(self._starts, t, side="right")  # its index among the pieces, the first being none
        return self._given_pieces(t, piece)

    def at_sorted(self, t: IntArray) -> IntArray:
        """What calling it gives, for instants in ascending order.

        Where the union has far fewer pieces than there are instants, each piece's start is
        searched among the instants instead, and a count of those found so far gives each
        instant's piece: a pass over the instants, not a search for each.
        """
        if self._starts.size * 8 > t.size:
            return self(t)
        opened = np.bincount(np.searchsorted(t, self._starts, side="left"), minlength=t.size + 1)
        return self._given_pieces(t, np.cumsum(opened[: t.size]))

    def _given_pieces(self, t: IntArray, piece: IntpArray) -> IntArray:
        covered: IntArray = np.minimum(t, self._ends[piece])
        covered += self._base[piece]
        return covered

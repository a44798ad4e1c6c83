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

    What ``(b - a) - covered_ns(..., a, b)`` gives, searching for few of `a`, none of the ends (their pieces known).
    Gaps lie only before each window's piece, so a window that starts inside its piece is covered throughout.
    """
    outside = a < union_starts[pieces]
    if not outside.any():
        return np.zeros(a.size, dtype=np.int64)
    everywhere = bool(outside.all())  # ops that never overlap on their unit each have a piece of their own
    ahead, piece = (a, pieces) if everywhere else (a[outside], pieces[outside])
    until = _CoveredUntil(union_starts, union_ends)
    # The pieces started by `ahead`: mostly all but the window's own (it starts in the piece
    # before, or the gap after that), which a look at that piece's start tells without a search.
    before = piece - 1
    np.maximum(before, 0, out=before)
    farther = np.flatnonzero(ahead < union_starts[before])
    farther = farther[piece[farther] > 0]
    started = piece
    if farther.size:
        started = piece.copy()
        started[farther] = np.searchsorted(union_starts, ahead[farther], side="right")
    # the time uncovered up to the window's piece is its start less the pieces before it: -base
    found = until.given_pieces(ahead, started)
    found -= ahead
    found -= until.base[piece + 1]
    if everywhere:
        return found
    uncovered = np.zeros(a.size, dtype=np.int64)
    uncovered[outside] = found
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


def covered_sum_ns(union_starts: IntArray, union_ends: IntArray, windows: list[tuple[IntArray, IntArray]]) -> int:
    """How much of all the windows (each group's starts and ends) the disjoint sorted union covers, summed."""
    if union_starts.size == 0:
        return 0
    until = _CoveredUntil(union_starts, union_ends)  # made once for every group
    total = 0
    for a, b in windows:
        covered = until(b)
        covered -= until(a)
        total += int(covered.sum())
    return total


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
    # Written in place, pass by pass: at 10^7 pieces each temporary array costs tens of ms.
    keys = np.empty(2 * sum(s.size for s, _ in unions), dtype=np.int64)
    at = 0
    for s, e in unions:
        pairs = keys[at : at + 2 * s.size].reshape(-1, 2)
        np.multiply(s, 2, out=pairs[:, 0])
        pairs[:, 0] += 1
        np.multiply(e, 2, out=pairs[:, 1])
        at += 2 * s.size
    keys.sort(kind="stable")
    depth = keys & 1  # +1 at a start, -1 at an end, summed
    depth *= 2
    depth -= 1
    np.cumsum(depth, out=depth)
    keys >>= 1
    gaps = np.diff(keys)
    return int(gaps.sum(where=depth[:-1] >= 2))


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
        self.base = np.empty(union_starts.size + 1, dtype=np.int64)
        self.base[0] = -self._NEVER
        self.base[1:2] = 0
        np.cumsum(lengths[:-1], out=self.base[2:])
        self.base[1:] -= union_starts

    def __call__(self, t: npt.ArrayLike) -> IntArray:
        t = np.asarray(t, dtype=np.int64)
        piece = np.searchsorted(self._starts, t, side="right")  # its index among the pieces, the first being none
        return self.given_pieces(t, piece)

    def at_sorted(self, t: IntArray) -> IntArray:
        """What calling it gives, for instants in ascending order.

        Where the union has far fewer pieces than there are instants, each piece's start is
        searched among the instants instead, and a count of those found so far gives each
        instant's piece: a pass over the instants, not a search for each.
        """
        if self._starts.size * 8 > t.size:
            return self(t)
        opened = np.bincount(np.searchsorted(t, self._starts, side="left"), minlength=t.size + 1)
        return self.given_pieces(t, np.cumsum(opened[: t.size]))

    def given_pieces(self, t: IntArray, started: IntpArray) -> IntArray:
        """What calling it gives, for instants whose count of pieces started by them (at or before) is known."""
        covered: IntArray = np.minimum(t, self._ends[started])
        covered += self.base[started]
        return covered

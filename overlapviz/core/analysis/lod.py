"""Level of detail: how busy each pixel column of a lane is, as pure functions.

A lane can hold 10^5 spans; most of them are narrower than a pixel when the whole run is in
view. Drawn one by one, each at least a pixel wide, or merged into one bar where they lie
less than a pixel apart, they ink a lane far busier than it was: 1024 copies of 10 µs, 30 µs
apart, fill a lane whose engine was busy a third of the time. So spans narrower than a pixel
are drawn as their density instead: for each pixel column, the share of its time that they
cover, once however many of them overlap (`column_ink`). Spans at least a pixel wide are
drawn as they are; the density counts only the time they leave uncovered.

The union of each layer's spans is made once (`CoveredTime`). A window's columns then come
from where each of its pieces begins and ends among the columns' edges, worked out for all
the layers of a picture at once (`columns_ink`), whatever the number of spans.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from overlapviz.core.analysis.intervals import merge_runs, union_intervals

FloatArray = npt.NDArray[np.float64]
Int64Array = npt.NDArray[np.int64]
IntpArray = npt.NDArray[np.intp]
WHOLE_NS_LIMIT = 2.0**61  # windows are cut to this side of 0: a window's width in ns fits in int64 with room to spare
SEARCH_ABOVE = 1  # a layer with more pieces in view than this many per edge has its edges searched
INT64_AXIS = 2**62  # how far `_unions_within` lays the layers' stretches end to end, below int64's top
INT64_MIN = int(np.iinfo(np.int64).min)


@dataclass(frozen=True, slots=True)
class CoveredTime:
    """The union of some spans as sorted, disjoint pieces, and the time they cover before each piece.

    The first piece is an empty one before any instant, so that every instant has a piece
    at or before it.
    """

    starts: Int64Array
    lengths: Int64Array
    before: Int64Array  # covered ns before each piece

    @classmethod
    def of(cls, starts: npt.ArrayLike, ends: npt.ArrayLike) -> CoveredTime:
        """The time covered by the spans `starts`, `ends` (ns, any order, overlapping or not)."""
        if not np.size(starts):  # a window of the whole run asks this of every layer with no span drawn as it is
            return _NOTHING_COVERED
        union_s, union_e = union_intervals(starts, ends)
        lengths = np.concatenate(([0], union_e - union_s)).astype(np.int64)
        return cls(np.concatenate(([INT64_MIN], union_s)).astype(np.int64), lengths, np.cumsum(lengths) - lengths)

    @property
    def total(self) -> int:
        """The time covered in all (ns)."""
        return int(self.before[-1] + self.lengths[-1])

    def until(self, t: FloatArray) -> FloatArray:
        """The time covered before each instant of `t` (ns, within `WHOLE_NS_LIMIT` of 0)."""
        # whole-ns keys: a float key would have searchsorted convert every start to float first
        last = self.starts.searchsorted(np.floor(t).astype(np.int64), side="right") - 1
        inside: FloatArray = np.minimum(t - self.starts[last], self.lengths[last])
        return self.before[last] + inside


def _nothing_covered() -> CoveredTime:
    """The time covered by no spans: the one empty piece before any instant (shared, so read-only)."""
    pieces = [np.array(values, dtype=np.int64) for values in ([INT64_MIN], [0], [0])]
    for piece in pieces:
        piece.flags.writeable = False
    return CoveredTime(*pieces)


_NOTHING_COVERED = _nothing_covered()


def column_edges(t0: float, t1: float, pixel: float) -> FloatArray:
    """The edges of the pixel columns of the window [t0, t1]: `pixel` apart from t0, the last at t1.

    Raises
    ------
    ValueError
        When the window is reversed or `pixel` is not a positive number.
    """
    if not t0 <= t1:
        raise ValueError(f"the window ends ({t1}) before it starts ({t0})")
    if math.isnan(pixel) or pixel <= 0:
        raise ValueError(f"a pixel must be wider than 0, got {pixel}")
    t0, t1 = max(t0, -WHOLE_NS_LIMIT), min(t1, WHOLE_NS_LIMIT)
    count = max(math.ceil((t1 - t0) / pixel), 1)
    return np.minimum(t0 + pixel * np.arange(count + 1, dtype=np.float64), t1)


def column_ink(covered: CoveredTime, drawn: CoveredTime, edges: FloatArray, cursor: float | None = None) -> FloatArray:
    """The share of each column's time that `covered` covers and the spans drawn as they are (`drawn`) do not.

    `drawn` is the union of the spans drawn as they are, those at least a pixel wide (what
    of them lies outside the columns does not matter); it must lie within `covered`. With
    `cursor` (a replay), time after it counts as idle. Returns one value from 0 to 1 per
    column (a column of no width: 0). One layer of `columns_ink`.
    """
    pieces = drawn.starts[1:], drawn.starts[1:] + drawn.lengths[1:]  # past the empty piece before any instant
    ink: FloatArray = columns_ink((covered,), (pieces,), edges, cursor)[0]
    return ink


def columns_ink(
    covered: Sequence[CoveredTime],
    drawn: Sequence[tuple[Int64Array, Int64Array]],
    edges: FloatArray,
    cursor: float | None = None,
) -> FloatArray:
    """`column_ink` of many layers at the same columns: row k for `covered[k]` less the spans `drawn[k]`.

    `drawn[k]` holds the starts and ends of the spans of layer k drawn as they are, sorted by
    start, overlapping or not. A window of a big trace has a hundred layers, most of a few
    dozen pieces in view: layer by layer, the fixed cost of a dozen array operations would be
    most of the work, and a binary search per column and layer the rest. So the time covered
    before each edge is worked out for all those layers at once, from where each of their
    pieces starts and ends among the edges: inside a piece it grows with the edge, after it
    by its length. A layer with more pieces in view than edges (the whole of a big trace)
    has each edge searched among its pieces instead (`CoveredTime.until`).
    """
    widths = edges[1:] - edges[:-1]
    if not len(covered) or not len(widths):
        return np.zeros((len(covered), len(widths)))
    # a cursor outside the window inks as one at its nearer edge (and an infinite one would have no whole ns)
    upto = edges if cursor is None else np.minimum(edges, min(max(cursor, edges[0]), edges[-1]))
    low, high = math.floor(upto[0]) - 1, math.floor(upto[-1]) + 1
    searched, pieces = _pieces_in_view(covered, low, high, most=SEARCH_ABOVE * len(upto))
    drawn_pieces = _unions_within(drawn, low, high)
    layer, starts, ends = (np.concatenate(parts) for parts in zip(pieces, drawn_pieces, strict=True))
    sign = np.concatenate((np.ones(len(pieces[1])), -np.ones(len(drawn_pieces[1]))))
    # the covered time not drawn, before each edge: its slope (1 inside a piece) and what it adds to edge * slope
    row = len(upto) + 1  # the edges, and one place for pieces past the last edge
    at = np.concatenate((layer * row + upto.searchsorted(starts), layer * row + upto.searchsorted(ends)))
    size = len(covered) * row
    slope = np.bincount(at, weights=np.concatenate((sign, -sign)), minlength=size).reshape(len(covered), row)
    offset = np.bincount(at, weights=np.concatenate((-sign * starts, sign * ends)), minlength=size)
    before = slope[:, :-1].cumsum(axis=1) * upto
    before += offset.reshape(len(covered), row)[:, :-1].cumsum(axis=1)
    for k in searched:
        before[k] += covered[k].until(upto)
    left = before[:, 1:] - before[:, :-1]
    left[before[:, -1] - before[:, 0] <= 0] = 0.0  # drawn as spans, all of it: no ink, not what rounding leaves
    share = np.divide(left, widths, out=np.zeros_like(left), where=widths > 0)
    ink: FloatArray = np.clip(share, 0.0, 1.0)
    return ink


def _pieces_in_view(
    covered: Sequence[CoveredTime], low: int, high: int, most: int
) -> tuple[list[int], tuple[IntpArray, Int64Array, Int64Array]]:
    """Of each layer, the pieces that reach into [low, high]: their layer, starts and ends.

    A layer with more than `most` of them is left out, and named in the list returned first.
    """
    searched: list[int] = []
    kept, counts, starts, ends = [], [], [np.zeros(0, dtype=np.int64)], [np.zeros(0, dtype=np.int64)]
    for k, time in enumerate(covered):
        # from the last piece to start by `low` (past the empty one before any instant) to the last by `high`
        first, stop = time.starts.searchsorted((low, high), side="right").tolist()
        first = max(first - 1, 1)
        if stop - first > most:
            searched.append(k)
            continue
        kept.append(k)
        counts.append(stop - first)
        starts.append(time.starts[first:stop])
        ends.append(time.starts[first:stop] + time.lengths[first:stop])
    layer = np.repeat(np.array(kept, dtype=np.intp), counts)
    return searched, (layer, np.concatenate(starts), np.concatenate(ends))


def _unions_within(
    spans: Sequence[tuple[Int64Array, Int64Array]], low: int, high: int
) -> tuple[IntpArray, Int64Array, Int64Array]:
    """The union of each layer's spans (sorted by start) cut to [low, high]: its pieces' layer, starts and ends.

    The layers are laid end to end on one int64 axis, each in a stretch as wide as the window,
    so that one merge finds every layer's pieces and none crosses into the next stretch.
    """
    width = high - low + 2
    counts = [len(starts) for starts, _ in spans]
    layer = np.repeat(np.arange(len(spans)), counts)
    if len(spans) > 1 and len(spans) * width >= INT64_AXIS:  # wider than 2^62 ns / layers: a layer at a time
        pieces = [_unions_within((pair,), low, high) for pair in spans]
        return (np.repeat(np.arange(len(spans)), [len(p[1]) for p in pieces]),
                np.concatenate([p[1] for p in pieces]), np.concatenate([p[2] for p in pieces]))  # fmt: skip
    stretch = layer * width - low
    starts = np.clip(np.concatenate([starts for starts, _ in spans]), low, high) + stretch
    ends = np.clip(np.concatenate([ends for _, ends in spans]), low, high) + stretch
    first, union_ends = merge_runs(starts, ends)
    union_layer = layer[first]
    back = union_layer * width - low
    return union_layer, starts[first] - back, union_ends - back

"""Level of detail: how busy each pixel column of a lane is, as pure functions.

A lane can hold 10^5 spans; most of them are narrower than a pixel when the whole run is in
view. Drawn one by one, each at least a pixel wide, or merged into one bar where they lie
less than a pixel apart, they ink a lane far busier than it was: 1024 copies of 10 µs, 30 µs
apart, fill a lane whose engine was busy a third of the time. So spans narrower than a pixel
are drawn as their density instead: for each pixel column, the share of its time that they
cover, once however many of them overlap (`column_ink`). Spans at least a pixel wide are
drawn as they are; the density counts only the time they leave uncovered.

The time covered before any instant comes from the union of the spans, made once
(`CoveredTime`), so a window's columns cost a binary search each, whatever the number of spans.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from overlapviz.core.analysis.intervals import union_intervals

FloatArray = npt.NDArray[np.float64]
Int64Array = npt.NDArray[np.int64]
WHOLE_NS_LIMIT = 2.0**62  # windows are cut to this side of int64's range (their edges become int64 keys)
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

    def within(self, edges: FloatArray) -> FloatArray:
        """The time covered between each pair of neighbouring `edges` (sorted instants, ns)."""
        covered = self.until(edges)
        return covered[1:] - covered[:-1]  # np.diff's own checks cost more than the subtraction at a few hundred edges


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
    column (a column of no width: 0).
    """
    upto = edges if cursor is None else np.minimum(edges, cursor)
    widths = edges[1:] - edges[:-1]
    ends = upto[[0, -1]]
    drawn_in_window = drawn.within(ends)[0] if drawn.total else 0.0
    if covered.within(ends)[0] <= drawn_in_window:  # (a look-up or two) nothing left to ink: zoomed in on wide spans
        return np.zeros_like(widths)
    left = covered.within(upto)
    if drawn.total:
        left -= drawn.within(upto)
    share = np.divide(left, widths, out=np.zeros_like(widths), where=widths > 0)
    return np.clip(share, 0.0, 1.0)

"""Coarser copies of a layer's spans, made once, so that a whole-run view never reads every span.

Culling and merging a layer for the window on show (as `core.lod.visible_spans` does) reads
every span of it: with the whole of a 10^6-span run in view that is tens of milliseconds on
the GUI thread, at every zoom and pan. Here, with the rest of a prepared trace (off the GUI
thread), each layer also gets a few levels merged for pixels 4, 16, 64, ... times wider, up
to a few thousand spans for the whole run. A window then starts from the coarsest level
whose pixel is no wider than its own, cuts it to the window by binary search (starts are
sorted, and the running maximum of the ends is too) and merges what is left for its pixel.

The rule is `core.lod`'s: spans narrower than a pixel merge with neighbours less than a
pixel away; wider ones stay as they are. A merged span of a level stands for narrow spans
only, so it goes on merging at any wider pixel however wide it has grown; with that, a window
draws the same spans from a level as from every span. Pure: no Qt here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

Int64Array = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
Times = npt.NDArray[Any]  # ns, integer or (cut at a replay's cursor) float
LEVEL_STEP = 4  # each level's pixel is this many times the one below
COARSEST_PIXELS = 4096  # the coarsest level merges for the layer's extent over this many pixels
FINEST_STEPS = 8  # ... and the finest for pixels LEVEL_STEP**FINEST_STEPS times narrower
INT64_MIN, INT64_MAX = int(np.iinfo(np.int64).min), int(np.iinfo(np.int64).max)
MIN_SHRINK = 2  # a level is kept only if it has at most half the spans of the one below


@dataclass(frozen=True, slots=True)
class Level:
    """Spans merged for pixels of at least `pixel_ns`, sorted by start.

    `reach` is the running maximum of the ends; `merged` marks the spans that stand for
    several narrow ones.
    """

    pixel_ns: float
    starts: Int64Array
    ends: Int64Array
    reach: Int64Array
    merged: BoolArray

    @classmethod
    def of(cls, pixel_ns: float, starts: npt.ArrayLike, ends: npt.ArrayLike, merged: BoolArray | None = None) -> Level:
        """The spans `starts`, `ends` as a level for `pixel_ns` (sorted by start here if they are not)."""
        s, e = np.asarray(starts, dtype=np.int64), np.asarray(ends, dtype=np.int64)
        m = np.zeros(len(s), dtype=bool) if merged is None else merged
        if len(s) > 1 and (np.diff(s) < 0).any():
            order = np.argsort(s, kind="stable")
            s, e, m = s[order], e[order], m[order]
        return cls(pixel_ns, s, e, np.maximum.accumulate(e) if len(e) else e, m)


@dataclass(frozen=True, slots=True)
class SpanLevels:
    """A layer's spans (level 0, pixel 0) and the coarser levels above them, finest first."""

    levels: tuple[Level, ...]

    def visible(self, t0: float, t1: float, pixel_ns: float, cursor_ns: float | None = None) -> tuple[Times, Times]:
        """The spans to draw for the window [t0, t1] with pixels `pixel_ns` wide (see `core.lod`).

        With `cursor_ns`, only what started by then, cut at it (a replay).
        """
        level = next(lv for lv in reversed(self.levels) if lv.pixel_ns <= pixel_ns)
        last = t1 if cursor_ns is None else min(t1, cursor_ns)
        first = int(level.reach.searchsorted(_whole_ns(math.ceil(t0)), side="left"))
        stop = max(int(level.starts.searchsorted(_whole_ns(math.floor(last)), side="right")), first)
        ends: Times = level.ends[first:stop]
        if cursor_ns is not None:
            ends = np.minimum(ends, cursor_ns)
        shown = ends >= t0  # before the level's reach passed t0, some spans may still end before it
        starts = np.maximum(level.starts[first:stop][shown], t0)
        drawn_starts, drawn_ends, _merged = merge_narrow(
            starts, np.minimum(ends[shown], t1), level.merged[first:stop][shown], pixel_ns
        )
        return drawn_starts, drawn_ends


def _whole_ns(t: int) -> int:
    """`t` within int64's range.

    The times are int64 and the window's edges are whole ns (the first end at or after t0,
    the last start at or before t1): a float key would make `searchsorted` convert every
    time of the level to float first, which reads them all (60 ms for 10^7 spans).
    """
    return min(max(t, INT64_MIN), INT64_MAX)


def span_levels(starts: npt.ArrayLike, ends: npt.ArrayLike) -> SpanLevels:
    """The spans `starts`, `ends` and their coarser levels."""
    base = Level.of(0.0, starts, ends)
    levels = [base]
    if len(base.starts) < 2:
        return SpanLevels(tuple(levels))
    coarsest = float(base.reach[-1] - base.starts[0]) / COARSEST_PIXELS
    for step in range(FINEST_STEPS, -1, -1):
        pixel = coarsest / LEVEL_STEP**step
        if pixel < 1.0:
            continue
        below = levels[-1]
        level = Level.of(pixel, *merge_narrow(below.starts, below.ends, below.merged, pixel))
        if len(level.starts) * MIN_SHRINK <= len(below.starts):
            levels.append(level)
    return SpanLevels(tuple(levels))


def merge_narrow(starts: Times, ends: Times, merged: BoolArray, pixel: float) -> tuple[Times, Times, BoolArray]:
    """Merge runs of narrow spans less than `pixel` apart; spans at least a pixel wide stay.

    `starts` are sorted; a span of `merged` counts as narrow whatever its width (it stands for
    narrow spans). Returns the spans sorted by start and which of them stand for several.
    A run is kept as its first span, with the run's reach as its end: what is kept is a
    subset of the spans in their own order, so it stays sorted without sorting again.
    """
    narrow = merged | ((ends - starts) < pixel)
    at = np.flatnonzero(narrow)
    if not at.size:
        return starts, ends, merged
    reach = np.maximum.accumulate(ends[at])
    opens = np.empty(at.size, dtype=bool)
    opens[0] = True
    np.greater_equal(starts[at[1:]] - reach[:-1], pixel, out=opens[1:])
    first = np.flatnonzero(opens)
    last = np.append(first[1:] - 1, at.size - 1)
    keep = ~narrow
    keep[at[first]] = True
    out_e, out_m = ends.copy(), merged.copy()
    out_e[at[first]] = reach[last]
    out_m[at[first]] = (last > first) | merged[at[first]]
    return starts[keep], out_e[keep], out_m[keep]

"""Coarser copies of a layer's spans, made once, so that a whole-run view never reads every span.

`core.lod.visible_spans` culls and merges a layer for the window on show, reading each span
of it: with the whole of a 10^6-span run in view that is tens of milliseconds on the GUI
thread, at every zoom and pan. Here, with the rest of a prepared trace (off the GUI thread),
each layer also gets a few levels merged for pixels 4, 16, 64, ... times wider, down to a
few thousand spans for the whole run. A window then starts from the coarsest level whose
pixel is no wider than its own, cuts it to the window by binary search (starts are sorted,
and the running maximum of the ends is too) and merges what is left for its pixel.

A level's merged span stands for narrow spans less than its pixel apart, so it is what a
window of that pixel or wider would merge them into anyway; a merged span wider than the
window's pixel is drawn as it is, which can leave a gap narrower than a pixel unfilled next
to it. Pure: no Qt here.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from overlapviz.core.lod import visible_spans

Int64Array = npt.NDArray[np.int64]
LEVEL_STEP = 4  # each level's pixel is this many times the one below
COARSEST_PIXELS = 4096  # the coarsest level merges for the layer's extent over this many pixels
FINEST_STEPS = 8  # ... and the finest for pixels LEVEL_STEP**FINEST_STEPS times narrower
MIN_SHRINK = 2  # a level is kept only if it has at most half the spans of the one below


@dataclass(frozen=True, slots=True)
class Level:
    """Spans merged for pixels of at least `pixel_ns`; sorted by start, with the running maximum of the ends."""

    pixel_ns: float
    starts: Int64Array
    ends: Int64Array
    reach: Int64Array

    @classmethod
    def of(cls, pixel_ns: float, starts: npt.ArrayLike, ends: npt.ArrayLike) -> Level:
        """The spans `starts`, `ends` as a level for `pixel_ns` (sorted by start here if they are not)."""
        s, e = np.asarray(starts, dtype=np.int64), np.asarray(ends, dtype=np.int64)
        if len(s) > 1 and (np.diff(s) < 0).any():
            order = np.argsort(s, kind="stable")
            s, e = s[order], e[order]
        return cls(pixel_ns, s, e, np.maximum.accumulate(e) if len(e) else e)


@dataclass(frozen=True, slots=True)
class SpanLevels:
    """A layer's spans (level 0, pixel 0) and the coarser levels above them, finest first."""

    levels: tuple[Level, ...]

    def visible(
        self, t0: float, t1: float, pixel_ns: float, cursor_ns: float | None = None
    ) -> tuple[npt.NDArray[np.generic], npt.NDArray[np.generic]]:
        """The spans to draw for the window [t0, t1] with pixels `pixel_ns` wide (see `core.lod`).

        With `cursor_ns`, only what started by then, cut at it (a replay).
        """
        level = next(lv for lv in reversed(self.levels) if lv.pixel_ns <= pixel_ns)
        last = t1 if cursor_ns is None else min(t1, cursor_ns)
        first = int(np.searchsorted(level.reach, t0, side="left"))
        stop = max(int(np.searchsorted(level.starts, last, side="right")), first)
        starts: npt.NDArray[np.generic] = level.starts[first:stop]
        ends: npt.NDArray[np.generic] = level.ends[first:stop]
        if cursor_ns is not None:
            ends = np.minimum(ends, cursor_ns)
        drawn_starts, drawn_ends, _counts = visible_spans(starts, ends, t0, t1, pixel_ns)
        return drawn_starts, drawn_ends


def span_levels(starts: npt.ArrayLike, ends: npt.ArrayLike) -> SpanLevels:
    """The spans `starts`, `ends` and their coarser levels."""
    base = Level.of(0.0, starts, ends)
    levels = [base]
    if len(base.starts) < 2:
        return SpanLevels(tuple(levels))
    extent = float(base.reach[-1] - base.starts[0])
    coarsest = extent / COARSEST_PIXELS
    for step in range(FINEST_STEPS, -1, -1):
        pixel = coarsest / LEVEL_STEP**step
        if pixel < 1.0:
            continue
        below = levels[-1]
        merged_starts, merged_ends, _counts = visible_spans(
            below.starts, below.ends, float(below.starts[0]), float(below.reach[-1]), pixel
        )
        if len(merged_starts) * MIN_SHRINK <= len(below.starts):
            levels.append(Level.of(pixel, merged_starts, merged_ends))
    return SpanLevels(tuple(levels))

"""A layer's spans at every zoom: the wide ones to draw as they are, and the ink of the rest.

At the window on show, a span at least a pixel wide is drawn as it is, and the spans
narrower than a pixel are drawn as their density: the share of each pixel column they
keep busy (`core.analysis.lod`). Finding the wide spans of a window by reading every span of the
layer would cost tens of milliseconds with the whole of a 10^6-span run in view, at every
zoom and pan; so, with the rest of a prepared trace (off the GUI thread), each layer also
gets a few levels holding only its spans at least 4, 16, 64, ... times wider, up to a few
thousand spans for the whole run. A window starts from the coarsest level whose pixel is
no wider than its own and cuts it to the window by binary search (starts are sorted, and
the running maximum of the ends is too); the time the layer's spans cover
(`core.analysis.lod.CoveredTime`, made once) gives the columns' ink, whatever the number of spans.

Which levels a layer has is settled when it is made, by counting its spans at least each
pixel wide (a layer of a few thousand spans has none: cutting it whole costs less than a
level, and a picture of a pipeline has a hundred such layers); only the coarsest, the one
the whole run in view reads, is built then. The finer ones are built the first time a zoom
asks for them: at 10^7 spans, building them all would
take seconds of the open, for windows the user may never look at. A level holds the layer's
spans at least its pixel wide, whichever finer level it is cut from, so a level built late is
the one that would have been built at once. Building one reads a whole finer level (a tenth of
a second at 10^7 spans), so the timeline builds them on a worker thread (`missing`, `level`)
and meanwhile draws from the nearest coarser level built (`visible(..., build=False)`): its
spans narrower than that level's pixel are drawn as ink until the finer level lands. Pure: no
Qt here.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from overlapviz.core.analysis.intervals import by_start
from overlapviz.core.analysis.lod import CoveredTime, column_edges, columns_ink

Int64Array = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
Times = npt.NDArray[Any]  # ns, integer or (cut at a replay's cursor) float
LEVEL_STEP = 4  # each level's pixel is this many times the one below
COARSEST_PIXELS = 4096  # the coarsest level is for the layer's extent over this many pixels
FINEST_STEPS = 8  # ... and the finest for pixels LEVEL_STEP**FINEST_STEPS times narrower
INT64_MIN, INT64_MAX = int(np.iinfo(np.int64).min), int(np.iinfo(np.int64).max)
MIN_SHRINK = 2  # a level is kept only if it has at most half the spans of the one below
FEW_SPANS = 2048  # a layer of no more spans has no coarser levels: cutting it whole costs less than making them
NO_COLUMNS = np.zeros(0)


@dataclass(frozen=True, slots=True)
class Level:
    """The spans at least `pixel_ns` wide, sorted by start; `reach` is the running maximum of the ends."""

    pixel_ns: float
    starts: Int64Array
    ends: Int64Array
    reach: Int64Array

    @classmethod
    def of(cls, pixel_ns: float, starts: npt.ArrayLike, ends: npt.ArrayLike) -> Level:
        """The spans `starts`, `ends` as a level for `pixel_ns` (sorted by start here if they are not)."""
        s, e = by_start(starts, ends)
        return cls(pixel_ns, s, e, np.maximum.accumulate(e) if len(e) else e)

    def wider(self, pixel_ns: float) -> Level:
        """The spans of this level at least `pixel_ns` wide, as a level for `pixel_ns`."""
        wide = (self.ends - self.starts) >= pixel_ns
        s, e = self.starts[wide], self.ends[wide]
        return Level(pixel_ns, s, e, np.maximum.accumulate(e) if len(e) else e)


@dataclass(frozen=True, slots=True)
class ShownSpans:
    """What a layer draws at one window: its wide spans, and the ink of each pixel column for the rest.

    Column i spans `edges[i]` to `edges[i + 1]` (ns); `ink[i]`, from 0 to 1, is the share
    of its time that spans narrower than a pixel keep busy (and the wide ones do not).
    """

    starts: Times
    ends: Times
    edges: FloatArray
    ink: FloatArray


@dataclass(frozen=True, slots=True)
class SpanLevels:
    """A layer's spans (the base level, pixel 0), the pixels of the levels above it (finest first), the time they cover.

    The coarser levels are built when first read (`level`) and kept in `built`, by their index in `pixels`;
    a worker thread may build one while the GUI thread reads the others.
    """

    base: Level
    pixels: tuple[float, ...]
    covered: CoveredTime
    built: dict[int, Level] = field(default_factory=dict)

    @property
    def levels(self) -> tuple[Level, ...]:
        """Every level, the base first (the coarser ones built now if they were not)."""
        return (self.base, *(self.level(index) for index in range(len(self.pixels))))

    def level(self, index: int) -> Level:
        """The coarser level `index` (of `pixels`), cut from the coarsest level below it built so far."""
        if index not in self.built:
            # a snapshot of the keys: another thread may add a level meanwhile
            below = max((i for i in tuple(self.built) if i < index), default=None)
            source = self.base if below is None else self.built[below]
            self.built[index] = source.wider(self.pixels[index])
        return self.built[index]

    def index_for(self, pixel_ns: float) -> int:
        """The index (of `pixels`) of the coarsest level whose pixel is no wider than `pixel_ns`; -1 for the base."""
        return bisect.bisect_right(self.pixels, pixel_ns) - 1

    def missing(self, pixel_ns: float) -> int | None:
        """The index of the level a window of pixels `pixel_ns` wide reads, if it is not built yet."""
        index = self.index_for(pixel_ns)
        return None if index < 0 or index in self.built else index

    def for_pixel(self, pixel_ns: float, *, build: bool = True) -> Level:
        """The coarsest level whose pixel is no wider than `pixel_ns` (built now if it was not).

        Unless `build`: that level if it is built, else the nearest coarser one built (it
        leaves out spans at least `pixel_ns` wide that are narrower than its own pixel), else the
        coarsest finer one (the base at worst).
        """
        index = self.index_for(pixel_ns)
        if index < 0:
            return self.base
        if build:
            return self.level(index)
        built = tuple(self.built)
        nearest = min((i for i in built if i >= index), default=max((i for i in built if i < index), default=None))
        return self.base if nearest is None else self.built[nearest]

    def visible(
        self, t0: float, t1: float, pixel_ns: float, cursor_ns: float | None = None, *, build: bool = True
    ) -> ShownSpans:
        """What to draw for the window [t0, t1] with pixels `pixel_ns` wide (see `core.analysis.lod`).

        With `cursor_ns`, only what started by then, cut at it (a replay). Unless `build`, from the
        levels built so far (`for_pixel`): the spans a missing level would add are drawn as ink.
        """
        return visible_together((self,), t0, t1, pixel_ns, cursor_ns, build=build)[0]


def visible_together(
    layers: Sequence[SpanLevels],
    t0: float,
    t1: float,
    pixel_ns: float,
    cursor_ns: float | None = None,
    *,
    build: bool = True,
) -> list[ShownSpans]:
    """`SpanLevels.visible` of each of `layers` at one window, their ink worked out at once (`columns_ink`)."""
    last = t1 if cursor_ns is None else min(t1, cursor_ns)
    first_key, last_key = _whole_ns(math.ceil(t0)), _whole_ns(math.floor(last))
    cuts = []
    for levels in layers:
        level = levels.for_pixel(pixel_ns, build=build)
        first = int(level.reach.searchsorted(first_key, side="left"))
        stop = max(int(level.starts.searchsorted(last_key, side="right")), first)
        starts, ends = level.starts[first:stop], level.ends[first:stop]
        cut: Times = ends if cursor_ns is None else np.minimum(ends, cursor_ns)
        shown_s, shown_e = np.maximum(starts, t0), np.minimum(cut, t1)
        # before the level's reach passed t0, some spans may still end before it
        wide = (cut >= t0) & ((shown_e - shown_s) >= pixel_ns)
        cuts.append((starts[wide], ends[wide], shown_s[wide], shown_e[wide]))
    if pixel_ns <= 0:
        return [ShownSpans(shown_s, shown_e, NO_COLUMNS, NO_COLUMNS) for _, _, shown_s, shown_e in cuts]
    edges = column_edges(t0, t1, pixel_ns)
    edges.flags.writeable = False  # one array for every layer's columns
    inks = columns_ink([levels.covered for levels in layers], [(s, e) for s, e, _, _ in cuts], edges, cursor_ns)
    return [ShownSpans(shown_s, shown_e, edges, ink) for (_, _, shown_s, shown_e), ink in zip(cuts, inks, strict=True)]


def _whole_ns(t: int) -> int:
    """`t` within int64's range.

    The times are int64 and the window's edges are whole ns (the first end at or after t0,
    the last start at or before t1): a float key would make `searchsorted` convert every
    time of the level to float first, which reads them all (60 ms for 10^7 spans).
    """
    return min(max(t, INT64_MIN), INT64_MAX)


def span_levels(starts: npt.ArrayLike, ends: npt.ArrayLike) -> SpanLevels:
    """The spans `starts`, `ends`, the pixels of their coarser levels (the coarsest built) and the time they cover."""
    s, e = np.asarray(starts, dtype=np.int64), np.asarray(ends, dtype=np.int64)
    lengths = np.empty(len(s) + 1, dtype=np.int64)  # the covered time's pieces, should each span be one
    lengths[0] = 0
    widths = np.subtract(e, s, out=lengths[1:])
    if _apart(s, e, widths):
        base, covered = Level(0.0, s, e, e), _pieces_as_they_are(s, lengths)
    else:
        base = _base_level(s, e)
        widths = base.ends - base.starts
        covered = _covered_time(base)
    levels = SpanLevels(base, _level_pixels(base, widths) if len(s) > FEW_SPANS else (), covered)
    if levels.pixels:  # what the whole run in view shows first, cut from the widths already worked out
        pixel = levels.pixels[-1]
        wide = widths >= pixel
        s, e = base.starts[wide], base.ends[wide]
        levels.built[len(levels.pixels) - 1] = Level(pixel, s, e, np.maximum.accumulate(e) if len(e) else e)
    return levels


def _apart(starts: Int64Array, ends: Int64Array, widths: Int64Array) -> bool:
    """Whether each span starts after the one before it ends (one stream's ops, one thread's calls mostly do).

    Such spans are sorted, each is a piece of the time they cover, and their ends are their
    running maximum: one comparison tells all three.
    """
    if not len(starts):
        return False
    return int(widths.min()) >= 0 and bool((starts[1:] > ends[:-1]).all())


def _pieces_as_they_are(starts: Int64Array, lengths: Int64Array) -> CoveredTime:
    """The time covered by spans that are `_apart`: each one piece, `lengths[1:]` long (`lengths[0]` is 0)."""
    piece_starts = np.empty_like(lengths)
    piece_starts[0] = INT64_MIN
    piece_starts[1:] = starts
    before = np.cumsum(lengths)
    before -= lengths
    return CoveredTime(piece_starts, lengths, before)


def _base_level(s: Int64Array, e: Int64Array) -> Level:
    """The spans as the base level; sorted here only if they are not (a lane's spans mostly come sorted)."""
    if len(s) > 1 and bool((s[1:] < s[:-1]).any()):
        return Level.of(0.0, s, e)
    return Level(0.0, s, e, np.maximum.accumulate(e) if len(e) else e)


def _covered_time(base: Level) -> CoveredTime:
    """The time the spans of `base` cover: its pieces read off its reach, as `CoveredTime.of` merges them."""
    if not len(base.starts):
        return CoveredTime.of(base.starts, base.ends)
    # a span opens a piece when it starts after every span before it has ended; picked by index, several
    # times quicker than by the mask where pieces and overlaps alternate
    opens = np.flatnonzero(base.starts[1:] > base.reach[:-1])
    piece_starts = np.empty(len(opens) + 2, dtype=np.int64)
    piece_starts[0], piece_starts[1] = INT64_MIN, base.starts[0]
    piece_starts[2:] = base.starts[1:].take(opens)
    lengths = np.empty_like(piece_starts)
    lengths[0] = 0
    lengths[1:-1] = base.reach[:-1].take(opens)  # the piece before each opening ends where the reach was
    lengths[-1] = base.reach[-1]
    lengths[1:] -= piece_starts[1:]
    before = np.cumsum(lengths)
    before -= lengths
    return CoveredTime(piece_starts, lengths, before)


def _level_pixels(base: Level, widths: Int64Array) -> tuple[float, ...]:
    """The pixels of the levels above `base`: each a step coarser, kept if it has at most half the spans below it.

    Only counted here: a level's spans are those of `base` (`widths` wide) at least its pixel wide.
    """
    if len(widths) < 2:
        return ()
    coarsest = float(base.reach[-1] - base.starts[0]) / COARSEST_PIXELS
    narrowest, widest = int(widths.min()), int(widths.max())
    kept: list[float] = []
    for step in range(FINEST_STEPS, -1, -1):
        pixel = coarsest / LEVEL_STEP**step
        if pixel < 1.0 or (pixel <= narrowest and len(widths)):
            continue  # no pixel at all, or every span left is as wide: the level would keep them all
        if pixel > widest:
            kept.append(pixel)  # none is as wide: an empty level
            widths = widths[:0]
            continue
        wide = widths >= pixel
        if np.count_nonzero(wide) * MIN_SHRINK <= len(widths):
            kept.append(pixel)
            widths = widths[wide]  # the next pixels are counted on what is left
            if len(widths):
                narrowest = int(widths.min())
    return tuple(kept)

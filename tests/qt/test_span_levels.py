"""Coarser levels of a layer's spans: the same picture as merging every span, for a fraction of the work."""

import numpy as np
import pytest

from overlapviz._qt.timeline.span_item import join_touching
from overlapviz.core.lod import visible_spans
from overlapviz.view.span_levels import COARSEST_PIXELS, span_levels


def _spans(n=200_000, seed=1, widest=2_000):
    """`n` spans 0.2 µs to `widest` ns long with gaps of 0-3 µs, in ns."""
    rng = np.random.default_rng(seed)
    widths = rng.integers(200, widest, n)
    gaps = rng.integers(0, 3_000, n)
    starts = np.cumsum(widths + gaps) - widths
    return starts.astype(np.int64), (starts + widths).astype(np.int64)


def _coverage(starts, ends, t0, t1, pixel):
    """Which pixels of the window [t0, t1] the drawn spans touch."""
    count = int(np.ceil((t1 - t0) / pixel))
    touched = np.zeros(count + 1, dtype=bool)
    first, last = np.floor((starts - t0) / pixel).astype(int), np.floor((ends - t0) / pixel).astype(int)
    for s, e in zip(first, last, strict=True):
        touched[max(s, 0) : min(e, count) + 1] = True
    return touched


def test_levels_get_coarser_and_the_coarsest_is_a_few_thousand_spans():
    starts, ends = _spans()
    levels = span_levels(starts, ends).levels
    assert levels[0].pixel_ns == 0 and len(levels[0].starts) == len(starts)
    pixels = [level.pixel_ns for level in levels]
    assert pixels == sorted(pixels) and len(levels) > 2
    assert len(levels[-1].starts) <= 2 * COARSEST_PIXELS


@pytest.mark.parametrize("widest", [2_000, 200_000])
@pytest.mark.parametrize("pixel", [50.0, 5_000.0, 80_000.0])
@pytest.mark.parametrize("window", [(0.0, 1.0), (0.3, 0.35)])
def test_the_drawn_pixels_are_those_of_merging_every_span(pixel, window, widest):
    starts, ends = _spans(widest=widest)
    extent = float(ends.max())
    t0, t1 = window[0] * extent, window[1] * extent
    drawn = span_levels(starts, ends).visible(t0, t1, pixel)
    exact_starts, exact_ends, _counts = visible_spans(starts, ends, t0, t1, pixel)
    assert abs(len(drawn[0]) - len(exact_starts)) <= 1  # the same rectangles, give or take one at an edge
    assert (drawn[0] >= t0).all() and (drawn[1] <= t1).all()
    mine, exact = _coverage(*drawn, t0, t1, pixel), _coverage(exact_starts, exact_ends, t0, t1, pixel)
    assert np.count_nonzero(mine != exact) <= 1  # a merged span cut at the window's edge


def test_a_fine_pixel_draws_exactly_what_merging_every_span_draws():
    starts, ends = _spans(5_000)
    drawn = span_levels(starts, ends).visible(1e5, 4e6, 10.0)
    exact = visible_spans(starts, ends, 1e5, 4e6, 10.0)
    assert np.array_equal(drawn[0], exact[0]) and np.array_equal(drawn[1], exact[1])


def test_the_cursor_shows_what_started_by_then_cut_at_it():
    starts = np.array([0, 10, 20, 30], dtype=np.int64)
    ends = np.array([5, 25, 22, 40], dtype=np.int64)
    drawn_starts, drawn_ends = span_levels(starts, ends).visible(0.0, 100.0, 0.0, cursor_ns=21.0)
    assert drawn_starts.tolist() == [0, 10, 20] and drawn_ends.tolist() == [5, 21, 21]


def test_unsorted_and_tiny_inputs():
    levels = span_levels(np.array([30, 10], dtype=np.int64), np.array([35, 12], dtype=np.int64))
    assert levels.levels[0].starts.tolist() == [10, 30]
    assert span_levels(np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)).visible(0.0, 1.0, 1.0)[0].size == 0


def test_a_window_with_fractional_edges_keeps_every_span_that_reaches_into_it():
    starts = np.array([0, 10, 20], dtype=np.int64)
    ends = np.array([10, 20, 30], dtype=np.int64)
    drawn_starts, drawn_ends = span_levels(starts, ends).visible(10.5, 19.5, 0.0)
    assert drawn_starts.tolist() == [10.5] and drawn_ends.tolist() == [19.5]
    drawn_starts, _ends = span_levels(starts, ends).visible(9.5, 20.0, 0.0)
    assert drawn_starts.tolist() == [9.5, 10, 20]


def _rects(*spans):
    """Rows (x, y, w, h) of one lane row from (left, width) pairs."""
    return np.array([(left, 4.0, width, 10.0) for left, width in spans])


def test_touching_rectangles_are_filled_as_one():
    joined = join_touching(_rects((0, 2), (2, 1), (3, 4), (9, 1)), overlapping=False)
    assert joined.tolist() == _rects((0, 7), (9, 1)).tolist()


def _times_painted(rects):
    """How many rectangles cover each pixel column."""
    counts = np.zeros(int((rects[:, 0] + rects[:, 2]).max()), dtype=int)
    for left, _top, width, _height in rects.astype(int):
        counts[left : left + width] += 1
    return counts


def test_only_an_opaque_fill_joins_overlapping_rectangles():
    rects = _rects((0, 3), (1, 1), (2, 2), (6, 1))
    assert join_touching(rects, overlapping=True).tolist() == _rects((0, 4), (6, 1)).tolist()
    translucent = join_touching(rects, overlapping=False)
    assert translucent.tolist() == _rects((0, 3), (1, 3), (6, 1)).tolist()
    assert _times_painted(translucent).tolist() == _times_painted(rects).tolist()  # a pale fill darkens as often


@pytest.mark.parametrize("overlapping", [False, True])
def test_joined_rectangles_paint_the_same_pixels(overlapping):
    rng = np.random.default_rng(3)
    lefts = np.sort(rng.integers(0, 400, 300)).astype(float)
    rects = np.column_stack((lefts, np.full(300, 4.0), rng.integers(1, 4, 300).astype(float), np.full(300, 10.0)))
    joined = join_touching(rects, overlapping=overlapping)
    assert len(joined) < len(rects)
    if overlapping:
        assert (_times_painted(joined) > 0).tolist() == (_times_painted(rects) > 0).tolist()
    else:
        assert _times_painted(joined).tolist() == _times_painted(rects).tolist()


def test_joining_sorts_by_left_edge_first():
    assert join_touching(_rects((5, 1), (0, 5)), overlapping=True).tolist() == _rects((0, 6)).tolist()

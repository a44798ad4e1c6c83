"""Coarser levels of a layer's spans: the same picture as reading every span, for a fraction of the work."""

import numpy as np
import pytest
from PySide6.QtGui import QTransform

from overlapviz._qt.timeline.ink_bars import ink_rects
from overlapviz._qt.timeline.span_item import join_touching
from overlapviz.core.analysis.lod import CoveredTime, column_edges, column_ink
from overlapviz.view.lane_ink import ink_bases
from overlapviz.view.palette import SpanStyle
from overlapviz.view.span_levels import COARSEST_PIXELS, span_levels


def _spans(n=200_000, seed=1, widest=2_000):
    """`n` spans 0.2 µs to `widest` ns long with gaps of 0-3 µs, in ns."""
    rng = np.random.default_rng(seed)
    widths = rng.integers(200, widest, n)
    gaps = rng.integers(0, 3_000, n)
    starts = np.cumsum(widths + gaps) - widths
    return starts.astype(np.int64), (starts + widths).astype(np.int64)


def _from_every_span(starts, ends, t0, t1, pixel):
    """What to draw, worked out from every span: the wide ones clipped, and the ink of the rest."""
    shown_s, shown_e = np.maximum(starts, t0), np.minimum(ends, t1)
    wide = (starts <= t1) & (ends >= t0) & (shown_e - shown_s >= pixel)
    edges = column_edges(t0, t1, pixel)
    ink = column_ink(CoveredTime.of(starts, ends), CoveredTime.of(starts[wide], ends[wide]), edges)
    return shown_s[wide], shown_e[wide], ink


def test_levels_get_coarser_and_the_coarsest_is_a_few_thousand_spans():
    starts, ends = _spans(widest=200_000)
    levels = span_levels(starts, ends).levels
    assert levels[0].pixel_ns == 0 and len(levels[0].starts) == len(starts)
    pixels = [level.pixel_ns for level in levels]
    assert pixels == sorted(pixels) and len(levels) > 2
    assert len(levels[-1].starts) <= 2 * COARSEST_PIXELS
    assert all((level.ends - level.starts >= level.pixel_ns).all() for level in levels)


@pytest.mark.parametrize("widest", [2_000, 200_000])
@pytest.mark.parametrize("columns", [300, 1600, 20_000])
@pytest.mark.parametrize("window", [(0.0, 1.0), (0.3, 0.35), (0.5, 0.5001)])
def test_the_levels_draw_what_every_span_draws(columns, window, widest):
    starts, ends = _spans(widest=widest)
    extent = float(ends.max())
    t0, t1 = window[0] * extent, window[1] * extent
    pixel = (t1 - t0) / columns
    shown = span_levels(starts, ends).visible(t0, t1, pixel)
    exact_starts, exact_ends, exact_ink = _from_every_span(starts, ends, t0, t1, pixel)
    assert np.array_equal(shown.starts, exact_starts) and np.array_equal(shown.ends, exact_ends)
    assert np.allclose(shown.ink, exact_ink) and np.array_equal(shown.edges, column_edges(t0, t1, pixel))


def test_what_is_drawn_as_spans_and_as_ink_adds_up_to_the_busy_time():
    starts, ends = _spans(widest=20_000)
    t0, t1, pixel = 1e6, 9e6, 4_000.0
    shown = span_levels(starts, ends).visible(t0, t1, pixel)
    drawn = CoveredTime.of(shown.starts.astype(np.int64), shown.ends.astype(np.int64)).total
    inked = float((shown.ink * np.diff(shown.edges)).sum())
    busy = CoveredTime.of(np.clip(starts, t0, t1), np.clip(ends, t0, t1)).total
    assert 0 < inked < busy and drawn + inked == pytest.approx(busy, abs=2.0)


def test_a_level_not_built_yet_is_drawn_from_the_nearest_coarser_one_with_the_same_busy_time():
    rng = np.random.default_rng(3)
    widths = np.rint(10 ** rng.uniform(2, 6, 100_000)).astype(np.int64)  # 100 ns to 1 ms
    starts = np.cumsum(widths + rng.integers(0, 1_000, len(widths))) - widths
    ends = starts + widths
    levels = span_levels(starts, ends)
    pixel = levels.pixels[0]  # the finest level: only the coarsest is built at first
    t0 = 0.4 * float(ends.max())
    t1 = t0 + 1600 * pixel
    assert levels.missing(pixel) == 0
    meanwhile = levels.visible(t0, t1, pixel, build=False)
    assert levels.missing(pixel) == 0  # still not built
    exact_starts, _exact_ends, _ink = _from_every_span(starts, ends, t0, t1, pixel)
    assert set(meanwhile.starts.tolist()) < set(exact_starts.tolist())  # the coarser level's spans only ...
    busy = CoveredTime.of(np.clip(starts, t0, t1), np.clip(ends, t0, t1)).total
    drawn = CoveredTime.of(meanwhile.starts.astype(np.int64), meanwhile.ends.astype(np.int64)).total
    inked = float((meanwhile.ink * np.diff(meanwhile.edges)).sum())
    assert drawn + inked == pytest.approx(busy, abs=2.0)  # ... and the rest as ink
    levels.level(0)  # as a worker would
    assert levels.missing(pixel) is None
    shown = levels.visible(t0, t1, pixel, build=False)
    assert np.array_equal(shown.starts, exact_starts)


def test_the_cursor_shows_what_started_by_then_cut_at_it():
    starts = np.array([0, 10, 20, 30], dtype=np.int64)
    ends = np.array([5, 25, 22, 40], dtype=np.int64)
    shown = span_levels(starts, ends).visible(0.0, 100.0, 0.0, cursor_ns=21.0)
    assert shown.starts.tolist() == [0, 10, 20] and shown.ends.tolist() == [5, 21, 21]
    shown = span_levels(starts, ends).visible(0.0, 40.0, 20.0, cursor_ns=21.0)
    assert shown.starts.size == 0 and shown.ink.tolist() == [0.75, 0.05]  # [0, 5] and [10, 21] by then


def test_unsorted_and_tiny_inputs():
    levels = span_levels(np.array([30, 10], dtype=np.int64), np.array([35, 12], dtype=np.int64))
    assert levels.levels[0].starts.tolist() == [10, 30]
    empty = span_levels(np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)).visible(0.0, 1.0, 1.0)
    assert empty.starts.size == 0 and empty.ink.tolist() == [0.0]


def test_a_window_with_fractional_edges_keeps_every_span_that_reaches_into_it():
    starts = np.array([0, 10, 20], dtype=np.int64)
    ends = np.array([10, 20, 30], dtype=np.int64)
    shown = span_levels(starts, ends).visible(10.5, 19.5, 0.0)
    assert shown.starts.tolist() == [10.5] and shown.ends.tolist() == [19.5]
    assert span_levels(starts, ends).visible(9.5, 20.0, 0.0).starts.tolist() == [9.5, 10, 20]


def test_a_span_cut_to_less_than_a_pixel_by_the_window_is_drawn_as_ink():
    shown = span_levels(np.array([0], dtype=np.int64), np.array([100], dtype=np.int64)).visible(95.0, 135.0, 10.0)
    assert shown.starts.size == 0 and shown.ink.tolist() == [0.5, 0.0, 0.0, 0.0]


def test_a_lanes_layers_stack_their_ink_and_blocked_time_lies_over_the_calls():
    h2d, kernel, calls, blocked = np.array([0.2, 0.5]), np.array([0.3, 0.0]), np.array([0.6, 0.1]), np.array([0.4, 0])
    bases = ink_bases([
        ("stream-0", SpanStyle.H2D, h2d), ("host", SpanStyle.API, calls), ("stream-0", SpanStyle.KERNEL, kernel),
        ("host", SpanStyle.BLOCKED, blocked), ("stream-1", SpanStyle.D2H, h2d),
    ])  # fmt: skip
    assert [base.tolist() for base in bases] == [[0, 0], [0, 0], [0.2, 0.5], [0, 0], [0, 0]]


def test_ink_bars_rise_from_their_base_by_their_share_of_the_lane_and_join_when_alike():
    to_device = QTransform(10.0, 0.0, 0.0, 100.0, 0.0, 0.0)  # 1 ms: 10 px; a lane from y 0.2 to 0.6: 40 px
    edges_ms = np.array([0.0, 0.1, 0.2, 0.3, 0.4, 0.5])
    ink, base = np.array([0.5, 0.5, 0.0, 0.25, 1.0]), np.array([0.0, 0.0, 0.3, 0.5, 0.5])
    rects = ink_rects(edges_ms, ink, base, (0.2, 0.6), to_device)
    assert rects.tolist() == [[0, 40, 2, 20], [3, 30, 1, 10], [4, 20, 1, 20]]  # the last one stops at the top


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

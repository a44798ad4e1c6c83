import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from overlapviz.core.lod import visible_spans


def spans(*pairs):
    return np.array([p[0] for p in pairs], dtype=np.int64), np.array([p[1] for p in pairs], dtype=np.int64)


def test_empty_input_gives_empty_output():
    s, e, n = visible_spans(np.zeros(0, np.int64), np.zeros(0, np.int64), 0, 100, 1)
    assert s.size == e.size == n.size == 0
    assert n.dtype == np.int64


def test_spans_outside_the_window_are_culled():
    s, e, n = visible_spans(*spans((0, 10), (20, 30), (200, 210)), 15, 100, 1)
    assert s.tolist() == [20] and e.tolist() == [30] and n.tolist() == [1]


def test_spans_crossing_the_window_edges_are_clipped_to_it():
    s, e, n = visible_spans(*spans((0, 50), (60, 200), (-10, 300)), 20, 100, 1)
    assert list(zip(s.tolist(), e.tolist(), strict=True)) == [(20, 50), (20, 100), (60, 100)]
    assert n.tolist() == [1, 1, 1]


def test_spans_touching_an_edge_are_visible():
    s, e, _n = visible_spans(*spans((0, 20), (100, 120)), 20, 100, 0)
    assert list(zip(s.tolist(), e.tolist(), strict=True)) == [(20, 20), (100, 100)]


def test_subpixel_spans_close_together_merge_with_a_count():
    starts = np.arange(0, 100, 10)  # ten spans 2 wide, 8 apart
    s, e, n = visible_spans(starts, starts + 2, 0, 1000, 10)
    assert (s.tolist(), e.tolist(), n.tolist()) == ([0], [92], [10])


def test_a_gap_of_a_pixel_or_more_stays_visible():
    s, e, n = visible_spans(*spans((0, 2), (4, 6), (16, 18), (19, 20)), 0, 100, 10)
    assert list(zip(s.tolist(), e.tolist(), n.tolist(), strict=True)) == [(0, 6, 2), (16, 20, 2)]


def test_wide_spans_are_kept_as_they_are():
    s, e, n = visible_spans(*spans((0, 50), (40, 100), (101, 102), (103, 104)), 0, 200, 10)
    assert list(zip(s.tolist(), e.tolist(), n.tolist(), strict=True)) == [(0, 50, 1), (40, 100, 1), (101, 104, 2)]


def test_zero_min_width_merges_nothing():
    _s, _e, n = visible_spans(*spans((0, 1), (1, 2), (2, 3)), 0, 10, 0)
    assert n.tolist() == [1, 1, 1]


def test_unsorted_input_comes_out_sorted():
    s, e, _n = visible_spans(*spans((50, 60), (0, 30), (20, 25)), 0, 100, 1)
    assert s.tolist() == [0, 20, 50]
    assert e.tolist() == [30, 25, 60]


def test_float_times_work_as_well():
    s, e, _n = visible_spans([0.0, 0.5, 3.0], [0.1, 0.6, 4.0], 0.2, 10.0, 0.5)
    assert s.tolist() == pytest.approx([0.5, 3.0])
    assert e.tolist() == pytest.approx([0.6, 4.0])


def test_bad_arguments_are_named():
    with pytest.raises(ValueError, match="one length"):
        visible_spans([0, 1], [1], 0, 10, 1)
    with pytest.raises(ValueError, match="window ends"):
        visible_spans([0], [1], 10, 0, 1)
    with pytest.raises(ValueError, match="min_width"):
        visible_spans([0], [1], 0, 10, -1)
    with pytest.raises(ValueError, match="min_width"):
        visible_spans([0], [1], 0, 10, float("nan"))


def union(starts, ends):
    pieces = []
    for s, e in sorted(zip(starts, ends, strict=True)):
        if pieces and s <= pieces[-1][1]:
            pieces[-1][1] = max(pieces[-1][1], e)
        else:
            pieces.append([s, e])
    return pieces


span_lists = st.lists(st.tuples(st.integers(-50, 250), st.integers(0, 40)), max_size=40)


@settings(database=None, deadline=None, max_examples=300)
@given(raw=span_lists, t0=st.integers(-20, 100), width=st.integers(0, 150), min_width=st.integers(0, 12))
def test_merged_output_covers_the_visible_union_and_fills_only_subpixel_gaps(raw, t0, width, min_width):
    t1 = t0 + width
    starts = np.array([s for s, _ in raw], dtype=np.int64)
    ends = starts + np.array([d for _, d in raw], dtype=np.int64)
    s, e, n = visible_spans(starts, ends, t0, t1, min_width)

    visible = [(max(a, t0), min(b, t1)) for a, b in zip(starts.tolist(), ends.tolist(), strict=True)
               if a <= t1 and b >= t0]
    assert int(n.sum()) == len(visible)
    assert (n >= 1).all()
    assert (s >= t0).all() and (e <= t1).all() and (s <= e).all()
    assert (np.diff(s) >= 0).all()

    inputs = union(*zip(*visible, strict=True)) if visible else []
    drawn = union(s.tolist(), e.tolist()) if s.size else []
    for a, b in inputs:  # everything visible is drawn
        assert any(c <= a and b <= d for c, d in drawn)
    for c, d in drawn:  # a drawn piece is input pieces joined across gaps narrower than a pixel
        inside = [(a, b) for a, b in inputs if c <= a and b <= d]
        assert inside and inside[0][0] == c and max(b for _, b in inside) == d
        assert all(nxt[0] - prev[1] < min_width for prev, nxt in itertools.pairwise(inside))
    if min_width == 0:
        assert drawn == inputs


@settings(database=None, deadline=None, max_examples=100)
@given(raw=span_lists, min_width=st.integers(1, 12))
def test_wide_spans_pass_through_one_for_one(raw, min_width):
    starts = np.array([s for s, _ in raw], dtype=np.int64)
    ends = starts + np.array([d for _, d in raw], dtype=np.int64)
    s, e, n = visible_spans(starts, ends, -100, 400, min_width)
    wide_in = sorted((a, b) for a, b in zip(starts.tolist(), ends.tolist(), strict=True) if b - a >= min_width)
    wide_out = sorted((a, b) for a, b, k in zip(s.tolist(), e.tolist(), n.tolist(), strict=True)
                      if k == 1 and b - a >= min_width)
    assert wide_out == wide_in


def test_a_million_spans_reduce_to_about_one_per_pixel():
    rng = np.random.default_rng(0)
    starts = np.sort(rng.integers(0, 10**9, 10**6))
    s, _e, n = visible_spans(starts, starts + 500, 0, 10**9, 10**9 / 2000)
    assert n.sum() == 10**6
    assert s.size <= 2000

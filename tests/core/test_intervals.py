"""The one interval merge (`core.analysis.intervals`): unions, gaps closed below a width, runs of rectangles."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from overlapviz.core.analysis.intervals import by_start, merge_runs, union_intervals, union_ns

spans = st.lists(st.tuples(st.integers(-1000, 1000), st.integers(0, 300)), max_size=30).map(
    lambda pairs: ([s for s, _ in pairs], [s + d for s, d in pairs])
)
gaps = st.integers(0, 200)


def test_no_spans_give_no_pieces():
    starts, ends = union_intervals([], [])
    assert starts.dtype == ends.dtype == np.int64 and starts.size == ends.size == 0
    assert union_intervals([], [], join_below=10)[0].size == 0
    first, run_ends = merge_runs(np.zeros(0), np.zeros(0))
    assert first.dtype == np.intp and first.size == 0 and run_ends.dtype == np.float64


def test_touching_spans_join_and_a_gap_of_exactly_the_width_stays_open():
    assert union_intervals([0, 5], [5, 9])[0].tolist() == [0]
    assert union_intervals([0, 6], [5, 9])[0].tolist() == [0, 6]
    assert union_intervals([0, 15], [5, 20], join_below=10)[0].tolist() == [0, 15]  # gap 10: open
    assert union_intervals([0, 14], [5, 20], join_below=10)[0].tolist() == [0]  # gap 9: closed


def test_a_run_ends_at_the_latest_end_of_its_spans_not_its_last_one():
    starts, ends = union_intervals([0, 2, 4], [10, 3, 5])
    assert starts.tolist() == [0] and ends.tolist() == [10]


def test_equal_starts_keep_their_order():
    starts, ends = by_start([5, 1, 5, 1], [6, 2, 7, 3])
    assert starts.tolist() == [1, 1, 5, 5] and ends.tolist() == [2, 3, 6, 7]


def test_without_overlapping_only_spans_that_meet_end_to_start_join():
    first, run_ends = merge_runs(np.array([0.0, 2.0, 2.5, 6.0]), np.array([2.0, 3.0, 4.0, 7.0]), overlapping=False)
    assert first.tolist() == [0, 2, 3] and run_ends.tolist() == [3.0, 4.0, 7.0]


@given(spans)
def test_the_union_is_sorted_disjoint_and_no_longer_than_the_durations_added_up(pair):
    starts, ends = pair
    union_s, union_e = union_intervals(starts, ends)
    assert (union_s[1:] > union_e[:-1]).all() and (union_e >= union_s).all()
    summed = sum(e - s for s, e in zip(starts, ends, strict=True))
    assert union_ns(starts, ends) == int((union_e - union_s).sum()) <= summed


@given(spans, gaps)
def test_every_span_lies_in_one_piece_and_the_pieces_lie_at_least_the_width_apart(pair, gap):
    starts, ends = pair
    union_s, union_e = union_intervals(starts, ends, join_below=gap)
    assert ((union_s[1:] - union_e[:-1]) >= max(gap, 1)).all()
    for s, e in zip(starts, ends, strict=True):
        piece = np.searchsorted(union_s, s, side="right") - 1
        assert union_s[piece] <= s and e <= union_e[piece]
    assert set(union_s.tolist()) <= set(starts) and set(union_e.tolist()) <= set(ends)


@given(spans, gaps)
def test_merging_again_changes_nothing(pair, gap):
    once = union_intervals(*pair, join_below=gap)
    twice = union_intervals(*once, join_below=gap)
    assert once[0].tolist() == twice[0].tolist() and once[1].tolist() == twice[1].tolist()


@given(spans, gaps)
def test_closing_gaps_below_a_width_merges_the_union_further(pair, gap):
    union = union_intervals(*pair)
    merged = union_intervals(*pair, join_below=gap)
    assert union_intervals(*union, join_below=gap)[0].tolist() == merged[0].tolist()
    assert len(merged[0]) <= len(union[0])

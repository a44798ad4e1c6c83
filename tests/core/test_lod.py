import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from overlapviz.core.analysis.lod import CoveredTime, column_edges, column_ink, columns_ink

NONE = CoveredTime.of([], [])


def busy(*pairs):
    return CoveredTime.of([p[0] for p in pairs], [p[1] for p in pairs])


def ink(spans, t0, t1, pixel, drawn=NONE, cursor=None):
    return column_ink(spans, drawn, column_edges(t0, t1, pixel), cursor).tolist()


def test_each_column_is_inked_by_the_share_of_its_time_the_spans_cover():
    assert ink(busy((0, 5), (10, 12), (16, 17)), 0, 20, 10) == [0.5, 0.3]


def test_a_span_across_a_column_edge_inks_both_columns_by_their_parts():
    assert ink(busy((8, 12)), 0, 20, 10) == [0.2, 0.2]


def test_overlapping_spans_on_one_lane_count_once():
    assert ink(busy((0, 6), (3, 8), (4, 5)), 0, 10, 10) == [0.8]
    assert ink(busy((2, 4), (2, 4), (2, 4)), 0, 10, 5) == [0.4, 0.0]


def test_the_spans_drawn_as_they_are_leave_only_the_rest_as_ink():
    spans = busy((0, 10), (12, 13), (5, 15))  # the last one overlaps the wide span drawn
    assert ink(spans, 0, 20, 10, drawn=busy((0, 10))) == [0.0, 0.5]


def test_a_last_column_cut_by_the_window_is_inked_by_its_own_width():
    assert ink(busy((20, 24)), 0, 25, 10) == [0.0, 0.0, 0.8]


def test_after_a_replay_cursor_the_time_counts_as_idle():
    assert ink(busy((0, 10), (12, 18)), 0, 20, 10, cursor=15.0) == [1.0, 0.3]


def test_fractional_edges_measure_fractions_of_a_ns():
    assert ink(busy((0, 10)), 9.5, 10.5, 0.5) == [1.0, 0.0]


def test_no_spans_no_ink_and_the_busy_total():
    assert ink(NONE, 0, 20, 10) == [0.0, 0.0]
    assert busy((0, 6), (3, 8), (10, 11)).total == 9 and NONE.total == 0


@pytest.mark.parametrize(("t0", "t1", "pixel"), [(10, 0, 1), (0, 10, 0), (0, 10, -1), (0, 10, float("nan"))])
def test_a_reversed_window_or_a_pixel_of_no_width_is_refused(t0, t1, pixel):
    with pytest.raises(ValueError, match=r"window|pixel"):
        column_edges(t0, t1, pixel)


def _covered(pairs, size=600):
    """Which whole ns [t, t + 1) of [-100, 500) the spans cover, counted one by one."""
    covered = np.zeros(size, dtype=bool)
    for s, e in pairs:
        covered[s + 100 : e + 100] = True
    return covered


span_lists = st.lists(st.tuples(st.integers(-50, 250), st.integers(0, 40)), max_size=40)


@settings(database=None, deadline=None, max_examples=300)
@given(raw=span_lists, t0=st.integers(-20, 100), columns=st.integers(1, 30), pixel=st.integers(1, 12),
       wide_from=st.integers(0, 41))  # fmt: skip
def test_the_ink_is_the_time_covered_ns_by_ns_and_not_drawn(raw, t0, columns, pixel, wide_from):
    pairs = [(s, s + d) for s, d in raw]
    wide = [(s, e) for s, e in pairs if e - s >= wide_from]
    t1 = t0 + columns * pixel
    found = ink(CoveredTime.of(*_columns(pairs)), t0, t1, pixel, drawn=CoveredTime.of(*_columns(wide)))
    left = _covered(pairs) & ~_covered(wide)
    expected = [left[a + 100 : a + 100 + pixel].mean() for a in range(t0, t1, pixel)]
    assert found == pytest.approx(expected)


def _columns(pairs):
    return [s for s, _ in pairs], [e for _, e in pairs]


def test_a_million_spans_ink_their_busy_time_and_no_more():
    rng = np.random.default_rng(0)
    starts = np.sort(rng.integers(0, 10**9, 10**6))
    spans = CoveredTime.of(starts, starts + 500)
    edges = column_edges(0, 10**9 + 500, 10**9 / 2000)
    shares = column_ink(spans, NONE, edges)
    assert len(shares) == 2001
    assert float((shares * np.diff(edges)).sum()) == pytest.approx(spans.total)


layer_lists = st.lists(st.tuples(span_lists, st.integers(0, 41)), min_size=1, max_size=6)


@settings(database=None, deadline=None, max_examples=200)
@given(layers=layer_lists, t0=st.integers(-20, 100), columns=st.integers(1, 30), pixel=st.integers(1, 12),
       cursor=st.one_of(st.none(), st.integers(-30, 300)))  # fmt: skip
def test_layers_worked_out_together_ink_as_each_does_alone(layers, t0, columns, pixel, cursor):
    edges = column_edges(t0, t0 + columns * pixel, pixel)
    covered, drawn, alone = [], [], []
    for raw, wide_from in layers:
        pairs = sorted((s, s + d) for s, d in raw)
        wide = [(s, e) for s, e in pairs if e - s >= wide_from]
        covered.append(CoveredTime.of(*_columns(pairs)))
        drawn.append(tuple(np.array(side, dtype=np.int64) for side in _columns(wide)))
        left = _covered(pairs) & ~_covered(wide)
        if cursor is not None:
            left[max(cursor + 100, 0) :] = False
        alone.append([left[a + 100 : a + 100 + pixel].mean() for a in range(t0, t0 + columns * pixel, pixel)])
    together = columns_ink(covered, drawn, edges, cursor)
    assert together.shape == (len(layers), columns)
    assert together == pytest.approx(np.array(alone))


def test_a_window_too_wide_to_lay_the_layers_end_to_end_inks_them_one_by_one():
    far = 2**60  # three stretches this wide do not fit on int64's axis together
    spans = [(-far, -far + 2**58), (0, 2**57), (far - 2**58, far)]
    covered = [busy(span) for span in spans]
    edges = column_edges(-far, far, 2**59)
    nothing = [(np.zeros(0, np.int64), np.zeros(0, np.int64))] * 3
    assert columns_ink(covered, nothing, edges).tolist() == [[0.5, 0, 0, 0], [0, 0, 0.25, 0], [0, 0, 0, 0.5]]
    drawn = [(np.array([s]), np.array([e])) for s, e in spans]
    assert (columns_ink(covered, drawn, edges) == 0).all()


def test_the_widest_window_inks_one_layer_on_its_own_stretch():
    edges = column_edges(-(2.0**62), 2.0**62, 2.0**60)  # cut to the widest window there is
    drawn = (np.zeros(0, np.int64), np.zeros(0, np.int64))
    assert columns_ink([busy((0, 2**59))], [drawn], edges).tolist() == [[0, 0, 0.5, 0]]


@pytest.mark.parametrize(("cursor", "expected"), [(-np.inf, [0.0, 0.0]), (np.inf, [0.5, 0.3]), (-5.0, [0.0, 0.0])])
def test_a_cursor_before_or_past_the_window_inks_nothing_or_everything(cursor, expected):
    assert ink(busy((0, 5), (10, 12), (16, 17)), 0, 20, 10, cursor=cursor) == expected

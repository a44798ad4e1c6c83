import itertools

from overlapviz._qt.slider_values import (
    ITER_VALUES,
    SIZE_VALUES,
    STREAM_VALUES,
    chunk_values,
    nearest_value,
)
from overlapviz.core.config import DEFAULT_ITERS, GIB, MIB, PipelineConfig


def test_ladders_span_the_ranges_the_controls_promise():
    assert tuple(range(1, 33)) == STREAM_VALUES
    assert SIZE_VALUES[0] == 1 * MIB and SIZE_VALUES[-1] == 4 * GIB
    assert 256 * MIB in SIZE_VALUES
    assert ITER_VALUES[0] == 0 and DEFAULT_ITERS in ITER_VALUES


def test_size_ladder_is_logarithmic():
    ratios = [b / a for a, b in itertools.pairwise(SIZE_VALUES)]
    assert all(1.3 <= r <= 1.5 for r in ratios)


def test_every_offered_chunk_count_divides_the_buffer():
    for size in SIZE_VALUES:
        for chunks in chunk_values(size):
            PipelineConfig(size_bytes=size, chunks=chunks)  # raises if it does not divide


def test_chunk_values_leave_out_counts_that_do_not_divide():
    values = chunk_values(3 * MIB)  # 786432 = 2^18 * 3 elements
    assert 3 in values and 6 in values and 1024 in values
    assert 5 not in values and 7 not in values
    assert max(chunk_values(256 * MIB)) == 1024 and 3 not in chunk_values(256 * MIB)


def test_nearest_value_is_by_ratio_and_ties_go_down():
    assert nearest_value((1, 2, 4, 8), 3) == 4  # 4/3 is nearer than 3/2
    assert nearest_value((2, 8), 4) == 2  # equal ratios: the smaller
    assert nearest_value((0, 10, 20), 0) == 0
    assert nearest_value((0, 10, 20), 14, log=False) == 10

import itertools

from overlapviz.core.config import DEFAULT_ITERS, GIB, MIB, PipelineConfig
from overlapviz.view.slider_values import (
    ITER_VALUES,
    SIZE_VALUES,
    STREAM_VALUES,
    chunk_values,
    nearest_value,
)


def test_ladders_span_the_ranges_the_controls_promise():
    assert tuple(range(1, 33)) == STREAM_VALUES
    assert SIZE_VALUES[0] == 1 * MIB and SIZE_VALUES[-1] == 4 * GIB
    assert 256 * MIB in SIZE_VALUES
    assert ITER_VALUES[0] == 0 and DEFAULT_ITERS in ITER_VALUES


def test_size_ladder_is_logarithmic():
    ratios = [b / a for a, b in itertools.pairwise(SIZE_VALUES)]
    assert all(1.3 <= r <= 1.5 for r in ratios)


def test_every_offered_chunk_count_is_a_valid_pipeline():
    for size in SIZE_VALUES:
        for chunks in chunk_values(size):
            PipelineConfig(size_bytes=size, chunks=chunks)  # raises if it is not


def test_chunk_values_offer_counts_that_do_not_divide_the_buffer():
    values = chunk_values(256 * MIB)
    assert set(range(1, 17)) <= set(values)  # 3 streams x 4 chunks = 12 is there, though 12 does not divide
    assert {24, 48, 96, 768, 1024} <= set(values) and max(values) == 1024
    ratios = [b / a for a, b in itertools.pairwise(values) if a >= 16]
    assert all(r <= 1.5 for r in ratios)  # a log ladder past 16


def test_chunk_values_never_offer_more_chunks_than_elements():
    assert max(chunk_values(4 * 40)) == 32  # 40 elements: 24 and 32 are on the ladder, 48 is not


def test_nearest_value_is_by_ratio_and_ties_go_down():
    assert nearest_value((1, 2, 4, 8), 3) == 4  # 4/3 is nearer than 3/2
    assert nearest_value((2, 8), 4) == 2  # equal ratios: the smaller
    assert nearest_value((0, 10, 20), 0) == 0
    assert nearest_value((0, 10, 20), 14, log=False) == 10

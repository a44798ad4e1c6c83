import pytest

from overlapviz.backends.cupy.fifo_replay import replay_fifo, replay_groups


def test_queued_copy_starts_when_the_one_before_it_ends():
    # three copies ready at once on different streams: events say each ran from 0 to its end
    assert replay_fifo([0, 0, 0], [10, 20, 30]) == [0, 10, 20]


def test_copy_ready_after_the_engine_freed_starts_when_ready():
    assert replay_fifo([0, 50], [10, 60]) == [0, 50]


def test_order_follows_end_times_not_list_order():
    assert replay_fifo([0, 0], [20, 10]) == [10, 0]


def test_start_never_passes_end():
    # inconsistent readings (end before the previous op's end) must not give negative spans
    assert replay_fifo([0, 0], [10, 10]) == [0, 10]
    assert replay_fifo([0, 0], [30, 20]) == [20, 0]


def test_lengths_must_match():
    with pytest.raises(ValueError, match="2 ready times for 1 end times"):
        replay_fifo([0, 1], [5])


def test_groups_replay_separately_and_others_start_when_ready():
    ready = [0, 0, 0, 5]
    end = [10, 20, 30, 40]
    # rows 0 and 1 share a unit; 2 shares with nobody listed; 3 alone in its group
    assert replay_groups([[0, 1], [3]], ready, end) == [0, 10, 0, 5]

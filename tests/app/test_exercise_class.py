"""An exercise put to the class, without Qt: what a learner's answer sends, and the server's histogram read."""

from __future__ import annotations

import dataclasses

import pytest

from overlapviz.app.exercise_class import ClassRounds, HistogramError, histogram_of
from overlapviz.app.exercise_session import ExerciseOnShow, Phase
from overlapviz.exercises import get_exercise


def test_a_committed_answer_is_sent_once_and_only_for_a_round_sent() -> None:
    rounds = ClassRounds()
    asking = ExerciseOnShow(get_exercise("pinned-reuse"), 0, answer="once")
    checked = dataclasses.replace(asking, phase=Phase.REVEALED)
    assert rounds.prediction_to_send(checked) is None, "the instructor sent nothing"
    rounds.sent("pinned-reuse", 4)
    assert rounds.prediction_to_send(asking) is None, "not committed yet"
    assert rounds.prediction_to_send(checked) == ("pinned-reuse", 4, "once")
    assert rounds.prediction_to_send(checked) is None, "sent already"
    rounds.sent("pinned-reuse", 5)
    assert rounds.prediction_to_send(checked) == ("pinned-reuse", 5, "once")


def test_the_servers_histogram_is_read_into_bars() -> None:
    bins = [{"bin": [0, 10], "count": 1}, {"bin": [10, 20], "count": 2}]
    histogram = histogram_of({"exercise": "x", "round": 2, "count": 3, "histogram": bins})
    bars = [(bar.label, bar.count, bar.low) for bar in histogram.bars]
    assert bars == [("0\u201310", 1, 0.0), ("10\u201320", 2, 10.0)]
    assert histogram.heading == "The class: 3 predictions (round 2)"
    with pytest.raises(HistogramError):
        histogram_of({"exercise": "x", "round": 2})

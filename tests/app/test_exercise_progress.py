"""The learner's progress as kept in the settings: best scores, tries, hints; a damaged record starts afresh."""

from __future__ import annotations

import json

import pytest
from fakes import DictSettings

from overlapviz.app.exercise_progress import DROPPED, PROGRESS_KEY, ExerciseProgress


def test_the_best_score_stays_and_done_is_for_good():
    store = DictSettings()
    progress = ExerciseProgress(store)
    progress.note_attempt("a", 1.0, True)
    progress.note_attempt("a", 0.5, False)
    record = ExerciseProgress(store).record("a")
    assert (record.done, record.best, record.tries) == (True, 1.0, 2)
    assert progress.done_count(["a", "b"]) == 1 and progress.score(["a", "b"]) == 1.0


def test_changed_names_the_exercise():
    progress = ExerciseProgress(DictSettings())
    heard = []
    progress.changed.connect(heard.append)
    progress.note_hint("a", 1)
    progress.reset()
    assert heard == ["a", ""]


@pytest.mark.parametrize(
    "kept",
    ["not json", "[1, 2]", json.dumps({"a": {"done": "yes", "best": 1, "tries": 1, "hints": 0}}),
     json.dumps({"a": {"done": True, "best": 1, "tries": -1, "hints": 0}}), "[" * 100_000],
)  # fmt: skip
def test_a_record_that_cannot_be_read_is_dropped_with_a_note(kept):
    store = DictSettings({PROGRESS_KEY: kept})
    progress = ExerciseProgress(store)
    assert progress.note == DROPPED
    assert PROGRESS_KEY not in store
    assert not progress.record("a").done

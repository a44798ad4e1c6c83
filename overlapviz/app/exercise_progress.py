"""The learner's progress through the exercises: which are done, each one's best score, the hints taken.

Kept as one JSON document under `PROGRESS_KEY` in the app's settings store (QSettings in the
app, beside the other remembered values of `app.remembered`), written whenever it changes, so
that a new window picks up where the last one left off. A document that cannot be read (hand
edited, from a future version) is dropped with a note saying so: it never stops the panel
from opening. "Reset to defaults" leaves it alone; only "Reset progress" forgets it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace

from overlapviz.app.events import Event
from overlapviz.app.ports import SettingsStore
from overlapviz.core.i18n import N_, _

PROGRESS_KEY = "exercises/progress"
DROPPED = N_("Your exercise progress could not be read, so it starts afresh.")


@dataclass(frozen=True)
class ExerciseRecord:
    """One exercise's progress: passed once at least, the best score (0 to 1), the tries, the hints shown."""

    done: bool = False
    best: float = 0.0
    tries: int = 0
    hints: int = 0

    def to_dict(self) -> dict[str, object]:
        """As kept in the JSON document."""
        return {"done": self.done, "best": self.best, "tries": self.tries, "hints": self.hints}

    @classmethod
    def from_dict(cls, data: object) -> ExerciseRecord:
        """Read back what `to_dict` wrote; `ValueError` when it is not that."""
        if not isinstance(data, dict):
            raise ValueError("an exercise's record is not a table")
        done, best, tries, hints = data.get("done"), data.get("best"), data.get("tries"), data.get("hints")
        if not isinstance(done, bool) or not isinstance(best, int | float) or isinstance(best, bool):
            raise ValueError("an exercise's record has no done flag or best score")
        if not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in (tries, hints)):
            raise ValueError("an exercise's record counts its tries or hints wrongly")
        return cls(done, min(max(float(best), 0.0), 1.0), int(tries or 0), int(hints or 0))


class ExerciseProgress:
    """Each exercise's `ExerciseRecord` by name, kept in `store`; `changed` gives the name changed ("" for all)."""

    def __init__(self, store: SettingsStore | None) -> None:
        self._store = store
        self.changed: Event[str] = Event()
        self.note: str | None = None  # what reading the store dropped, to tell the learner once
        self._records = self._read()

    def record(self, exercise_id: str) -> ExerciseRecord:
        """The progress of `exercise_id` (a fresh record when there is none)."""
        return self._records.get(exercise_id, ExerciseRecord())

    def done_count(self, ids: list[str]) -> int:
        """How many of `ids` are done."""
        return sum(self.record(i).done for i in ids)

    def score(self, ids: list[str]) -> float:
        """The sum of the best scores of `ids` (one point per exercise at most)."""
        return sum(self.record(i).best for i in ids)

    def note_attempt(self, exercise_id: str, score: float, passed: bool) -> ExerciseRecord:
        """One more try of `exercise_id`, which scored `score` (0 to 1) and `passed` or not."""
        old = self.record(exercise_id)
        new = replace(old, done=old.done or passed, best=max(old.best, min(max(score, 0.0), 1.0)), tries=old.tries + 1)
        return self._put(exercise_id, new)

    def note_hint(self, exercise_id: str, shown: int) -> ExerciseRecord:
        """`shown` hints of `exercise_id` are on show (never fewer than before)."""
        old = self.record(exercise_id)
        return self._put(exercise_id, replace(old, hints=max(old.hints, shown)))

    def reset(self) -> None:
        """Forget every exercise's progress."""
        self._records = {}
        if self._store is not None:
            self._store.remove(PROGRESS_KEY)
        self.changed.emit("")

    def _put(self, exercise_id: str, record: ExerciseRecord) -> ExerciseRecord:
        self._records[exercise_id] = record
        if self._store is not None:
            document = {key: value.to_dict() for key, value in sorted(self._records.items())}
            self._store.put(PROGRESS_KEY, json.dumps(document))
        self.changed.emit(exercise_id)
        return record

    def _read(self) -> dict[str, ExerciseRecord]:
        text = None if self._store is None else self._store.get(PROGRESS_KEY)
        if not text:
            return {}
        try:
            data = json.loads(text)
            if not isinstance(data, dict):
                raise ValueError("the progress is not a table")
            return {str(key): ExerciseRecord.from_dict(value) for key, value in data.items()}
        except (ValueError, RecursionError):
            self.note = _(DROPPED)
            if self._store is not None:
                self._store.remove(PROGRESS_KEY)
            return {}

"""Undo and redo of the user's control changes: a history of what the controls held before each."""

from __future__ import annotations

from typing import Generic, TypeVar

from overlapviz.app.events import Event

T = TypeVar("T")
DEFAULT_LIMIT = 200  # steps kept; the oldest go first


class UndoHistory(Generic[T]):
    """States to go back to (undo) and forward to again (redo); `changed` fires when either changes."""

    def __init__(self, limit: int = DEFAULT_LIMIT) -> None:
        self._limit = limit
        self._undo: list[T] = []
        self._redo: list[T] = []
        self.changed: Event[None] = Event()

    @property
    def can_undo(self) -> bool:
        """Whether there is a state to go back to."""
        return bool(self._undo)

    @property
    def can_redo(self) -> bool:
        """Whether an undone state can be made again."""
        return bool(self._redo)

    def record(self, before: T) -> None:
        """Note `before`, the state a change leaves; what was undone can no longer be redone."""
        self._undo.append(before)
        del self._undo[: -self._limit]
        self._redo.clear()
        self.changed.emit(None)

    def undo(self, current: T) -> T | None:
        """The state before `current` (None: none), keeping `current` for redo."""
        if not self._undo:
            return None
        self._redo.append(current)
        previous = self._undo.pop()
        self.changed.emit(None)
        return previous

    def redo(self, current: T) -> T | None:
        """The state undone last (None: none), keeping `current` for undo."""
        if not self._redo:
            return None
        self._undo.append(current)
        following = self._redo.pop()
        self.changed.emit(None)
        return following

    def clear(self) -> None:
        """Forget every state."""
        self._undo.clear()
        self._redo.clear()
        self.changed.emit(None)

"""A typed event: callbacks connected to one fact of the model, called when it changes.

Plain callbacks rather than Qt signals, so that the model and the controller run (and are
tested) without Qt; a Qt view connects its methods like any other callback. Each callback is
called on the thread that changed the fact, which in the app is always the GUI thread.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class Event(Generic[T]):
    """Callbacks of one argument, called in the order they were connected."""

    def __init__(self) -> None:
        self._callbacks: list[Callable[[T], object]] = []

    def connect(self, callback: Callable[[T], object]) -> None:
        """Call `callback` with the new value from now on."""
        self._callbacks.append(callback)

    def disconnect(self, callback: Callable[[T], object]) -> None:
        """Stop calling `callback` (no error when it was not connected)."""
        if callback in self._callbacks:
            self._callbacks.remove(callback)

    def emit(self, value: T) -> None:
        """Call every connected callback with `value`."""
        for callback in list(self._callbacks):  # a callback may connect or disconnect others
            callback(value)

"""What the controller needs from the world around it, as small Protocols (no Qt).

The window's `MainView` (`main_view`) implements `Messages`; a Qt single-shot timer implements `Timer`; the settings
file (QSettings in the app) implements `SettingsStore`. The controller's tests implement them
with plain objects.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol


class Messages(Protocol):
    """Where the controller says what went wrong, or what happened."""

    def show_error(self, text: str) -> None:
        """Say what went wrong, in the window, until cleared."""
        ...

    def clear_error(self) -> None:
        """Take the error away (a newer run succeeded)."""
        ...

    def show_notice(self, text: str) -> None:
        """A passing message."""
        ...


class Timer(Protocol):
    """A single-shot timer of a fixed interval (the live runs' debounce)."""

    def start(self, callback: Callable[[], None]) -> None:
        """Call `callback` once the interval has passed (restarting it when already running)."""
        ...

    def stop(self) -> None:
        """Do not call it."""
        ...

    def is_active(self) -> bool:
        """Whether it is running."""
        ...


class SettingsStore(Protocol):
    """Text values by key that outlive the app (QSettings in the app)."""

    def get(self, key: str) -> str | None:
        """The value kept under `key`, if any."""
        ...

    def put(self, key: str, value: str) -> None:
        """Keep `value` under `key`."""
        ...

    def remove(self, key: str) -> None:
        """Forget `key`."""
        ...

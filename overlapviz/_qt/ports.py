"""Qt's side of the controller's ports (`app.ports`): a single-shot timer and the settings file."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QSettings, QTimer


class SingleShotTimer(QObject):
    """`app.ports.Timer` on a QTimer: calls the callback last given once `interval_ms` has passed."""

    def __init__(self, interval_ms: int, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._timer = QTimer(self, singleShot=True, interval=interval_ms)
        self._timer.timeout.connect(self._fire)
        self._callback: Callable[[], None] | None = None

    def start(self, callback: Callable[[], None]) -> None:
        """Call `callback` after the interval (restarting it)."""
        self._callback = callback
        self._timer.start()

    def stop(self) -> None:
        """Do not call it."""
        self._timer.stop()

    def is_active(self) -> bool:
        """Whether it is running."""
        return self._timer.isActive()

    def _fire(self) -> None:
        if self._callback is not None:
            self._callback()


class QtSettingsStore:
    """`app.ports.SettingsStore` on a QSettings file (strings by key)."""

    def __init__(self, settings: QSettings) -> None:
        self._settings = settings

    def get(self, key: str) -> str | None:
        """The value under `key`, if it is text."""
        value = self._settings.value(key)
        return value if isinstance(value, str) else None

    def put(self, key: str, value: str) -> None:
        """Keep `value` under `key`."""
        self._settings.setValue(key, value)

    def remove(self, key: str) -> None:
        """Forget `key`."""
        self._settings.remove(key)

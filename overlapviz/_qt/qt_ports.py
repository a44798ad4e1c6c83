"""Qt's side of the controller's ports (`app.ports`): a single-shot timer and the settings file.

QSettings writes its file under a lock file (``NAME.lock``, a `QLockFile`) and waits for a lock
it finds without end until the lock is 30 s old, unless Qt can tell its owner is dead. It cannot
when the app was killed (``kill -9``) while writing and its process number has since gone to
another process of the same name (a restarted app in a container often gets the same one), or
when it was killed between making the lock file and writing its owner into it: the next start
would wait. A settings write holds the lock for milliseconds, so a lock older than
`STALE_LOCK_MS` is one a killed process left; the store removes it before its first write.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QLockFile, QObject, QSettings, QTimer

STALE_LOCK_MS = 1000  # a lock on the settings older than this was left by a process that died


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
        clear_stale_lock(settings)

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


def clear_stale_lock(settings: QSettings) -> None:
    """Remove the lock on `settings`' file if a process that died left it (it is older than `STALE_LOCK_MS`).

    A lock that a running app holds is released within milliseconds and left alone; a lock
    that cannot be taken for another reason (a folder without write access) is left to
    QSettings, which reports it as its status.
    """
    lock = QLockFile(settings.fileName() + ".lock")
    lock.setStaleLockTime(STALE_LOCK_MS)
    if lock.tryLock(2 * STALE_LOCK_MS):
        lock.unlock()

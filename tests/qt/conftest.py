"""Guards for every Qt test: no leaked top-level widgets, threads or timers; settings in tmp.

A test that leaves a window open, a QThread running or a QTimer active fails in teardown:
in the app such leftovers are the bugs that hang a quit or fire into a deleted window.
"""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest
import shiboken6
from PySide6.QtCore import QEvent, QSettings, QThread, QThreadPool, QTimer
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from overlapviz._qt.main_window import MainWindow
from overlapviz._qt.widgets.metrics_panel import MetricsPanel
from tests.qt_settings import settings_in_tmp  # noqa: F401 (a fixture: Qt's settings under tmp)

_started_threads: weakref.WeakSet[QThread] = weakref.WeakSet()
_started_timers: weakref.WeakSet[QTimer] = weakref.WeakSet()


def pytest_configure(config: pytest.Config) -> None:
    # The offscreen platform warns about window features it lacks (size hints on every
    # top-level show, raise() for tooltips); none of them is a problem of ours.
    config.addinivalue_line("qt_log_ignore", "This plugin does not support (propagateSizeHints|raise)")


@pytest.fixture(scope="session", autouse=True)
def _track_threads_and_timers() -> Iterator[None]:
    thread_start, timer_start = QThread.start, QTimer.start

    def tracked_thread_start(self: QThread, *args: object) -> None:
        _started_threads.add(self)
        thread_start(self, *args)

    def tracked_timer_start(self: QTimer, *args: object) -> None:
        _started_timers.add(self)
        timer_start(self, *args)

    QThread.start = tracked_thread_start  # type: ignore[method-assign]
    QTimer.start = tracked_timer_start  # type: ignore[method-assign]
    yield
    QThread.start, QTimer.start = thread_start, timer_start  # type: ignore[method-assign]


@pytest.fixture
def settings(tmp_path: Path) -> QSettings:
    """A settings store of this test's own."""
    return QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)


@pytest.fixture
def window(qtbot: QtBot, settings: QSettings) -> MainWindow:
    """The app's window on this test's settings, shown, with its first picture drawn (a file may define its own)."""
    window = MainWindow(settings)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: window.shown() is not None, timeout=10_000)
    return window


@pytest.fixture
def panel(qtbot: QtBot) -> MetricsPanel:
    """A metrics panel of its own, shown (a file may define its own)."""
    widget = MetricsPanel()
    qtbot.addWidget(widget)
    widget.show()
    return widget


@pytest.fixture(autouse=True)
def _app_font_restored(qapp: QApplication) -> Iterator[None]:
    """Each test starts from the same text size: a window's Ctrl+plus scales the application's font."""
    font = QApplication.font()
    yield
    QApplication.setFont(font)


@pytest.fixture(autouse=True)
def _no_leaks(qapp: QApplication) -> Iterator[None]:
    before = set(QApplication.topLevelWidgets())
    yield
    _flush_deletions(before)
    leaked = [w for w in QApplication.topLevelWidgets() if w not in before]
    threads = [t for t in list(_started_threads) if shiboken6.isValid(t) and t.isRunning()]
    timers = [t for t in list(_started_timers) if shiboken6.isValid(t) and t.isActive()]
    pooled = QThreadPool.globalInstance().activeThreadCount()
    problems = [
        *(f"leaked top-level widget {type(w).__name__} {w.objectName()!r}" for w in leaked),
        *(f"QThread {t.objectName()!r} still running" for t in threads),
        *(f"QTimer (interval {t.interval()} ms, parent {type(t.parent()).__name__}) still active" for t in timers),
        *([f"{pooled} thread-pool workers still running"] if pooled else []),
    ]
    for widget in leaked:
        widget.close()
        widget.deleteLater()
    for timer in timers:
        timer.stop()
    _flush_deletions()
    if problems:
        pytest.fail("; ".join(problems))


def _flush_deletions(before: set[QWidget] | None = None) -> None:
    """Deliver pending deletions; collect garbage while new top-level widgets remain.

    Deleting a widget can free Python objects that own further widgets (pyqtgraph's
    parentless context menus), so a few rounds may be needed; most tests need none.
    """
    for _ in range(4):
        QApplication.processEvents()
        QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        if before is not None and all(w in before for w in QApplication.topLevelWidgets()):
            return
        gc.collect()

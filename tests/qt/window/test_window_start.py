"""The window's start: never empty, whatever was remembered."""

from __future__ import annotations

from overlapviz._qt.main_window import MainWindow
from overlapviz.app import remembered

STARTING = "Starting\u2026"


def test_a_window_started_with_live_off_remembered_runs_once_on_show(qtbot, settings):
    settings.setValue(remembered.LIVE_KEY, remembered.FALSE)  # as a session that opened a file leaves it
    window = MainWindow(settings)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: window.shown() is not None, timeout=10_000)
    assert window.shown().source is None and not window.model.live
    assert window.status_label.text() not in ("", STARTING)
    assert window.metrics.isVisible()


def test_a_remembered_device_that_is_gone_is_dropped_with_a_note(qtbot, settings):
    settings.setValue(remembered.TARGET_KEY, "cupy/cuda:7")
    window = MainWindow(settings)
    qtbot.addWidget(window)
    note = window.statusBar().currentMessage()
    assert note.startswith("Remembered from last time but no longer usable") and "cupy/cuda:7" in note
    assert settings.value(remembered.TARGET_KEY) != "cupy/cuda:7"
    window.show()
    qtbot.waitUntil(lambda: window.shown() is not None, timeout=10_000)

"""The heartbeat benchmark's timed handlers: still called on the GUI thread, as the app's are."""

import threading

import pyqtgraph as pg

from benchmarks.gui_heartbeat import StepTimes
from overlapviz._qt.files.background import BackgroundTasks
from overlapviz._qt.files.stepwise import Stepwise
from overlapviz._qt.timeline.widget import TimelineWidget
from overlapviz._qt.worker import RunController

WRAPPED = [
    (RunController, "_on_done"),
    (BackgroundTasks, "_on_done"),
    (Stepwise, "_step"),
    (TimelineWidget, "_apply_window"),
    (pg.GraphicsView, "paintEvent"),
]


def _timed_handlers(monkeypatch):
    for owner, name in WRAPPED:  # monkeypatch puts the originals back once the test is done
        monkeypatch.setattr(owner, name, getattr(owner, name))
    return StepTimes()


def test_a_timed_run_result_is_shown_on_the_gui_thread(monkeypatch, qtbot):
    steps = _timed_handlers(monkeypatch)
    executor, shown_on = RunController(), []
    try:
        executor.submit(lambda _cancel: 42, lambda outcome: shown_on.append((threading.current_thread(), outcome)))
        qtbot.waitUntil(lambda: bool(shown_on), timeout=5000)
    finally:
        executor.shutdown()
    thread, outcome = shown_on[0]
    assert thread is threading.main_thread() and outcome.result == 42
    assert not steps.off_gui_thread and steps.take()[1] == "a run's result shown"


def test_a_timed_file_outcome_is_shown_on_the_gui_thread(monkeypatch, qtbot):
    steps = _timed_handlers(monkeypatch)
    tasks, shown_on = BackgroundTasks("test-files"), []
    tasks.done.connect(lambda outcome: shown_on.append((threading.current_thread(), outcome)))
    try:
        tasks.submit(lambda _cancel: "read")
        qtbot.waitUntil(lambda: bool(shown_on), timeout=5000)
    finally:
        tasks.shutdown()
    thread, outcome = shown_on[0]
    assert thread is threading.main_thread() and outcome.result == "read"
    assert not steps.off_gui_thread and steps.take()[1] == "a file task's outcome shown"

"""Work beside the GUI: file tasks on a thread of their own, GUI work in short steps, collections held off."""

import gc
import itertools
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from PySide6.QtCore import QTimer

from overlapviz._qt.files.background import BackgroundTasks
from overlapviz._qt.files.stepwise import Stepwise
from overlapviz._qt.worker import RunController
from overlapviz.app.garbage_collection import collections_paused
from overlapviz.core.background_priority import BACKGROUND_NICE
from overlapviz.core.run_errors import RunCancelled

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def tasks(qtbot):
    made = BackgroundTasks("test-files")
    yield made
    made.shutdown()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="nice values per thread are Linux's")
def test_the_file_thread_runs_below_the_gui_thread(tasks, qtbot):
    gui = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    outcomes = []
    tasks.done.connect(outcomes.append)
    tasks.submit(lambda _cancel: os.getpriority(os.PRIO_PROCESS, threading.get_native_id()))
    qtbot.waitUntil(lambda: len(outcomes) == 1, timeout=10_000)
    assert outcomes[0].result == max(BACKGROUND_NICE, gui)
    assert os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) == gui


def test_tasks_run_in_order_off_the_gui_thread_and_every_one_reports(tasks, qtbot):
    outcomes, threads = [], []
    tasks.done.connect(outcomes.append)

    def work(value):
        def run(_cancel):
            threads.append(threading.current_thread())
            return value

        return run

    submitted = [tasks.submit(work(n)) for n in range(3)]
    assert tasks.busy
    qtbot.waitUntil(lambda: len(outcomes) == 3, timeout=5000)
    assert [o.task for o in outcomes] == submitted and [o.result for o in outcomes] == [0, 1, 2]
    assert all(thread is not threading.main_thread() for thread in threads)
    assert not tasks.busy


def test_a_failing_task_hands_over_its_exception_and_a_cancelled_one_says_so(tasks, qtbot):
    outcomes = []
    tasks.done.connect(outcomes.append)
    gate = threading.Event()
    tasks.submit(lambda _cancel: gate.wait(5))
    doomed = tasks.submit(lambda _cancel: "never")
    doomed.cancel.cancel()  # cancelled while it waits its turn: it does not run

    def fails(_cancel):
        raise OSError(28, "No space left on device", "/x/y.png")

    tasks.submit(fails)

    def checks(cancel):
        cancel.cancel()
        cancel.check()

    tasks.submit(checks)
    gate.set()
    qtbot.waitUntil(lambda: len(outcomes) == 4, timeout=5000)
    assert outcomes[0].result is True and not outcomes[0].cancelled
    assert outcomes[1].cancelled and outcomes[1].result is None
    assert isinstance(outcomes[2].error, OSError) and outcomes[2].error.filename == "/x/y.png"
    assert outcomes[3].cancelled and outcomes[3].error is None


def test_shutdown_cancels_what_waits_and_stops_the_thread(qtbot):
    tasks = BackgroundTasks("test-files")
    started, seen = threading.Event(), []

    def slow(cancel):
        started.set()
        while not cancel.cancelled:
            threading.Event().wait(0.01)
        seen.append("cancelled")
        raise RunCancelled("stopped")

    tasks.submit(slow)
    assert started.wait(5)
    tasks.shutdown()
    assert seen == ["cancelled"] and not tasks.busy


def test_steps_run_one_per_turn_of_the_event_loop(qtbot):
    log = []
    ticker = QTimer(interval=0)
    ticker.timeout.connect(lambda: log.append("event"))

    def steps():
        for n in range(3):
            log.append(f"step {n}")
            yield
        return "done"

    job = Stepwise(steps())
    ticker.start()
    try:
        with qtbot.waitSignal(job.finished, timeout=5000) as blocker:
            job.start()
    finally:
        ticker.stop()
    assert blocker.args == ["done"]
    steps_at = [i for i, entry in enumerate(log) if entry.startswith("step")]
    assert len(steps_at) == 3
    assert all("event" in log[a:b] for a, b in itertools.pairwise(steps_at))  # events handled in between


def test_a_failing_step_is_reported_and_a_cancelled_job_cleans_up(qtbot):
    def fails():
        yield
        raise ValueError("the picture came out empty")

    job = Stepwise(fails())
    with qtbot.waitSignal(job.failed, timeout=5000) as blocker:
        job.start()
    assert str(blocker.args[0]) == "the picture came out empty"
    cleaned = []

    def long():
        try:
            while True:
                yield
        finally:
            cleaned.append(True)

    job = Stepwise(long())
    job.start()
    qtbot.wait(20)
    job.cancel()
    assert cleaned == [True]


def test_collections_wait_while_work_runs_and_resume_after():
    assert gc.isenabled()
    with collections_paused():
        assert not gc.isenabled()
        with collections_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the outer block still runs
    assert gc.isenabled()
    gc.disable()
    try:
        with collections_paused():
            pass
        assert not gc.isenabled()  # a collector switched off stays off
    finally:
        gc.enable()


def test_runs_and_file_tasks_run_with_collections_paused(tasks, qtbot):
    controller, outcomes = RunController(), []
    try:
        controller.submit(lambda _cancel: {"collecting": gc.isenabled()}, outcomes.append)
        qtbot.waitUntil(lambda: bool(outcomes), timeout=5000)
        assert outcomes[0].result == {"collecting": False}
    finally:
        controller.shutdown()
    with qtbot.waitSignal(tasks.done, timeout=5000) as task:
        tasks.submit(lambda _cancel: gc.isenabled())
    assert task.args[0].result is False
    assert gc.isenabled()


def test_settle_heap_takes_the_objects_alive_now_out_of_collections():
    code = (
        "import gc; from overlapviz.app.garbage_collection import settle_heap; kept = [[i] for i in range(50_000)];"
        "frozen = settle_heap(); print(frozen >= 50_000, len(gc.get_objects()) < 1_000)"
    )
    found = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert found.stdout.split() == ["True", "True"]

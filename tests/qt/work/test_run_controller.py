"""The app's executor: jobs off the GUI thread, the newest wins, each outcome to its own callback."""

import threading

import pytest
from qt_traces import two_chunk_trace

from overlapviz._qt.worker import RunController
from overlapviz.app.executor import run_job
from overlapviz.core.config import PipelineConfig
from overlapviz.core.run_errors import BackendError
from overlapviz.session import analyse
from overlapviz.view.prepared import PreparedView


class GatedRuns:
    """A run function that blocks until released, honours cancellation, records every call."""

    def __init__(self):
        self.started = []
        self.gate = threading.Event()
        self.entered = threading.Semaphore(0)

    def __call__(self, config, backend, device, cancel):
        self.started.append(config.chunks)
        self.entered.release()
        self.gate.wait(10)
        cancel.check()
        return analyse(two_chunk_trace().with_meta(chunks_asked=config.chunks), 0.001)


@pytest.fixture
def executor(qtbot):
    c = RunController()
    yield c
    c.shutdown()


def _run(runs, chunks):
    return run_job(runs, PipelineConfig(chunks=chunks), "sim", "h200")


def test_a_run_reports_its_prepared_result_off_the_gui_thread(executor, qtbot):
    runs, outcomes, threads = GatedRuns(), [], []
    runs.gate.set()

    def job(cancel):
        threads.append(threading.current_thread())
        return _run(runs, 8)(cancel)

    executor.submit(job, outcomes.append)
    qtbot.waitUntil(lambda: bool(outcomes), timeout=5000)
    view = outcomes[0].result
    assert isinstance(view, PreparedView)  # prepared on the run thread, ready to show
    assert view.trace.meta.extra["chunks_asked"] == 8 and view.span_sets and view.lanes
    assert threads[0] is not threading.main_thread() and not executor.busy


def test_a_newer_job_supersedes_the_one_in_flight(executor, qtbot):
    runs, first, later = GatedRuns(), [], []
    executor.submit(_run(runs, 2), first.append)
    assert runs.entered.acquire(timeout=5)  # the first run is in flight
    executor.submit(_run(runs, 4), later.append)
    executor.submit(_run(runs, 8), later.append)  # replaces the pending 4-chunk job
    runs.gate.set()
    qtbot.waitUntil(lambda: bool(later), timeout=5000)
    assert runs.started == [2, 8]
    qtbot.wait(50)
    assert first == [] and [o.result.trace.meta.extra["chunks_asked"] for o in later] == [8] and not executor.busy


def test_each_job_reports_to_its_own_callback_with_its_own_type(executor, qtbot):
    numbers, words = [], []
    executor.submit(lambda cancel: 42, numbers.append)
    qtbot.waitUntil(lambda: bool(numbers), timeout=5000)
    executor.submit(lambda cancel: "forty-two", words.append)
    qtbot.waitUntil(lambda: bool(words), timeout=5000)
    assert [o.result for o in numbers] == [42] and [o.result for o in words] == ["forty-two"]


@pytest.mark.parametrize(
    ("error", "expected"),
    [(BackendError("the device fell off the bus"), "the device fell off the bus"),
     (ZeroDivisionError("division by zero"), "the run failed unexpectedly: ZeroDivisionError: division by zero")],
)  # fmt: skip
def test_errors_come_back_in_words(executor, qtbot, error, expected):
    def broken(cancel):
        raise error

    outcomes = []
    executor.submit(broken, outcomes.append)
    qtbot.waitUntil(lambda: bool(outcomes), timeout=5000)
    assert outcomes[0].error == expected and outcomes[0].result is None


def test_cancel_drops_every_outcome_so_far(executor, qtbot):
    runs, outcomes = GatedRuns(), []
    executor.submit(_run(runs, 2), outcomes.append)
    assert runs.entered.acquire(timeout=5)
    executor.cancel()
    runs.gate.set()
    qtbot.waitUntil(lambda: not executor.busy, timeout=5000)
    qtbot.wait(100)
    assert outcomes == []


def test_shutdown_stops_the_thread_during_a_run(executor, qtbot):
    runs = GatedRuns()
    executor.submit(_run(runs, 2), lambda outcome: None)
    assert runs.entered.acquire(timeout=5)
    threading.Timer(0.05, runs.gate.set).start()
    executor.shutdown()
    assert not executor._thread.isRunning()

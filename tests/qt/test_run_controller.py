import threading

import pytest
from qt_traces import two_chunk_trace

from overlapviz._qt.worker import RunController
from overlapviz.backends.base import BackendError
from overlapviz.core.config import PipelineConfig
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
def controller(qtbot):
    made = []

    def make(run_function):
        made.append(RunController(run_function))
        return made[-1]

    yield make
    for c in made:
        c.shutdown()


def test_a_run_reports_its_result(controller, qtbot):
    runs = GatedRuns()
    runs.gate.set()
    c = controller(runs)
    with qtbot.waitSignal(c.finished, timeout=5000) as blocker:
        c.request(PipelineConfig(chunks=8), "sim", "h200")
    view = blocker.args[0].result
    assert isinstance(view, PreparedView)  # prepared on the run thread, ready to show
    assert view.trace.meta["chunks_asked"] == 8 and view.span_sets and view.lanes
    assert not c.busy


def test_a_newer_request_supersedes_the_one_in_flight(controller, qtbot):
    runs = GatedRuns()
    c = controller(runs)
    results = []
    c.finished.connect(lambda outcome: results.append(outcome.result.trace.meta["chunks_asked"]))
    first = c.request(PipelineConfig(chunks=2))
    assert runs.entered.acquire(timeout=5)  # the first run is in flight
    c.request(PipelineConfig(chunks=4))
    c.request(PipelineConfig(chunks=8))  # replaces the pending 4-chunk request
    assert first.cancel.cancelled
    runs.gate.set()
    qtbot.waitUntil(lambda: results == [8], timeout=5000)
    assert runs.started == [2, 8]
    qtbot.wait(50)
    assert results == [8] and not c.busy


def test_errors_come_back_in_words(controller, qtbot):
    def broken(config, backend, device, cancel):
        raise BackendError("the device fell off the bus")

    c = controller(broken)
    with qtbot.waitSignal(c.failed, timeout=5000) as blocker:
        c.request(PipelineConfig())
    assert blocker.args[0].error == "the device fell off the bus"


def test_an_unexpected_exception_is_reported_not_raised(controller, qtbot):
    def buggy(config, backend, device, cancel):
        raise ZeroDivisionError("division by zero")

    c = controller(buggy)
    with qtbot.waitSignal(c.failed, timeout=5000) as blocker:
        c.request(PipelineConfig())
    assert "ZeroDivisionError: division by zero" in blocker.args[0].error


def test_cancel_drops_every_outcome_so_far(controller, qtbot):
    runs = GatedRuns()
    c = controller(runs)
    c.request(PipelineConfig(chunks=2))
    assert runs.entered.acquire(timeout=5)
    c.cancel()
    runs.gate.set()
    with qtbot.assertNotEmitted(c.finished, wait=200), qtbot.assertNotEmitted(c.failed, wait=200):
        qtbot.waitUntil(lambda: not c.busy, timeout=5000)


def test_shutdown_stops_the_thread_during_a_run(controller, qtbot):
    runs = GatedRuns()
    c = controller(runs)
    c.request(PipelineConfig())
    assert runs.entered.acquire(timeout=5)
    threading.Timer(0.05, runs.gate.set).start()
    c.shutdown()
    assert not c._thread.isRunning()

import threading

from overlapviz._qt.worker import RunController
from overlapviz.backends.base import BackendError


def test_a_job_runs_off_the_gui_thread_and_reports_what_it_returned(qtbot):
    controller = RunController()
    threads = []

    def job(cancel):
        threads.append(threading.current_thread())
        return {"answer": 42}

    try:
        with qtbot.waitSignal(controller.finished, timeout=5000) as blocker:
            controller.submit(job)
        assert blocker.args[0].result == {"answer": 42}
        assert threads and threads[0] is not threading.main_thread()
    finally:
        controller.shutdown()


def test_a_job_that_fails_says_why(qtbot):
    controller = RunController()

    def job(cancel):
        raise BackendError("no such device")

    try:
        with qtbot.waitSignal(controller.failed, timeout=5000) as blocker:
            controller.submit(job)
        assert blocker.args[0].error == "no such device"
    finally:
        controller.shutdown()


def test_a_newer_job_supersedes_the_one_in_flight(qtbot):
    controller = RunController()
    gate, entered = threading.Event(), threading.Event()

    def slow(cancel):
        entered.set()
        gate.wait(5)
        cancel.check()
        return "slow"

    results = []
    controller.finished.connect(lambda outcome: results.append(outcome.result))
    try:
        first = controller.submit(slow)
        assert entered.wait(5)
        controller.submit(lambda cancel: "fast")
        assert first.cancel.cancelled
        gate.set()
        qtbot.waitUntil(lambda: results == ["fast"], timeout=5000)
    finally:
        controller.shutdown()

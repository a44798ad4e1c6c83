"""The window's own worker processes for a job's ranks: in order, stopped at once by a cancel, a dead one named."""

import multiprocessing
import os
import signal
import threading
import time
from pathlib import Path

import pytest

from overlapviz.app.rank_processes import _Workers, read_ranks
from overlapviz.core.cancel import CancelToken
from overlapviz.core.run_errors import RunCancelled
from overlapviz.job.summary import RankProblem, RankSummary
from overlapviz.job.worker import RankSource

REAL = Path(__file__).parents[1] / "data" / "torch-real"
RANK_FILES = (REAL / "hta-sampled-rank0-of-128.json.gz", REAL / "hta-sampled-rank1-of-128.json.gz")
SLOW_S = 120  # spawning and reading on a busy two-core machine


def _wait_for(condition, what):
    deadline = time.monotonic() + SLOW_S
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.02)


def test_the_ranks_come_back_in_order_and_the_workers_go():
    sources = [RankSource(str(file)) for file in reversed(RANK_FILES)]
    results = read_ranks(sources, 2, CancelToken(), lambda *_: None)
    assert [r.file for r in results] == [s.path for s in sources] and all(isinstance(r, RankSummary) for r in results)
    assert not multiprocessing.active_children()


def test_a_cancel_terminates_the_workers_at_work():
    cancel, outcome = CancelToken(), []
    sources = [RankSource(str(file)) for file in RANK_FILES]

    def read():
        try:
            read_ranks(sources, 2, cancel, lambda *_: None)
        except RunCancelled:
            outcome.append("cancelled")

    thread = threading.Thread(target=read)
    thread.start()
    _wait_for(lambda: len(multiprocessing.active_children()) == 2, "the workers start")
    cancel.cancel()
    thread.join(SLOW_S)
    assert outcome == ["cancelled"] and not multiprocessing.active_children()


def test_a_worker_killed_mid_rank_is_that_ranks_problem_and_the_others_are_read():
    sources = [RankSource(str(file)) for file in RANK_FILES]
    workers = _Workers(sources, 1)
    try:
        _wait_for(lambda: workers._reading[0] == 0, "the worker begins the first rank")
        os.kill(workers._processes[0].pid, signal.SIGKILL)
        first, second = workers.collect(CancelToken(), lambda *_: None)
    finally:
        workers.stop()
    assert isinstance(first, RankProblem) and "the worker reading it stopped (killed" in first.message
    assert first.message.startswith(sources[0].path)
    assert isinstance(second, RankSummary)  # a new worker took the dead one's place
    assert not multiprocessing.active_children()


@pytest.mark.parametrize("count", [0, 5])
def test_the_workers_are_at_least_one_and_no_more_than_the_ranks(count):
    workers = _Workers([RankSource(str(RANK_FILES[0]))], count)
    try:
        assert len(workers._processes) == 1
    finally:
        workers.collect(CancelToken(), lambda *_: None)
        workers.stop()

"""Worker processes of the window's own for reading a job's ranks: stopped at once, a dead one named.

`concurrent.futures.ProcessPoolExecutor` cannot stop a task it has begun before Python 3.14
(``terminate_workers``), and `multiprocessing.Pool` waits for ever on a task whose worker
died (killed for want of memory, as a large rank may be). Here each worker is a spawned
`multiprocessing.Process` taking ranks from a queue and saying which one it began: a cancel
terminates the processes through their public `terminate`, and a worker that dies is
reported as a problem with the file it was reading, a new worker taking its place. Pure: no
Qt here.
"""

from __future__ import annotations

import multiprocessing
import queue
from collections.abc import Callable, Sequence
from multiprocessing.process import BaseProcess
from typing import Any

from overlapviz.core.cancel import CancelToken
from overlapviz.core.i18n import _, current_language, set_language
from overlapviz.job.pool import RankResult
from overlapviz.job.summary import RankProblem
from overlapviz.job.worker import RankSource, summarise_file

POLL_S = 0.05  # how often a wait on the workers looks at the cancel token and at dead workers
JOIN_S = 5.0  # how long a worker that was told to stop may take to go before it is terminated
Progress = Callable[[int, int], None]  # (ranks read, ranks in all)
_SPAWN = multiprocessing.get_context("spawn")  # a worker starts clean, whatever threads the window holds


def read_ranks(sources: Sequence[RankSource], count: int, cancel: CancelToken, progress: Progress) -> list[RankResult]:
    """Each source's summary (or problem), in order, from `count` spawned workers; `progress` after each.

    Raises
    ------
    RunCancelled
        `cancel` was set meanwhile: the workers were terminated.
    """
    workers = _Workers(sources, count)
    try:
        return workers.collect(cancel, progress)
    finally:
        workers.stop()


def _work(slot: int, reading: Any, tasks: Any, results: Any, language: str) -> None:
    """A worker's life: each (index, source) from `tasks` summarised into `results`, until a None.

    The rank begun is written to shared memory at once (`reading[slot]`), not sent through a
    queue whose buffered messages a killed process would take with it. A spawned process starts
    in English: it speaks the window's `language`, so that a rank's problem reads as the rest.
    """
    set_language(language)
    for index, source in iter(tasks.get, None):
        reading[slot] = index
        results.put((index, summarise_file(source)))


class _Workers:
    """The processes, their queues, and which rank each is reading."""

    def __init__(self, sources: Sequence[RankSource], count: int) -> None:
        self._sources = list(sources)
        self._tasks, self._results = _SPAWN.Queue(), _SPAWN.Queue()
        for task in enumerate(self._sources):
            self._tasks.put(task)
        slots = max(1, min(count, len(self._sources)))
        self._reading = _SPAWN.Array("q", [-1] * slots, lock=False)  # slot -> the rank its worker began last
        self._processes: dict[int, BaseProcess] = {}
        self._done: dict[int, RankResult] = {}
        for slot in range(slots):
            self._start(slot)

    def collect(self, cancel: CancelToken, progress: Progress) -> list[RankResult]:
        total = len(self._sources)
        while len(self._done) < total:
            cancel.check()
            before = len(self._done)
            self._take_results()
            self._replace_dead()
            if len(self._done) > before:
                progress(len(self._done), total)
        return [self._done[index] for index in range(total)]

    def stop(self) -> None:
        """Let the workers go once all is read; terminate them where not (a cancelled read)."""
        unfinished = len(self._done) < len(self._sources)
        for _slot in self._processes:
            self._tasks.put(None)
        for process in self._processes.values():
            if unfinished:
                process.terminate()
            process.join(JOIN_S)
            if process.is_alive():
                process.kill()
                process.join()
        for channel in (self._tasks, self._results):
            channel.close()
            channel.cancel_join_thread()  # what a terminated worker left unread is not waited for

    def _start(self, slot: int) -> None:
        args = (slot, self._reading, self._tasks, self._results, current_language())
        process = _SPAWN.Process(target=_work, args=args, daemon=True)
        process.start()
        self._processes[slot] = process

    def _take_results(self) -> None:
        try:
            index, result = self._results.get(timeout=POLL_S)
            while True:
                self._done[index] = result
                index, result = self._results.get_nowait()
        except queue.Empty:
            return

    def _replace_dead(self) -> None:
        """A worker that died mid-rank: that rank a problem naming its file, and a new worker in its place."""
        for slot, process in list(self._processes.items()):
            if process.exitcode is None:
                continue
            index = int(self._reading[slot])
            if index >= 0 and index not in self._done:
                path = self._sources[index].path
                self._done[index] = RankProblem(
                    path, _("{file}: the worker reading it stopped ({why})").format(file=path, why=_why(process))
                )
            if len(self._done) < len(self._sources):
                self._start(slot)
            else:
                del self._processes[slot]


def _why(process: BaseProcess) -> str:
    code = process.exitcode
    if code == -9:
        return _("killed, perhaps for want of memory")
    return _("exit code {code}").format(code=code)

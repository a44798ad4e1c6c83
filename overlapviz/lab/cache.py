"""Answers already run, and runs under way that an identical request can wait on.

The key is `Job.cache_key` (the canonical config and the device). Thirty learners on one
slider position cost one run: the first request runs it, the others wait on the same run
(coalesced) and every later one is answered from the cache. The cache is a bounded LRU; a
failed run is not kept, so asking again runs again. With no entries (`serve --no-cache`) every
request is a run of its own, neither kept nor shared: what measuring the GPU's own spread needs.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable

from overlapviz.lab.job import JobResult

DEFAULT_ENTRIES = 256  # a class explores a few dozen settings; each answer is a few hundred kB at most


class ResultCache:
    """A bounded LRU of results by key, with the runs under way."""

    def __init__(self, entries: int = DEFAULT_ENTRIES) -> None:
        self.entries = entries
        self._done: OrderedDict[str, JobResult] = OrderedDict()
        self._running: dict[str, asyncio.Task[JobResult]] = {}
        self.hits = 0
        self.runs = 0

    async def get_or_run(self, key: str, run: Callable[[], Awaitable[JobResult]]) -> JobResult:
        """The result for `key`: from the cache, from the run under way, or from `run()` (then kept).

        A result not from this call's own run is marked cached. The run goes on when its
        first caller goes away, so the others (and the cache) still get it.

        Raises
        ------
        JobFailed
            The run failed (for every caller waiting on it).
        """
        if self.entries == 0:
            self.runs += 1
            return await run()
        if key in self._done:
            self._done.move_to_end(key)
            self.hits += 1
            return self._done[key].as_cached()
        task = self._running.get(key)
        if task is not None:
            self.hits += 1
            return (await asyncio.shield(task)).as_cached()
        task = asyncio.ensure_future(self._run_and_keep(key, run))
        task.add_done_callback(_retrieve)  # a failure nobody waits for any more is not an error to log
        self._running[key] = task
        self.runs += 1
        return await asyncio.shield(task)

    async def _run_and_keep(self, key: str, run: Callable[[], Awaitable[JobResult]]) -> JobResult:
        try:
            result = await run()
        finally:
            del self._running[key]
        self._done[key] = result
        while len(self._done) > self.entries:
            self._done.popitem(last=False)
        return result

    def __len__(self) -> int:
        return len(self._done)


def _retrieve(task: asyncio.Task[JobResult]) -> None:
    if not task.cancelled():
        task.exception()

"""The map: each rank's file summarised in a worker process, the parent holding summaries only.

The default is a local pool of spawned processes (spawn, not fork: a worker starts clean,
whatever threads or memory the parent holds), as many as the cores and the memory allow:
a rank's trace needs a few times its decompressed size while it is analysed
(`rank_need_bytes`). Another way to run the map (a Dask cluster) is any `RankMap`: a
function taking the worker function and the sources, returning the results in order.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor

from overlapviz.core.system_memory import available_memory_bytes
from overlapviz.job.summary import RankProblem, RankSummary
from overlapviz.job.worker import RankSource, summarise_file

RankResult = RankSummary | RankProblem
RankMap = Callable[[Callable[[RankSource], RankResult], Sequence[RankSource]], list[RankResult]]
# What reading and analysing a trace takes per byte of its decompressed JSON (columns, names,
# the analysis' masks), and what a worker takes before reading anything (Python, NumPy, overlapviz).
_NEED_PER_BYTE = 3
_WORKER_BASE_BYTES = 300 * 2**20


def map_local(sources: Sequence[RankSource], workers: int | None = None) -> list[RankResult]:
    """Summarise every source, in `workers` processes (sized by `local_workers` when None), in order.

    One worker, or one source, runs in this process: one rank's events at a time, no start-up.
    """
    count = local_workers([source.path for source in sources]) if workers is None else workers
    count = max(1, min(count, len(sources)))
    if count == 1:
        return [summarise_file(source) for source in sources]
    with ProcessPoolExecutor(max_workers=count, mp_context=multiprocessing.get_context("spawn")) as pool:
        return list(pool.map(summarise_file, sources))


def local_workers(paths: Sequence[str]) -> int:
    """As many workers as there are cores, and as the available memory holds the largest rank's need."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    need = max((rank_need_bytes(path) for path in paths), default=_WORKER_BASE_BYTES)
    available = available_memory_bytes()
    by_memory = cores if available is None else max(1, available // need)
    return max(1, min(cores, by_memory))


def rank_need_bytes(path: str) -> int:
    """The memory one worker needs for the file at `path`: a few times its decompressed size."""
    return _WORKER_BASE_BYTES + _NEED_PER_BYTE * _decompressed_size(path)


def _decompressed_size(path: str) -> int:
    """The file's size, or for a gzip file the size its trailer gives (modulo 4 GiB, so at least the file's)."""
    try:
        size = os.path.getsize(path)
        with open(path, "rb") as file:
            if file.read(2) != b"\x1f\x8b" or size < 18:
                return size
            file.seek(-4, os.SEEK_END)
            trailer = int.from_bytes(file.read(4), "little")
    except OSError:
        return 0
    return max(trailer, size * 4)

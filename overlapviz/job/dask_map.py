"""The map on a Dask cluster: each rank's file summarised by a Dask worker, the same function as the local pool's.

``overlapviz analyze DIR --dask ADDRESS`` (or ``DASK_SCHEDULER_ADDRESS``) sends the ranks to
an existing cluster's scheduler; ``--dask local`` starts a `LocalCluster` of worker processes
on this machine and closes it after. Dask's distributed scheduler is an optional extra
(``pip install 'overlapviz[cluster]'``), imported here only, and only when a cluster is asked
for. The workers read the files themselves, so the paths sent are absolute ones of a file
system they share with this machine; a worker that cannot see a file says so, naming its host
(`overlapviz.job.worker`). This process holds the summaries only, gathered as they complete.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import partial
from types import ModuleType
from typing import Any, TextIO

from overlapviz.core.i18n import _
from overlapviz.job.pool import RankMap, RankResult
from overlapviz.job.worker import RankSource

SCHEDULER_ENV = "DASK_SCHEDULER_ADDRESS"  # Dask's own name for the scheduler's address
LOCAL = "local"  # --dask local: a cluster of this machine's, started and closed here
INSTALL_HINT = "pip install 'overlapviz[cluster]'"
CONNECT_TIMEOUT_S = 5
# --dask local's cluster: two processes of one thread (a rank's analysis is one thread of NumPy), and
# no dashboard, whose web server would otherwise claim port 8787 (or warn that another has).
LOCAL_CLUSTER: dict[str, Any] = {
    "n_workers": 2, "threads_per_worker": 1, "processes": True,
    "dashboard_address": ":0", "scheduler_kwargs": {"dashboard": False},
}  # fmt: skip
CLOSE_TIMEOUT_S = 20


class ClusterError(RuntimeError):
    """The cluster cannot run the map: Dask missing, the scheduler out of reach, a worker lost; one line."""


@contextmanager
def dask_map(address: str, progress: TextIO | None = None) -> Iterator[RankMap]:
    """A `RankMap` on the cluster at `address` (``local``: one started here), usable until the block ends.

    Raises
    ------
    ClusterError
        distributed is not installed, or the scheduler cannot be reached within `CONNECT_TIMEOUT_S`.
    """
    distributed = import_distributed()
    if address == LOCAL:
        cluster = distributed.LocalCluster(**LOCAL_CLUSTER)
        try:
            with distributed.Client(cluster, set_as_default=False) as client:
                yield partial(map_on_client, client, progress=progress)
        finally:
            cluster.close(timeout=CLOSE_TIMEOUT_S)
        return
    with _connect(distributed, address) as client:
        yield partial(map_on_client, client, progress=progress)


def import_distributed() -> ModuleType:
    """Dask's distributed scheduler, or a `ClusterError` saying how to install it."""
    try:
        import distributed
    except ImportError as error:
        message = _("--dask needs Dask's distributed scheduler ({install}): {error}")
        raise ClusterError(message.format(install=INSTALL_HINT, error=error)) from None
    return distributed


def map_on_client(
    client: Any,
    function: Callable[[RankSource], RankResult],
    sources: Sequence[RankSource],
    progress: TextIO | None = None,
) -> list[RankResult]:
    """`function` of every source on the client's workers, in the sources' order; gathered as each completes.

    Raises
    ------
    ClusterError
        A worker died on a file, or the function failed there (overlapviz missing on the worker).
    """
    as_completed = import_distributed().as_completed
    futures = client.map(function, list(sources), pure=False)  # a rank's file may change between runs
    order = {future.key: number for number, future in enumerate(futures)}
    results: list[RankResult | None] = [None] * len(futures)
    try:
        for done, future in enumerate(as_completed(futures, loop=client.loop), start=1):
            number = order[future.key]
            results[number] = _result(future, sources[number])
            show_progress(progress, done, len(futures))
    finally:
        client.cancel(futures)
    return [result for result in results if result is not None]


def show_progress(stream: TextIO | None, done: int, total: int) -> None:
    """``ranks summarised: 3/64``: on a terminal rewritten in place, elsewhere a line at each tenth."""
    if stream is None:
        return
    line = _("ranks summarised: {done}/{total}").format(done=done, total=total)
    if stream.isatty():
        stream.write(f"\r{line}" + ("\n" if done == total else ""))
    elif done == total or done * 10 // total != (done - 1) * 10 // total:
        stream.write(f"{line}\n")
    stream.flush()


@contextmanager
def _connect(distributed: ModuleType, address: str) -> Iterator[Any]:
    try:
        client = distributed.Client(address, timeout=CONNECT_TIMEOUT_S, set_as_default=False)
    except (OSError, ValueError, TypeError) as error:  # out of reach; an address Dask cannot parse
        message = _("--dask {address}: cannot reach the Dask scheduler: {error}")
        raise ClusterError(message.format(address=address, error=error)) from None
    with client:
        yield client


def _result(future: Any, source: RankSource) -> RankResult:
    """The future's summary, or a `ClusterError` naming the file when its worker died or failed."""
    try:
        result: RankResult = future.result()
    except Exception as error:  # whatever the worker raised, brought back by Dask: named, in one line
        if isinstance(error, import_distributed().KilledWorker):
            message = _("{file}: the Dask workers reading it died (out of memory?)")
            raise ClusterError(message.format(file=source.path)) from None
        first = str(error).splitlines()[0] if str(error) else ""
        if isinstance(error, ImportError):
            message = _("{file}: a Dask worker failed: {error} (is overlapviz installed on every worker?)")
        else:
            message = _("{file}: a Dask worker failed: {error}")
        raise ClusterError(message.format(file=source.path, error=f"{type(error).__name__}: {first}")) from None
    return result

"""File ▸ Open folder: a job's ranks summarised in worker processes, with progress, then reduced.

The window's own process holds summaries only, never a rank's events: each rank's trace is
read and analysed in a spawned worker (`app.rank_processes`), as many at once as the cores
and the memory allow (`job.pool.local_workers`). The waits look at the cancel token in short
steps, so that a newer open or closing the window stops the workers at once. Every worker
runs in a process of its own, even for one rank: parsing a trace holds Python's lock for
seconds, which a thread beside the GUI's would take from it. Pure: no Qt here.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from overlapviz.app.rank_processes import Progress, read_ranks
from overlapviz.core.cancel import CancelToken
from overlapviz.core.i18n import _
from overlapviz.job.discovery import JobInputError, folder_traces
from overlapviz.job.pool import RankResult, local_workers
from overlapviz.job.reduce import JobSummary, reduce_job
from overlapviz.job.worker import RankSource, rank_sources
from overlapviz.view.rank_overview import RankOverview, RankRow, rank_overview


@dataclass(frozen=True, slots=True, eq=False)
class OpenedJob:
    """A folder read as a job: the job's summary and its overview, ready to draw, and where each rank's events are."""

    folder: Path
    job: JobSummary
    overview: RankOverview
    sources: tuple[RankSource, ...]

    def source_of(self, row: RankRow) -> RankSource:
        """Where the events of the rank in `row` are: its file, or its process of an Nsight export of several.

        A file of one rank is its one source; the ranks of a file of several are told apart by
        number, which the worker gave each summary from its source.
        """
        path = str(row.file)
        of_file = [source for source in self.sources if source.path == path]
        if len(of_file) == 1:
            return of_file[0]
        return next((source for source in of_file if source.rank == row.rank), RankSource(path))


def read_job_folder(folder: Path, cancel: CancelToken, progress: Progress, workers: int | None = None) -> OpenedJob:
    """Summarise every rank of the traces in `folder` and reduce them to a job.

    Raises
    ------
    JobInputError
        The folder is empty, holds no trace, or some files gave no rank (each named, one a line).
    RunCancelled
        `cancel` was set meanwhile.
    """
    try:
        files = folder_traces(folder)
    except OSError as error:
        reason = error.strerror or error
        raise JobInputError(
            _("{folder}: the folder cannot be read: {reason}").format(folder=folder, reason=reason)
        ) from None
    sources = rank_sources(files)
    progress(0, len(sources))
    results = map_with_progress(sources, cancel, progress, workers)
    cancel.check()
    job = reduce_job(results)
    return OpenedJob(folder, job, rank_overview(job), tuple(sources))


def map_with_progress(
    sources: list[RankSource], cancel: CancelToken, progress: Progress, workers: int | None = None
) -> list[RankResult]:
    """Each source's summary (or problem), in order, from spawned workers; `progress` after each."""
    count = local_workers([source.path for source in sources]) if workers is None else workers
    return read_ranks(sources, max(1, min(count, len(sources))), cancel, progress)

"""A rank's events read for its timeline: its file whole, or its own process of an Nsight export of several.

Which events are a rank's is the job's fact (`job.worker.rank_trace`, what the job's analysis
read); the window opens the same. A file of one rank is opened as File ▸ Open opens it
(`file_loading.load_file`: in a child process where it is long); a process of an export of
several is read on this thread, then prepared as any file. Pure: no Qt here.
"""

from __future__ import annotations

from pathlib import Path

from overlapviz._qt.files.file_loading import OpenedFile, load_file, prepared_file
from overlapviz.app.session_file import SessionData
from overlapviz.core.cancel import CancelToken
from overlapviz.job.worker import RankSource, rank_trace


def load_rank(source: RankSource, cancel: CancelToken) -> OpenedFile:
    """The rank at `source`, read and prepared for the timeline.

    Raises
    ------
    OSError, ValueError
        The file cannot be read, is no trace, or the rank's process ran no copies or kernels.
    RunCancelled
        `cancel` was set meanwhile.
    """
    path = Path(source.path)
    if source.process is None:
        return load_file(path, cancel)
    return prepared_file(path, SessionData(None, rank_trace(source)), cancel)

"""The map's one step, run in a worker process: a trace file in, its rank's summary out.

A plain function of a picklable `RankSource`, so that a process pool or a Dask cluster can
run it; every failure the file can cause comes back as a `RankProblem`, never as an
exception, so that one bad rank is named rather than stopping the others.

An Nsight Systems export of several processes that ran GPU work (``nsys profile mpirun ...``)
is several ranks: `rank_sources` makes one source per process, and its worker reads that
process's rows alone. The rank is the process's MPI rank where the export's MPI trace records
every process's (``MPI_RANKS``), else the process's place in the order of their ids.

A source carries the language active where it was made, and its worker speaks it: a spawned
process, or a Dask worker, would otherwise word a file's problem in its environment's language,
not the one chosen with ``--lang`` or in the window.
"""

from __future__ import annotations

import contextlib
import gzip
import os
import socket
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from overlapviz.core.analysis.time_window import Window, WindowError, clip_to_window, is_time_range, parse_window
from overlapviz.core.analysis.time_window_names import range_window
from overlapviz.core.files.safe_read import read_input_bytes
from overlapviz.core.files.trace_format import TraceFormatError
from overlapviz.core.i18n import UnknownLanguageError, _, current_language, set_language
from overlapviz.core.trace.spans import Trace
from overlapviz.importers.nsys import NsysFormatError, read_nsys
from overlapviz.importers.nsys_processes import GpuProcess, gpu_processes, only_process
from overlapviz.importers.read import read_trace_file
from overlapviz.importers.to_trace import EmptyTraceError, activities_to_trace
from overlapviz.importers.untrusted_sqlite import SQLITE_MAGIC
from overlapviz.job.summary import RankProblem, RankSummary, summarise
from overlapviz.session import analyse


@dataclass(frozen=True, slots=True)
class RankSource:
    """Where a rank's trace is, as the worker sees it, and the part of it to read."""

    path: str
    window: str | None = None  # as ``--window`` takes it: ``2:4.5`` or a range's name
    process: GpuProcess | None = None  # in an Nsight export of several processes: the one that is this rank
    rank: int | None = None  # where the export, not the trace, says it
    rank_from: str = ""
    language: str = field(default_factory=current_language, compare=False)  # what its worker speaks


def rank_sources(files: Sequence[Path | str], window: str | None = None) -> list[RankSource]:
    """A source for each file, and for each process that ran GPU work in an Nsight export of several."""
    return [source for file in files for source in _sources_of(str(file), window)]


def summarise_file(source: RankSource) -> RankSummary | RankProblem:
    """Read, analyse and reduce one rank's trace; a problem with the file, in one line, where it fails."""
    path = source.path
    _speak(source.language)
    if not os.path.exists(path):
        where = socket.gethostname()  # on a cluster: which machine lacks the shared file system
        message = _("{file}: the worker on {host} cannot see the file (every worker needs the path)")
        return RankProblem(path, message.format(file=path, host=where))
    try:
        trace = rank_trace(source)
        if source.window is not None:
            trace = clip_to_window(trace, _window(trace, source.window))
    except WindowError as error:
        return RankProblem(path, _("{file}: --window: {error}").format(file=path, error=error))
    except (TraceFormatError, EmptyTraceError, NsysFormatError) as error:
        return RankProblem(path, str(error))
    except OSError as error:
        return RankProblem(path, _("cannot read {path}: {error}").format(path=path, error=error.strerror or error))
    summary = summarise(path, analyse(trace))
    return summary if source.rank is None else summary.with_rank(source.rank, source.rank_from)


def _speak(language: str) -> None:
    """Speak `language` in this process, as the process that made the source does (where this one knows it)."""
    if language != current_language():
        with contextlib.suppress(UnknownLanguageError):  # a worker of another install may lack the catalogue
            set_language(language)


def rank_trace(source: RankSource) -> Trace:
    """The rank's events: the whole file's trace, or its process's alone in an Nsight export of several.

    Raises
    ------
    TraceFormatError, NsysFormatError, EmptyTraceError
        The file is no trace, is damaged, or its process ran no copies or kernels.
    OSError
        The file cannot be read.
    """
    return read_trace_file(source.path) if source.process is None else _process_trace(source.path, source.process)


def _sources_of(path: str, window: str | None) -> list[RankSource]:
    """The file's one source, or one per process of an Nsight export of several; a file that fails here, as it is."""
    try:
        processes = gpu_processes(read_input_bytes(path), path) if _is_sqlite(path) else []
    except (OSError, NsysFormatError):
        processes = []  # the worker reads the file again and names what is wrong with it
    ranks = [process.mpi_rank for process in processes]
    by_mpi = bool(ranks) and None not in ranks and len(set(ranks)) == len(ranks)
    if len(processes) < 2:
        mpi = ranks[0] if by_mpi else None
        return [RankSource(path, window, rank=mpi, rank_from="" if mpi is None else _("MPI rank (MPI_RANKS)"))]
    if by_mpi:
        numbers, how = [process.mpi_rank for process in processes], _("process {pid}: MPI rank (MPI_RANKS)")
    else:
        numbers, how = list(range(len(processes))), _("process {pid}: order of process ids")
    return [
        RankSource(path, window, process, number, how.format(pid=process.pid))
        for number, process in zip(numbers, processes, strict=True)
    ]


def _is_sqlite(path: str) -> bool:
    """Whether the file, un-gzipped, begins as an SQLite database: its first bytes only."""
    try:
        with open(path, "rb") as file:
            head = file.read(len(SQLITE_MAGIC))
        if head[:2] == b"\x1f\x8b":
            with gzip.open(path, "rb") as unpacked:
                head = unpacked.read(len(SQLITE_MAGIC))
    except (OSError, EOFError, gzip.BadGzipFile):
        return False
    return head == SQLITE_MAGIC


def _process_trace(path: str, process: GpuProcess) -> Trace:
    """The trace of one process of an Nsight export of several."""
    return activities_to_trace(only_process(read_nsys(read_input_bytes(path), path), process))


def _window(trace: Trace, text: str) -> Window:
    """``START:END`` in ms from the rank's start, else the range of that name (``ProfilerStep#2``)."""
    return parse_window(text, trace) if is_time_range(text) else range_window(trace, text)

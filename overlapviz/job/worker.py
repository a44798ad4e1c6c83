"""The map's one step, run in a worker process: a trace file in, its rank's summary out.

A plain function of a picklable `RankSource`, so that a process pool or a Dask cluster can
run it; every failure the file can cause comes back as a `RankProblem`, never as an
exception, so that one bad rank is named rather than stopping the others.
"""

from __future__ import annotations

import os
import socket
from dataclasses import dataclass

from overlapviz.core.analysis.time_window import Window, WindowError, clip_to_window, is_time_range, parse_window
from overlapviz.core.analysis.time_window_names import range_window
from overlapviz.core.files.trace_format import TraceFormatError
from overlapviz.core.trace.spans import Trace
from overlapviz.importers.read import read_trace_file
from overlapviz.importers.to_trace import EmptyTraceError
from overlapviz.job.summary import RankProblem, RankSummary, summarise
from overlapviz.session import analyse


@dataclass(frozen=True, slots=True)
class RankSource:
    """Where a rank's trace is, as the worker sees it, and the part of it to read."""

    path: str
    window: str | None = None  # as ``--window`` takes it: ``2:4.5`` or a range's name


def summarise_file(source: RankSource) -> RankSummary | RankProblem:
    """Read, analyse and reduce one rank's trace; a problem with the file, in one line, where it fails."""
    path = source.path
    if not os.path.exists(path):
        where = socket.gethostname()  # on a cluster: which machine lacks the shared file system
        return RankProblem(path, f"{path}: the worker on {where} cannot see the file (every worker needs the path)")
    try:
        trace = read_trace_file(path)
        if source.window is not None:
            trace = clip_to_window(trace, _window(trace, source.window))
    except WindowError as error:
        return RankProblem(path, f"{path}: --window: {error}")
    except (TraceFormatError, EmptyTraceError) as error:
        return RankProblem(path, str(error))
    except OSError as error:
        return RankProblem(path, f"cannot read {path}: {error.strerror or error}")
    return summarise(path, analyse(trace))


def _window(trace: Trace, text: str) -> Window:
    """``START:END`` in ms from the rank's start, else the range of that name (``ProfilerStep#2``)."""
    return parse_window(text, trace) if is_time_range(text) else range_window(trace, text)

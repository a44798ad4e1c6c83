"""Writing a trace: Chrome trace JSON (`core.files.trace_format`) and CSV, each file written atomically.

The JSON holds everything `core.files.trace_import` needs to rebuild exactly the trace written; the
CSV, for spreadsheets, holds the spans alone (`CSV_HEADER`), and is not read back.
"""

from __future__ import annotations

import csv
import io
import json
import os
from typing import Any

import numpy as np
import numpy.typing as npt

from overlapviz.core.files.atomic_write import atomic_write_text
from overlapviz.core.files.trace_format import FORMAT_VERSION, INT_ARGS, PROCESS_ID, WORD_OF
from overlapviz.core.trace.lanes import lane_rows, lanes_of
from overlapviz.core.trace.spans import Trace

UNPLACED_LANE_TITLE = "Other spans"
CSV_HEADER = (
    "row", "kind", "name", "unit", "stream", "chunk", "enqueue_ns", "ready_ns",
    "start_ns", "end_ns", "duration_ns", "bytes", "memory", "device", "thread",
)  # fmt: skip


# --- lanes -----------------------------------------------------------------------------


def _lanes(trace: Trace) -> list[tuple[str, npt.NDArray[np.intp]]]:
    """(title, rows sorted by start) per track: each non-empty lane, split where spans overlap."""
    lanes = [(lane.title, lane_rows(trace, lane)) for lane in lanes_of(trace)]
    placed = np.zeros(len(trace), dtype=bool)
    for _, rows in lanes:
        placed[rows] = True
    if not placed.all():
        # A span no lane shows (say, a device op whose unit has no lane) must still be
        # written, or the round trip would lose it.
        rows = np.flatnonzero(~placed)
        lanes.append((UNPLACED_LANE_TITLE, rows[np.argsort(trace["start_ns"][rows], kind="stable")]))
    return [track for title, rows in lanes for track in _tracks(trace, title, rows)]


def _tracks(trace: Trace, title: str, rows: npt.NDArray[np.intp]) -> list[tuple[str, npt.NDArray[np.intp]]]:
    """Split one lane's rows (sorted by start) into tracks whose spans never overlap.

    Perfetto and chrome://tracing need the spans of one thread to nest; kernels of different
    streams running side by side on the compute unit overlap without nesting, and would be
    dropped. Each span goes to the first track that is free when it starts.
    """
    starts, ends = trace["start_ns"][rows].tolist(), trace["end_ns"][rows].tolist()
    track_ends: list[int] = []
    track_of = np.zeros(len(rows), dtype=np.intp)
    for i, (start, end) in enumerate(zip(starts, ends, strict=True)):
        track = next((t for t, free_at in enumerate(track_ends) if free_at <= start), len(track_ends))
        if track == len(track_ends):
            track_ends.append(end)
        track_ends[track] = end
        track_of[i] = track
    return [
        (title if track == 0 else f"{title} ({track + 1})", rows[track_of == track])
        for track in range(len(track_ends))
    ]


# --- Chrome trace export ---------------------------------------------------------------


def chrome_dict(trace: Trace) -> dict[str, Any]:
    """Convert `trace` to a Chrome trace JSON object (see the module docstring).

    Parameters
    ----------
    trace
        The trace to convert.

    Returns
    -------
    dict
        ``{"traceEvents": [...], "displayTimeUnit": "ms", "otherData": {...}}``.
    """
    row_args = _row_args(trace)
    names = [trace.names[i] for i in trace["name"].tolist()]
    starts, ends = trace["start_ns"].tolist(), trace["end_ns"].tolist()
    events: list[dict[str, Any]] = [_process_name(trace)]
    written: set[int] = set()
    for tid, (title, rows) in enumerate(_lanes(trace), start=1):
        events += _lane_metadata(tid, title)
        for row in rows.tolist():
            args = {**row_args[row], "copy_of": row} if row in written else {"row": row, **row_args[row]}
            written.add(row)
            events.append({
                "name": names[row], "cat": args["kind"], "ph": "X", "pid": PROCESS_ID, "tid": tid,
                "ts": starts[row] / 1000, "dur": (ends[row] - starts[row]) / 1000, "args": args,
            })  # fmt: skip
    other = {"overlapviz": FORMAT_VERSION, "meta": trace.meta.to_dict(), "names": list(trace.names)}
    return {"traceEvents": events, "displayTimeUnit": "ms", "otherData": other}


def _row_args(trace: Trace) -> list[dict[str, Any]]:
    """Every column of every row, with kinds, units and memory kinds as words."""
    words = {column: [WORD_OF[column][value] for value in trace[column].tolist()] for column in WORD_OF}
    columns = {**words, **{name: trace[name].tolist() for name in INT_ARGS}}
    keys = tuple(columns)
    return [dict(zip(keys, values, strict=True)) for values in zip(*columns.values(), strict=True)]


def _process_name(trace: Trace) -> dict[str, Any]:
    device = trace.meta.device_name or trace.meta.device or "unknown device"
    how = ", simulated" if trace.meta.simulated else ""
    title = f"overlapviz: {device}, {trace.meta.backend or 'unknown'} backend{how}"
    return {"name": "process_name", "ph": "M", "pid": PROCESS_ID, "args": {"name": title}}


def _lane_metadata(tid: int, title: str) -> list[dict[str, Any]]:
    return [
        {"name": "thread_name", "ph": "M", "pid": PROCESS_ID, "tid": tid, "args": {"name": title}},
        {"name": "thread_sort_index", "ph": "M", "pid": PROCESS_ID, "tid": tid, "args": {"sort_index": tid}},
    ]


def export_chrome(trace: Trace, path: str | os.PathLike[str]) -> None:
    """Write `trace` as Chrome trace JSON, atomically.

    Parameters
    ----------
    trace
        The trace to write.
    path
        The file to create or replace.

    Raises
    ------
    OSError
        The file could not be written; nothing is left behind.
    """
    text = json.dumps(chrome_dict(trace), separators=(",", ":"), allow_nan=False, default=json_value)
    atomic_write_text(path, text)


def json_value(value: object) -> object:
    """JSON for the numpy values a backend may leave in the metadata."""
    if isinstance(value, np.generic | np.ndarray):
        return value.tolist()
    raise TypeError(f"trace metadata holds a {type(value).__name__}, which JSON cannot store")


# --- CSV export ------------------------------------------------------------------------


def csv_text(trace: Trace) -> str:
    """Convert the spans to CSV text: a header (`CSV_HEADER`), then one row per span.

    Parameters
    ----------
    trace
        The trace to convert.

    Returns
    -------
    str
        The CSV text, with Unix line endings.
    """
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_HEADER)
    args = _row_args(trace)
    for row, values in enumerate(args):
        writer.writerow([
            row, values["kind"], trace.name_of(row), values["unit"], values["stream"], values["chunk"],
            values["enqueue_ns"], values["ready_ns"], values["start_ns"], values["end_ns"],
            values["end_ns"] - values["start_ns"], values["bytes"], values["memory"], values["device"],
            values["thread"],
        ])  # fmt: skip
    return buffer.getvalue()


def export_csv(trace: Trace, path: str | os.PathLike[str]) -> None:
    """Write the spans of `trace` as CSV, atomically.

    Parameters
    ----------
    trace
        The trace to write.
    path
        The file to create or replace.

    Raises
    ------
    OSError
        The file could not be written; nothing is left behind.
    """
    atomic_write_text(path, csv_text(trace))

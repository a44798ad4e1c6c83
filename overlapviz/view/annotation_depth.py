"""Nested annotation ranges (NVTX, ``record_function``) stacked one row per depth.

A range drawn over the range that holds it would hide it, so the annotation lane is split
into rows: a range goes in the first row that is free when it starts, its parents having
started earlier (or at the same time and lasting longer) and taken the rows above. Ranges of
several threads that overlap without nesting get rows the same way, so no two ranges of a
row ever overlap. The first row keeps the annotation lane's key and title; the others are
titled with nothing, their ranges reading as what they are nested in. Pure: no Qt here.
"""

from __future__ import annotations

import heapq
from dataclasses import replace

import numpy as np
import numpy.typing as npt

from overlapviz.core.trace.lanes import Lane
from overlapviz.core.trace.spans import Trace

Int64Array = npt.NDArray[np.int64]
INT64_MIN = np.iinfo(np.int64).min
MAX_ROWS_CHECKED = 64  # past this many rows, checking row by row costs more than the loop


def depth_rows(starts: Int64Array, ends: Int64Array) -> npt.NDArray[np.intp]:
    """The row of each range: the first whose last range has ended when it starts (0 on top)."""
    order = np.lexsort((-ends, starts))  # by start; of two that start together, the longer first
    s, e = np.asarray(starts)[order], np.asarray(ends)[order]
    rows = _rows_if_nested(s, e)
    depths = np.zeros(len(starts), dtype=np.intp)
    depths[order] = _first_free_rows(s, e) if rows is None else rows
    return depths


def _rows_if_nested(starts: Int64Array, ends: Int64Array) -> npt.NDArray[np.intp] | None:
    """The rows of the ranges (in order) counted at once where that is what `_first_free_rows` gives; None elsewhere.

    A range starting while d earlier ones still run goes in row d when those d are in the
    rows above it: then the rows above are taken and its own is free. That holds where the
    ranges nest, as one thread's do, and is checked here one row at a time; ranges of no
    length, or rows too many to check, are left to the loop.
    """
    if not len(starts) or bool((ends <= starts).any()):
        return None
    # how many earlier ranges still run when each starts (no later one has ended by then: none is empty)
    rows = np.arange(len(starts)) - np.searchsorted(np.sort(ends), starts, side="right")
    deepest = int(rows.max())
    if deepest > MAX_ROWS_CHECKED:
        return None
    for row in range(1, deepest + 1):
        # each range of this row starts once every earlier range in it or below it has ended
        reach = np.maximum.accumulate(np.where(rows >= row, ends, INT64_MIN))
        here = np.flatnonzero(rows[1:] == row) + 1
        if bool((reach[here - 1] > starts[here]).any()):
            return None
    return rows.astype(np.intp)


def _first_free_rows(starts: Int64Array, ends: Int64Array) -> list[int]:
    """The row of each range (sorted as `depth_rows` sorts them), one range at a time."""
    running: list[tuple[int, int]] = []  # (end, row) of the last range of each row not yet ended
    free: list[int] = []  # the rows whose last range has ended, lowest first
    placed: list[int] = []
    # A loop over the ranges: which row is free depends on every earlier choice. The rows
    # freed by a start stay free for the later ones, which start no earlier.
    for start, end in zip(starts.tolist(), ends.tolist(), strict=True):
        while running and running[0][0] <= start:
            heapq.heappush(free, heapq.heappop(running)[1])
        row = heapq.heappop(free) if free else len(running)  # every row is running or free
        heapq.heappush(running, (end, row))
        placed.append(row)
    return placed


def split_by_depth(trace: Trace, lane: Lane, rows: npt.NDArray[np.intp]) -> list[tuple[Lane, npt.NDArray[np.intp]]]:
    """The annotation lane and its rows (sorted by start) as one lane per depth of nesting, top first."""
    depths = depth_rows(trace["start_ns"][rows], trace["end_ns"][rows])
    count = int(depths.max()) + 1 if len(depths) else 1
    deeper = [replace(lane, key=f"{lane.key}-{depth + 1}", title="") for depth in range(1, count)]
    return [(each, rows[depths == depth]) for depth, each in enumerate([lane, *deeper])]

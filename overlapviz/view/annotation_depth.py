"""Nested annotation ranges (NVTX, ``record_function``) stacked one row per depth.

A range drawn over the range that holds it would hide it, so the annotation lane is split
into rows: a range goes in the first row that is free when it starts, its parents having
started earlier (or at the same time and lasting longer) and taken the rows above. Ranges of
several threads that overlap without nesting get rows the same way, so no two ranges of a
row ever overlap. The first row keeps the annotation lane's key and title; the others are
titled with nothing, their ranges reading as what they are nested in. Pure: no Qt here.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import numpy.typing as npt

from overlapviz.core.trace.lanes import Lane
from overlapviz.core.trace.spans import Trace

Int64Array = npt.NDArray[np.int64]


def depth_rows(starts: Int64Array, ends: Int64Array) -> npt.NDArray[np.intp]:
    """The row of each range: the first whose last range has ended when it starts (0 on top)."""
    order = np.lexsort((-ends, starts))  # by start; of two that start together, the longer first
    depths = np.zeros(len(starts), dtype=np.intp)
    row_ends: list[int] = []  # the end of the last range put in each row
    # A loop over the ranges: there are few (a range per step or per op at most), and which row
    # is free depends on every earlier choice.
    for index in order.tolist():
        start, end = int(starts[index]), int(ends[index])
        row = next((r for r, row_end in enumerate(row_ends) if row_end <= start), len(row_ends))
        if row == len(row_ends):
            row_ends.append(end)
        else:
            row_ends[row] = end
        depths[index] = row
    return depths


def split_by_depth(trace: Trace, lane: Lane, rows: npt.NDArray[np.intp]) -> list[tuple[Lane, npt.NDArray[np.intp]]]:
    """The annotation lane and its rows (sorted by start) as one lane per depth of nesting, top first."""
    depths = depth_rows(trace["start_ns"][rows], trace["end_ns"][rows])
    count = int(depths.max()) + 1 if len(depths) else 1
    deeper = [replace(lane, key=f"{lane.key}-{depth + 1}", title="") for depth in range(1, count)]
    return [(each, rows[depths == depth]) for depth, each in enumerate([lane, *deeper])]

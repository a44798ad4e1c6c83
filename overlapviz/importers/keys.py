"""Keys of activity rows: which rows are the same stream, which call issued which op.

Stream and correlation ids are numbered by each process apart (and a stream id by each GPU
too): two processes of one file, such as two ranks of a job, each have a stream 7 and a
correlation id 12 of their own. Rows are grouped by every column of the key at once.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from overlapviz.importers.activity import UNKNOWN, Activities


def groups(*columns: npt.NDArray[np.int64]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.intp]]:
    """Rows with equal values in every column numbered alike (0, 1, ...), and each number's first row."""
    order = np.lexsort(columns[::-1])  # stable: each group's first row in `order` is its first in the file
    changes = np.zeros(order.size, dtype=bool)
    for column in columns:
        changes[1:] |= column[order][1:] != column[order][:-1]
    changes[:1] = True
    numbers = np.empty(order.size, dtype=np.int64)
    numbers[order] = np.cumsum(changes) - 1
    return numbers, order[changes]


def correlation_keys(a: Activities, rows: npt.NDArray[np.intp]) -> npt.NDArray[np.int64]:
    """One number per row for its (process, correlation id): each process numbers its calls apart.

    -1 where the row has no correlation id; equal numbers for equal pairs, within one call.
    """
    keys = np.full(rows.size, UNKNOWN, dtype=np.int64)
    known = rows[a["correlation"][rows] >= 0]
    keys[a["correlation"][rows] >= 0] = groups(a["process"][known], a["correlation"][known])[0]
    return keys

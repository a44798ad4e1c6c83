"""Frozen numpy columns: the storage of traces and of imported activity alike."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt


def freeze_columns(columns: dict[str, npt.NDArray[Any]], spec: Mapping[str, type], what: str) -> None:
    """Check that `columns` has every column of `spec`, all of one length; cast each to its type, read-only.

    Raises
    ------
    ValueError
        A column is missing, or the columns differ in length; the message names `what`.
    """
    missing = sorted(set(spec) - set(columns))
    if missing:
        raise ValueError(f"{what} columns missing: {', '.join(missing)}")
    lengths = {name: len(columns[name]) for name in spec}
    if len(set(lengths.values())) > 1:
        raise ValueError(f"{what} columns differ in length: {lengths}")
    for name, dtype in spec.items():
        columns[name] = np.asarray(columns[name], dtype=dtype)
        columns[name].flags.writeable = False


def distinct(values: npt.ArrayLike) -> npt.NDArray[Any]:
    """The distinct values of `values`, sorted: `np.unique` by one sort and one comparison.

    NumPy 2.3 and later find unique integers by hashing, in calls that hold Python's global
    lock for long stretches (measured on a 2-core machine: 350 ms at a time within the 3.1 s
    it took for 10^6 distinct rows, 47 ms for 600,000 chunk numbers), stalling every other
    thread, the GUI's too. A sort lets go of the lock while it runs.
    """
    ordered = np.sort(np.asarray(values))
    if ordered.size < 2:
        return ordered
    first = np.empty(ordered.size, dtype=bool)
    first[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=first[1:])
    return ordered[first]


SMALL_RANGE = 1 << 16  # values spread this little are counted in a table rather than sorted


def few_distinct(values: npt.ArrayLike) -> npt.NDArray[Any]:
    """`distinct` for integers of a small range (GPU indices, units, streams): one count, no sort.

    Sorting 10^7 values to find the two or three among them costs a second; counting them, the
    range permitting, a pass.
    """
    values = np.asarray(values)
    if values.size == 0 or values.dtype.kind not in "iu":
        return distinct(values)
    low, high = int(values.min()), int(values.max())
    if low == high:  # one value, as a trace of one GPU has: no count
        return values[:1].copy()
    if high - low >= SMALL_RANGE:
        return distinct(values)
    counts = np.bincount(values.astype(np.intp, copy=False) - low, minlength=high - low + 1)
    found: npt.NDArray[Any] = (np.flatnonzero(counts) + low).astype(values.dtype)
    return found


def count_distinct(values: npt.ArrayLike) -> int:
    """How many distinct values `values` holds: `len(distinct(values))`, by a count where the integers' range allows.

    Chunk numbers run from 0 to about as many as there are: a table of that range is one pass,
    where a sort of millions of them takes a second.
    """
    values = np.asarray(values)
    if values.size == 0 or values.dtype.kind not in "iu":
        return len(distinct(values))
    low, high = int(values.min()), int(values.max())
    if high - low >= max(SMALL_RANGE, 4 * values.size):
        return len(distinct(values))
    return int(np.count_nonzero(np.bincount(values.astype(np.intp, copy=False) - low, minlength=high - low + 1)))

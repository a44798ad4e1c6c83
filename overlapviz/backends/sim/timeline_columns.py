"""What a run of the model hands on: its times and host calls as columns, built and freed a piece at a time.

Columns, not objects: a run of 65,536 chunks has 2 x 10^5 ops and as many host calls, and
converting or freeing that many Python objects at once holds Python's lock for tens of ms.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

_PIECE = 16_384  # list items freed or converted at a time: a few ms on a 2-core machine


@dataclass(frozen=True, slots=True)
class HostCalls:
    """The API calls of the host thread, in order, as columns."""

    names: tuple[str, ...]  # the distinct names; `name` indexes them
    name: npt.NDArray[np.int64]
    start_ns: npt.NDArray[np.float64]
    end_ns: npt.NDArray[np.float64]
    op: npt.NDArray[np.int64]  # index of the op each issued; -1 for none
    device: npt.NDArray[np.int64]  # the GPU each acts on (that of the op it issued); -1 for every GPU

    def __len__(self) -> int:
        return len(self.name)


@dataclass(slots=True)
class Timeline:
    """When every op was issued, became ready, started and ended (one array entry per op), and what the host did.

    Columns, not objects: a run of 65,536 chunks has 2 x 10^5 ops and as many host calls,
    and freeing that many Python objects at once holds Python's lock for tens of ms.
    """

    enqueue_ns: npt.NDArray[np.float64]
    ready_ns: npt.NDArray[np.float64]
    start_ns: npt.NDArray[np.float64]
    end_ns: npt.NDArray[np.float64]
    host_calls: HostCalls


def clear_in_pieces(items: list[Any]) -> None:
    """Empty `items` a piece at a time, so that freeing 10^5 objects never holds Python's lock for long.

    Freeing a list frees everything in it in one go, with no chance for another thread to
    run in between: 20 ms for the 2 x 10^5 ops of a 65,536-chunk run on a 2-core machine.
    """
    while items:
        del items[-_PIECE:]


def float_column(values: list[float]) -> npt.NDArray[np.float64]:
    """`values` as an array of floats, converted a piece at a time (see `column`)."""
    floats: npt.NDArray[np.float64] = column(values, np.float64)
    return floats


def column(values: list[Any], dtype: type) -> npt.NDArray[Any]:
    """`values` as an array, converted a piece at a time (one conversion of 2 x 10^5 numbers took 30 ms)."""
    pieces: list[npt.NDArray[Any]] = [
        np.fromiter(values[i : i + _PIECE], dtype=dtype) for i in range(0, len(values), _PIECE)
    ]
    return np.concatenate(pieces) if pieces else np.zeros(0, dtype=dtype)

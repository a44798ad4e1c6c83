"""The collectives a rank ran, as the anchors that put the ranks of a job on one clock.

Each communication span is keyed by its collective (the name Kineto gives it, else the
kernel's name without its arguments) and, where the trace names it, its process group, and
numbered in start order within that key: the k-th all-reduce of process group 0 on one rank
matches the k-th all-reduce of that group on every other, as NCCL runs one communicator's
collectives in the same order on all its ranks (two groups' collectives interleave
differently from rank to rank, so they are counted apart). Times are the file's own
clock (the rank's time 0 plus the span's start), so that the ranks can be compared later.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from overlapviz.core.trace.communication import collective_in_group, collective_of, process_group_of
from overlapviz.core.trace.spans import OpKind, Trace


@dataclass(frozen=True, slots=True, eq=False)
class CollectiveAnchors:
    """One row per communication span of a rank: its key, its number within the key, its times."""

    # each key index's collective: "allreduce", "allreduce, process group 1", "ncclKernel_SendRecv_..."
    keys: tuple[str, ...]
    key: npt.NDArray[np.int32]
    sequence: npt.NDArray[np.int32]  # 0, 1, 2, ... within its key, in start order
    start_ns: npt.NDArray[np.int64]  # on the file's clock
    end_ns: npt.NDArray[np.int64]

    def __len__(self) -> int:
        return int(self.key.size)

    def by_match(self) -> dict[tuple[str, int], tuple[int, int]]:
        """(collective, sequence) -> (start, end): the form in which two ranks' anchors are matched."""
        return {(self.keys[k], int(s)): (int(a), int(b))
                for k, s, a, b in zip(self.key, self.sequence, self.start_ns, self.end_ns, strict=True)}  # fmt: skip


def collective_anchors(trace: Trace, origin_ns: int) -> CollectiveAnchors:
    """The anchors of `trace`, whose time 0 was `origin_ns` on its file's clock."""
    rows = np.flatnonzero(trace["kind"] == OpKind.COMMUNICATION)
    rows = rows[np.argsort(trace["start_ns"][rows], kind="stable")]
    names = [_collective_key(trace.name_of(int(row))) for row in rows]
    keys = tuple(dict.fromkeys(names))
    key = np.array([keys.index(name) for name in names], dtype=np.int32)
    sequence = np.zeros(key.size, dtype=np.int32)
    for index in range(len(keys)):
        mine = key == index
        sequence[mine] = np.arange(int(mine.sum()), dtype=np.int32)
    return CollectiveAnchors(
        keys, key, sequence,
        trace["start_ns"][rows].astype(np.int64) + origin_ns, trace["end_ns"][rows].astype(np.int64) + origin_ns,
    )  # fmt: skip


def _collective_key(name: str) -> str:
    collective = collective_of(name)
    if collective is None:
        return name.split("(", 1)[0].strip()
    return collective_in_group(collective, process_group_of(name) or "")

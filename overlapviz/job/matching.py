"""Every rank's collectives in one table, each matched with the same collective on the other ranks.

Two anchors match when they are the same collective of the same process group (where the
traces name it) with the same number (the k-th all-reduce of group 0 on each rank).
Columns, not objects: 512 ranks of ten thousand collectives each are five million rows,
matched by sorting.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from overlapviz.job.anchors import CollectiveAnchors

IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True, slots=True, eq=False)
class MatchedCollectives:
    """One row per anchor of every rank, sorted by the collective it is an instance of."""

    rank: IntArray  # the position of its rank in the job's list
    collective: IntArray  # 0, 1, ...: rows of one collective, on every rank that ran it, share it
    start_ns: IntArray  # on the rank's own clock
    end_ns: IntArray

    def of_rank(self, position: int) -> npt.NDArray[np.bool_]:
        """The rows of the rank at `position`."""
        rows: npt.NDArray[np.bool_] = self.rank == position
        return rows


def match_collectives(anchors: Sequence[CollectiveAnchors]) -> MatchedCollectives:
    """The anchors of each rank (in the job's order), matched across ranks."""
    names: dict[str, int] = {}
    ids = [np.array([names.setdefault(k, len(names)) for k in a.keys], dtype=np.int64) for a in anchors]
    key = np.concatenate([i[a.key] if len(a) else np.zeros(0, np.int64) for i, a in zip(ids, anchors, strict=True)])
    sequence = np.concatenate([a.sequence.astype(np.int64) for a in anchors] or [np.zeros(0, np.int64)])
    rank = np.concatenate(
        [np.full(len(a), n, dtype=np.int64) for n, a in enumerate(anchors)] or [np.zeros(0, np.int64)]
    )
    _, collective = np.unique(key * 2**32 + sequence, return_inverse=True)
    order = np.lexsort((rank, collective))
    starts = np.concatenate([a.start_ns for a in anchors] or [np.zeros(0, np.int64)])
    ends = np.concatenate([a.end_ns for a in anchors] or [np.zeros(0, np.int64)])
    return MatchedCollectives(rank[order], collective.reshape(-1)[order].astype(np.int64), starts[order], ends[order])

"""Which kernels are communication (NCCL or RCCL), from what the trace records.

A kernel is communication when
- its name is of NCCL's or RCCL's family: it starts with ``nccl`` or ``rccl`` (after a
  ``void`` that some tools keep from the signature), as every kernel those libraries launch
  does (``ncclKernel_AllReduce_RING_LL_Sum_float``, ``ncclDevKernel_Generic``,
  ``ncclDevKernel_AllGather_RING_LL``); or
- the tool recorded the collective it ran: Kineto copies ``Collective name`` (with ``Process
  Group Name``, message sizes, ...) from the ``record_param_comms`` op onto its kernel.

Such a span's name then carries its collective (`overlapviz.core.trace.communication`).
"""

from __future__ import annotations

import re

import numpy as np
import numpy.typing as npt

from overlapviz.core.trace.communication import with_collective
from overlapviz.importers.activity import UNKNOWN, Activities, ActivityKind

_LIBRARY_KERNEL = re.compile(r"^(?:void\s+)?(?:nccl|rccl)", re.IGNORECASE)


def communication_rows(a: Activities, rows: npt.NDArray[np.intp]) -> npt.NDArray[np.bool_]:
    """Which of `rows` are communication kernels."""
    library_names = np.fromiter((bool(_LIBRARY_KERNEL.match(n)) for n in a.names), dtype=bool, count=len(a.names))
    kernels = a["kind"][rows] == ActivityKind.KERNEL
    named = library_names[a["name"][rows]] if a.names else np.zeros(rows.size, dtype=bool)
    communication: npt.NDArray[np.bool_] = kernels & (named | (a["collective"][rows] != UNKNOWN))
    return communication


def named_collectives(a: Activities) -> Activities:
    """`a` with each kernel whose collective the tool recorded named after it as well (see the module)."""
    known = np.flatnonzero((a["collective"] != UNKNOWN) & (a["kind"] == ActivityKind.KERNEL))
    if known.size == 0:
        return a
    names = list(a.names)
    index = {name: number for number, name in enumerate(names)}
    pairs, inverse = np.unique(np.stack([a["name"][known], a["collective"][known]], axis=1), axis=0,
                               return_inverse=True)  # fmt: skip
    numbers = [_number(index, names, with_collective(names[kernel], names[collective])) for kernel, collective in
               pairs.tolist()]  # fmt: skip
    renamed = a["name"].copy()
    renamed[known] = np.asarray(numbers, dtype=renamed.dtype)[inverse.reshape(-1)]
    return Activities({**a.columns, "name": renamed}, tuple(names), a.meta)


def _number(index: dict[str, int], names: list[str], name: str) -> int:
    """The number of `name` among `names`, appended where it is not one yet."""
    if name not in index:
        index[name] = len(names)
        names.append(name)
    return index[name]

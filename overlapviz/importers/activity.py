"""Activities: what a profiler recorded, in one columnar shape for every tool.

One row per record: a copy, a memset, a kernel, a host API call, a synchronisation, or an
annotation range (NVTX, ``record_function``). Times are integer nanoseconds on the tool's own
clock (the converter shifts them); unknown values are -1. Names (kernel names, API names,
annotation texts) are indices into ``names``, as in `overlapviz.core.trace.spans.Trace`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any

import numpy as np
import numpy.typing as npt

from overlapviz.core.trace.frozen_columns import freeze_columns

UNKNOWN = -1
NULL_STREAMS_META = "null_streams"  # the tool's ids of the legacy default stream, where the file says them


class ActivityKind(IntEnum):
    """What a record is."""

    MEMCPY = 0
    MEMSET = 1
    KERNEL = 2
    RUNTIME = 3  # a CUDA runtime API call on a host thread (cudaMemcpyAsync, cudaLaunchKernel, ...)
    DRIVER = 4  # a CUDA driver API call (cuLaunchKernel, ...)
    SYNC = 5  # a synchronisation the tool recorded apart from the call (CUPTI's _SYNCHRONIZATION)
    ANNOTATION = 6  # a named range: NVTX push/pop or start/end, PyTorch record_function, ProfilerStep#N


class CopyKind(IntEnum):
    """Which way a copy went (CUPTI's and Nsight's copy kinds map onto these)."""

    UNKNOWN = 0
    H2D = 1
    D2H = 2
    D2D = 3  # within one device
    PEER = 4  # between two devices (PtoP)
    H2H = 5
    UVM_H2D = 6  # unified-memory migrations: the driver moved pages, the program issued no copy
    UVM_D2H = 7
    UVM_D2D = 8


class HostMemory(IntEnum):
    """The host side of a copy, as the tool says (the memory kinds of `overlapviz.core.trace.spans`)."""

    UNKNOWN = 0
    PAGEABLE = 1
    PINNED = 2
    DEVICE = 3
    MANAGED = 4


ACTIVITY_COLUMNS: dict[str, type] = {
    "kind": np.int8,  # ActivityKind
    "start_ns": np.int64,
    "end_ns": np.int64,
    "device": np.int16,  # GPU index; -1 for host records
    "stream": np.int64,  # the tool's stream id (not an index); -1 for host records
    "thread": np.int64,  # the host thread id of API calls and host annotations; -1 otherwise
    # The OS process of a record: of the calling thread, and of the program that issued a device op.
    # Stream and correlation ids are numbered per process, so they are read with it; -1 if unknown.
    "process": np.int64,
    "correlation": np.int64,  # links an API call to the device op it issued; -1 if none
    "bytes": np.int64,  # copies and memsets
    "copy_kind": np.int8,  # CopyKind, for copies
    "src_memory": np.int8,  # HostMemory of the source, for copies
    "dst_memory": np.int8,  # HostMemory of the destination, for copies
    "name": np.int32,  # index into names
    # For a wait of one stream on another (cudaStreamWaitEvent) where the tool says them: the
    # stream waited on, and the correlation id of the event record the wait is for; -1 otherwise.
    "wait_stream": np.int64,
    "wait_record": np.int64,
    "on_device": np.int8,  # for annotations: 1 when the tool placed the range on the GPU's timeline
    "collective": np.int32,  # for kernels: the collective the tool says it ran (an index into names); -1 if none
}


@dataclass(frozen=True, eq=False)
class Activities:
    """The records of one profile, as columns, plus what the file said about itself.

    `meta` holds at least ``tool`` (e.g. ``"PyTorch profiler"``, ``"Nsight Systems"``) and
    whatever the file names: ``tool_version``, ``recorded`` (ISO date), ``devices`` (index ->
    name), ``source`` (the file).
    """

    columns: dict[str, npt.NDArray[Any]]
    names: tuple[str, ...]
    meta: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        freeze_columns(self.columns, ACTIVITY_COLUMNS, "activity")

    def __len__(self) -> int:
        return len(self.columns["kind"])

    def __getitem__(self, name: str) -> npt.NDArray[Any]:
        return self.columns[name]

    def mask(self, *kinds: ActivityKind) -> npt.NDArray[np.bool_]:
        """Rows whose kind is one of `kinds`."""
        return np.isin(self["kind"], [int(k) for k in kinds])


def empty_columns(n: int) -> dict[str, npt.NDArray[Any]]:
    """Columns for `n` rows, every value unknown (-1) or zero where -1 has no meaning."""
    zero = {"bytes", "copy_kind", "src_memory", "dst_memory", "on_device", "name", "kind"}
    return {
        name: np.full(n, 0 if name in zero else UNKNOWN, dtype=dtype) for name, dtype in ACTIVITY_COLUMNS.items()
    }

"""The trace: one row per span, numpy columns, integer nanoseconds from the run's start.

A device op (copy or kernel) has four times: ``enqueue_ns`` (the host issued it),
``ready_ns`` (its stream reached it: everything before it in the stream had finished),
``start_ns`` and ``end_ns`` (the hardware ran it). Waiting is ``ready -> start``; that is where
overlap is lost. A host span is an API call on the host thread; its ``op`` column points at the
device op it issued, if any. Unknown times are ``-1``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any

import numpy as np
import numpy.typing as npt

from overlapviz.core.columns import freeze_columns

UNKNOWN = -1


class OpKind(IntEnum):
    """What a span is."""

    H2D = 0
    KERNEL = 1
    D2H = 2
    API = 3  # a host API call (cudaMemcpyAsync, cuLaunchKernel, cudaDeviceSynchronize, ...)
    # 4 to 8 are the kinds imported traces carry (memsets, D2D and peer copies, migrations, annotations)
    PREFETCH = 9  # a managed migration the program issued (cudaMemPrefetchAsync), on the copy engine of its direction
    HOST_COPY = 10  # the host thread's memcpy into or out of a pinned staging slot, on the host lane

    @property
    def label(self) -> str:
        """Short lower-case name used in exports and the UI."""
        return _KIND_LABELS[self]


_KIND_LABELS = {
    OpKind.H2D: "h2d", OpKind.KERNEL: "kernel", OpKind.D2H: "d2h", OpKind.API: "api",
    OpKind.PREFETCH: "prefetch", OpKind.HOST_COPY: "host-copy",
}  # fmt: skip
# What the GPU ran. Prefetches occupy the copy engines like copies but are never counted as
# H2D/D2H copy bytes: the metrics' copy figures are about the pipeline's memcpy stages.
DEVICE_KINDS = (OpKind.H2D, OpKind.KERNEL, OpKind.D2H, OpKind.PREFETCH)
HOST_KINDS = (OpKind.API, OpKind.HOST_COPY)  # what the host thread does: API calls, and its own copies


class Unit(IntEnum):
    """The part of the machine that executed a span."""

    HOST = 0
    H2D_ENGINE = 1
    COMPUTE = 2
    D2H_ENGINE = 3
    COPY_ENGINE = 4  # the single engine of a device that copies one direction at a time

    @property
    def title(self) -> str:
        """Lane title."""
        return _UNIT_TITLES[self]


_UNIT_TITLES = {
    Unit.HOST: "Host thread",
    Unit.H2D_ENGINE: "H2D engine",
    Unit.COMPUTE: "Compute",
    Unit.D2H_ENGINE: "D2H engine",
    Unit.COPY_ENGINE: "Copy engine",
}


class MemoryKind(IntEnum):
    """The host memory a copy, prefetch or kernel reached (CUPTI's src/dst kinds map onto these)."""

    NONE = 0
    PAGEABLE = 1
    PINNED = 2
    REGISTERED = 3
    WRITE_COMBINED = 4
    MAPPED = 5  # page-locked host memory a kernel reads and writes across the link
    MANAGED = 6  # cudaMallocManaged memory, migrated by faults or prefetches

    @property
    def label(self) -> str:
        """Lower-case name, as in `PipelineConfig.memory`."""
        return self.name.lower().replace("_", "-")


COLUMNS: dict[str, type] = {
    "kind": np.int8,
    "unit": np.int8,
    "stream": np.int32,  # 0-based stream index; -1 for host spans
    "chunk": np.int32,  # chunk index; -1 when the span belongs to no chunk
    "enqueue_ns": np.int64,
    "ready_ns": np.int64,
    "start_ns": np.int64,
    "end_ns": np.int64,
    "bytes": np.int64,
    "memory": np.int8,
    "name": np.int32,  # index into Trace.names
    "op": np.int32,  # for host spans: the row of the device op the call issued, else -1
}


@dataclass(frozen=True, eq=False)
class Trace:
    """Spans of one run plus what produced them.

    `meta` holds at least ``backend``, ``device``, ``timing`` (the timing source),
    ``config`` (a `PipelineConfig.to_dict()`), ``version`` and ``device_facts``
    (``copy_engines`` and whatever else the backend knows).
    """

    columns: dict[str, npt.NDArray[Any]]
    names: tuple[str, ...]
    meta: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        freeze_columns(self.columns, COLUMNS, "trace")

    def __len__(self) -> int:
        return len(self.columns["kind"])

    def __getitem__(self, name: str) -> npt.NDArray[Any]:
        return self.columns[name]

    @property
    def duration_ns(self) -> npt.NDArray[np.int64]:
        """Duration (end - start) of every span."""
        duration: npt.NDArray[np.int64] = self["end_ns"] - self["start_ns"]
        return duration

    def mask(self, *kinds: OpKind) -> npt.NDArray[np.bool_]:
        """Rows whose kind is one of `kinds`."""
        return np.isin(self["kind"], [int(k) for k in kinds])

    @property
    def device_mask(self) -> npt.NDArray[np.bool_]:
        """Rows that ran on the device (copies and kernels)."""
        return self.mask(*DEVICE_KINDS)

    def name_of(self, row: int) -> str:
        """The span's name (API function or kernel name)."""
        return self.names[int(self["name"][row])]

    def row(self, index: int) -> dict[str, Any]:
        """One span as a plain dict (for tooltips, tests and exports)."""
        values: dict[str, Any] = {name: self.columns[name][index].item() for name in COLUMNS}
        values["name"] = self.name_of(index)
        return values

    @property
    def copy_engines(self) -> int:
        """Asynchronous copy engines of the device that ran this trace."""
        return int(self.meta.get("device_facts", {}).get("copy_engines", 2))

    def with_meta(self, **changes: Any) -> Trace:
        """The same spans with metadata entries added or replaced."""
        return Trace(dict(self.columns), self.names, {**self.meta, **changes})


class TraceBuilder:
    """Collects spans row by row, then freezes them into a `Trace`."""

    def __init__(self) -> None:
        self._rows: dict[str, list[int]] = {name: [] for name in COLUMNS}
        self._names: dict[str, int] = {}

    def __len__(self) -> int:
        return len(self._rows["kind"])

    def add(
        self,
        kind: OpKind,
        unit: Unit,
        start_ns: int,
        end_ns: int,
        *,
        name: str,
        stream: int = -1,
        chunk: int = -1,
        enqueue_ns: int = UNKNOWN,
        ready_ns: int = UNKNOWN,
        nbytes: int = 0,
        memory: MemoryKind = MemoryKind.NONE,
        op: int = -1,
    ) -> int:
        """Append one span; returns its row index."""
        if end_ns < start_ns:
            raise ValueError(f"span {name!r} ends ({end_ns}) before it starts ({start_ns})")
        values = (kind, unit, stream, chunk, enqueue_ns, ready_ns, start_ns, end_ns, nbytes, memory)
        for column, value in zip(COLUMNS, values, strict=False):
            self._rows[column].append(int(value))
        self._rows["name"].append(self._names.setdefault(name, len(self._names)))
        self._rows["op"].append(op)
        return len(self) - 1

    def build(self, meta: dict[str, Any], *, origin_ns: int | None = None) -> Trace:
        """Freeze, shifting every time so that the earliest one (or `origin_ns`) is 0."""
        columns: dict[str, npt.NDArray[Any]] = {
            name: np.asarray(values, dtype=COLUMNS[name]) for name, values in self._rows.items()
        }
        times = ("enqueue_ns", "ready_ns", "start_ns", "end_ns")
        if origin_ns is None:
            known = [columns[t][columns[t] >= 0] for t in times]
            origin_ns = min((int(values.min()) for values in known if values.size), default=0)
        for t in times:
            known = columns[t] != UNKNOWN
            columns[t][known] -= origin_ns
        names = tuple(sorted(self._names, key=self._names.__getitem__))
        return Trace(columns, names, meta)

"""The trace: one row per span, numpy columns, integer nanoseconds from the run's start.

A device op (copy or kernel) has four times: ``enqueue_ns`` (the host issued it),
``ready_ns`` (its stream reached it: everything before it in the stream had finished),
``start_ns`` and ``end_ns`` (the hardware ran it). Waiting is ``ready -> start``; that is where
overlap is lost. A host span is an API call on a host thread; its ``op`` column points at the
device op it issued, if any. Unknown times are ``-1``.

Every span also says where it happened: ``device``, the GPU that ran a device op (or that the
op a host call issued ran on), and ``thread``, the host thread that made a call (or issued a
device op), as the tool that recorded it numbers them (an OS thread id for another tool's
trace). overlapviz's own runs have one GPU and one host thread: device 0, thread 0.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass
from enum import IntEnum
from typing import Any

import numpy as np
import numpy.typing as npt

from overlapviz.core.i18n import N_, _
from overlapviz.core.trace.checks import TraceValueError
from overlapviz.core.trace.columns import COLUMNS
from overlapviz.core.trace.frozen_columns import freeze_columns
from overlapviz.core.trace.meta import TraceMeta

UNKNOWN = -1


class OpKind(IntEnum):
    """What a span is."""

    H2D = 0
    KERNEL = 1
    D2H = 2
    API = 3  # a host API call (cudaMemcpyAsync, cuLaunchKernel, cudaDeviceSynchronize, ...)
    MEMSET = 4
    D2D = 5  # a copy within one GPU's memory
    PEER = 6  # a copy from one GPU's memory to another's
    MIGRATION = 7  # unified memory: the driver moved pages on a fault or a prefetch, no copy the program issued
    ANNOTATION = 8  # a named range on a host thread: NVTX, PyTorch's record_function, ProfilerStep#N
    PREFETCH = 9  # a managed migration the program issued (cudaMemPrefetchAsync), on the copy engine of its direction
    HOST_COPY = 10  # the host thread's memcpy into or out of a pinned staging slot, on the host lane
    COMMUNICATION = 11  # a collective or point-to-point kernel of NCCL or RCCL: moving data between GPUs, not computing

    @property
    def label(self) -> str:
        """Short lower-case name used in exports and the UI."""
        return _KIND_LABELS[self]


_KIND_LABELS = {
    OpKind.H2D: "h2d", OpKind.KERNEL: "kernel", OpKind.D2H: "d2h", OpKind.API: "api", OpKind.MEMSET: "memset",
    OpKind.D2D: "d2d", OpKind.PEER: "peer", OpKind.MIGRATION: "migration", OpKind.ANNOTATION: "annotation",
    OpKind.PREFETCH: "prefetch", OpKind.HOST_COPY: "host-copy", OpKind.COMMUNICATION: "communication",
}  # fmt: skip
# What the GPU ran. Only the first three are the pipeline's stages, which the metrics' busy
# times, bounds and bandwidths are about; the others count as device time, never as H2D/D2H
# (prefetches occupy the copy engines like copies, but are no memcpy stage of the pipeline;
# communication kernels run on the SMs, but move data between GPUs: they are not the compute stage).
DEVICE_KINDS = (
    OpKind.H2D, OpKind.KERNEL, OpKind.D2H, OpKind.MEMSET, OpKind.D2D, OpKind.PEER, OpKind.MIGRATION, OpKind.PREFETCH,
    OpKind.COMMUNICATION,
)  # fmt: skip
HOST_KINDS = (OpKind.API, OpKind.HOST_COPY)  # what a host thread does: API calls, and its own copies


class Unit(IntEnum):
    """The part of the machine that executed a span."""

    HOST = 0
    H2D_ENGINE = 1
    COMPUTE = 2
    D2H_ENGINE = 3
    COPY_ENGINE = 4  # the single engine of a device that copies one direction at a time
    DEVICE_COPY = 5  # copies within and between GPUs: the files do not say which engine ran them
    MEMSET = 6  # the files do not say whether an engine or the SMs set the memory
    MIGRATION = 7  # the driver's page migrations for unified memory
    COMMUNICATION = 8  # NCCL / RCCL kernels: on the SMs, but apart from the compute they would be taken for

    @property
    def title(self) -> str:
        """Lane title, in the active language."""
        return _(_UNIT_TITLES[self])


_UNIT_TITLES = {
    Unit.HOST: N_("Host thread"),
    Unit.H2D_ENGINE: N_("H2D engine"),
    Unit.COMPUTE: N_("Compute"),
    Unit.D2H_ENGINE: N_("D2H engine"),
    Unit.COPY_ENGINE: N_("Copy engine"),
    Unit.DEVICE_COPY: N_("Peer / D2D copies"),
    Unit.MEMSET: N_("Memsets"),
    Unit.MIGRATION: N_("Unified memory"),
    Unit.COMMUNICATION: N_("Communication"),
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




@dataclass(frozen=True, eq=False)
class Trace:
    """Spans of one run plus what produced them.

    `meta` says where and how it was made (`TraceMeta`): the backend, the device, the timing
    source, the config, the version and the device's facts (``copy_engines`` and whatever
    else the backend knows).
    """

    columns: dict[str, npt.NDArray[Any]]
    names: tuple[str, ...]
    meta: TraceMeta

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

    def durations_of(self, rows: npt.NDArray[Any]) -> npt.NDArray[np.int64]:
        """Duration (end - start) of the spans `rows` (indices or a mask), not working out every span's for a few."""
        if rows.dtype == np.bool_:
            if np.count_nonzero(rows) * 2 > len(rows):  # most spans: one subtraction reads less than two gathers
                most: npt.NDArray[np.int64] = (self["end_ns"] - self["start_ns"])[rows]
                return most
            rows = np.flatnonzero(rows)  # a gather by index is faster than one by mask
        duration: npt.NDArray[np.int64] = self["end_ns"][rows] - self["start_ns"][rows]
        return duration

    def mask(self, *kinds: OpKind) -> npt.NDArray[np.bool_]:
        """Rows whose kind is one of `kinds`; read-only.

        Kept once found, per set of kinds: an analysis asks for the same few masks dozens of
        times, each a pass over the whole kind column (about 10 ms at 10^7 spans). The column
        is read-only, so a kept mask never goes stale.
        """
        key = frozenset(int(kind) for kind in kinds)
        found = self._masks.get(key)
        if found is None:
            found = equal_to_any(self["kind"], sorted(key))
            found.flags.writeable = False
            self._masks[key] = found
        return found

    def rows(self, *kinds: OpKind) -> npt.NDArray[np.intp]:
        """The indices of the rows whose kind is one of `kinds`, in order; read-only, kept as `mask`'s are."""
        key = frozenset(int(kind) for kind in kinds)
        found = self._kind_rows.get(key)
        if found is None:
            found = np.flatnonzero(self.mask(*kinds))
            found.flags.writeable = False
            self._kind_rows[key] = found
        return found

    @functools.cached_property
    def _kind_rows(self) -> dict[frozenset[int], npt.NDArray[np.intp]]:
        return {}

    @functools.cached_property
    def _masks(self) -> dict[frozenset[int], npt.NDArray[np.bool_]]:
        return {}

    @property
    def device_mask(self) -> npt.NDArray[np.bool_]:
        """Rows that ran on the device (copies, kernels, memsets, migrations); read-only."""
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
        return int(self.meta.device_facts.get("copy_engines", 2))

    def with_meta(self, **changes: Any) -> Trace:
        """The same spans with metadata entries added or replaced (see `TraceMeta.replace`)."""
        return Trace(dict(self.columns), self.names, self.meta.replace(**changes))


def equal_to_any(column: npt.NDArray[Any], values: Iterable[int]) -> npt.NDArray[np.bool_]:
    """Rows of `column` equal to one of `values` (what `np.isin` answers).

    An analysis asks for a few kinds' rows a hundred times; one comparison per value is
    ten times quicker than `np.isin`, which sorts or tables the whole column each time.
    """
    found = np.zeros(column.shape, dtype=bool)
    for value in values:
        found |= column == int(value)
    return found


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
        device: int = 0,
        thread: int = 0,
    ) -> int:
        """Append one span; returns its row index."""
        if end_ns < start_ns:
            raise ValueError(f"span {name!r} ends ({end_ns}) before it starts ({start_ns})")
        values = {
            "kind": kind, "unit": unit, "stream": stream, "chunk": chunk, "enqueue_ns": enqueue_ns,
            "ready_ns": ready_ns, "start_ns": start_ns, "end_ns": end_ns, "bytes": nbytes, "memory": memory,
            "name": self._names.setdefault(name, len(self._names)), "op": op, "device": device, "thread": thread,
        }  # fmt: skip
        for column, value in values.items():
            self._rows[column].append(int(value))
        return len(self) - 1

    def build(self, meta: TraceMeta, *, origin_ns: int | None = None) -> Trace:
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


def check_spans(trace: Trace) -> None:
    """Rows that point at rows that exist, and times that are known and in order (a file's, on load).

    Raises
    ------
    TraceValueError
        A row breaks one of these; the message names it.
    """
    n = len(trace)
    for name in ("enqueue_ns", "ready_ns", "start_ns", "end_ns"):
        bad = np.flatnonzero(trace[name] < UNKNOWN)
        if bad.size:
            raise TraceValueError(_negative(int(bad[0]), name, int(trace[name][bad[0]])))
    for name in ("start_ns", "end_ns"):
        bad = np.flatnonzero(trace[name] == UNKNOWN)
        if bad.size:
            message = _("row {row}: {name} is unknown; every span needs its start and end")
            raise TraceValueError(message.format(row=bad[0], name=name))
    op = trace["op"]
    bad = np.flatnonzero((op < UNKNOWN) | (op >= n))
    if bad.size:
        message = _("row {row}: op {op} is not a row of this trace (0 to {last})")
        raise TraceValueError(message.format(row=bad[0], op=op[bad[0]], last=n - 1))
    bad = np.flatnonzero(trace["bytes"] < 0)
    if bad.size:
        raise TraceValueError(_negative(int(bad[0]), "bytes", int(trace["bytes"][bad[0]])))


def _negative(row: int, name: str, value: int) -> str:
    return _("row {row}: {name} is negative ({value})").format(row=row, name=name, value=value)

"""From what a profiler recorded (`Activities`) to the trace the metrics, findings and lanes read.

What is shown, and how:
- Copies, memsets and kernels become device ops. Their streams are numbered 0, 1, ... in
  the order they first appear; a stream is one process's on one GPU (the same id in two
  processes, or on two GPUs, is two streams). H2D and D2H copies go to the H2D or D2H engine; copies within
  a GPU (D2D) and between GPUs (peer) are kinds of their own, on the peer / D2D lane; memsets
  have their own kind and lane; unified-memory migrations too, on no stream (the driver moved
  the pages: the program issued no copy). A copy's host memory is the one its tool named
  (pinned, pageable). The streams a file names as the legacy default stream are listed in
  ``meta["legacy_streams"]``.
- NCCL and RCCL kernels are communication, a kind and lane of their own
  (`overlapviz.importers.communication` says which).
- Host API calls become host spans; a call that issued a device op (the same correlation id,
  in the same process) points at it, so the time the host sat blocked in it is measured as for overlapviz's own
  runs. A synchronisation call points at nothing.
- Each span keeps its GPU (``device``: the tool's device index; a device op of a file that
  names none ran on GPU 0) and its host thread (``thread``: the tool's thread id). A device op
  has the thread of the call that issued it, a call the device of the op it issued; -1 where
  there is none.
- An op is *enqueued* when its issuing call starts, and *ready* at the latest of three moments:
  when the call handed it over (the call's end, or the op's own start for a call that returns
  only after its op ran, such as a pageable copy), the end of the previous op on its stream,
  and the end of the work of another stream that a recorded wait held it for
  (`overlapviz.importers.waits`; a wait the file does not resolve makes it ready only when it
  started).
- Annotation ranges on a host thread (NVTX, ``record_function``, ``ProfilerStep#N``) become
  spans of their own kind, on their thread. Host-to-host copies, copies of an unknown kind and
  Kineto's second copy of each range (as the GPU ran it) are not shown: `TraceMeta.not_shown`
  counts them, and the summary says so.

Times are shifted so that the first record starts at 0. The trace's metadata names the tool,
its version, the GPU and the source file.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from overlapviz.core.i18n import _
from overlapviz.core.trace.meta import TraceMeta
from overlapviz.core.trace.spans import UNKNOWN, MemoryKind, OpKind, Trace, Unit
from overlapviz.importers.activity import NULL_STREAMS_META, Activities, ActivityKind, CopyKind, HostMemory
from overlapviz.importers.communication import communication_rows, named_collectives
from overlapviz.importers.keys import correlation_keys, groups
from overlapviz.importers.waits import awaited_ns

_COPY_OPS = {
    int(CopyKind.H2D): OpKind.H2D, int(CopyKind.D2H): OpKind.D2H, int(CopyKind.D2D): OpKind.D2D,
    int(CopyKind.PEER): OpKind.PEER, int(CopyKind.UVM_H2D): OpKind.MIGRATION, int(CopyKind.UVM_D2H): OpKind.MIGRATION,
    int(CopyKind.UVM_D2D): OpKind.MIGRATION,
}  # fmt: skip
_UNITS = {
    OpKind.H2D: Unit.H2D_ENGINE, OpKind.D2H: Unit.D2H_ENGINE, OpKind.D2D: Unit.DEVICE_COPY,
    OpKind.PEER: Unit.DEVICE_COPY, OpKind.MEMSET: Unit.MEMSET, OpKind.MIGRATION: Unit.MIGRATION,
    OpKind.COMMUNICATION: Unit.COMMUNICATION,
}  # fmt: skip
_HOST_MEMORY = {int(HostMemory.PAGEABLE): MemoryKind.PAGEABLE, int(HostMemory.PINNED): MemoryKind.PINNED}
_NOT_SHOWN_COPIES = {CopyKind.H2H: "host-to-host copies", CopyKind.UNKNOWN: "copies of an unknown kind"}


class EmptyTraceError(ValueError):
    """The profile holds no copy or kernel to show; the message says what it does hold."""


def activities_to_trace(activities: Activities) -> Trace:
    """The trace of `activities` (see the module docstring for what is shown and how).

    Raises
    ------
    EmptyTraceError
        There is no copy between host and device, no copy within or between GPUs, no memset
        and no kernel in it.
    """
    a = named_collectives(activities)
    device_rows = _device_rows(a)
    if device_rows.size == 0:
        source = a.meta["source"] if "source" in a.meta else _("the file")
        raise EmptyTraceError(_("{file}: no copy, memset or kernel to show").format(file=source))
    api_rows = np.flatnonzero(a.mask(ActivityKind.RUNTIME, ActivityKind.DRIVER))
    range_rows = np.flatnonzero(a.mask(ActivityKind.ANNOTATION) & (a["on_device"] == 0))
    order = device_rows[np.argsort(a["start_ns"][device_rows], kind="stable")]
    op_kind = _op_kinds(a, order)
    streams = _streams_of(a, order, op_kind)
    columns = _columns(a, order, op_kind, streams, api_rows, range_rows)
    origin = _count_from_first_record(columns)
    return Trace(columns, a.names, _meta(a, order, streams, origin))


def _streams_of(a: Activities, order: npt.NDArray[np.intp], op_kind: npt.NDArray[np.int8]) -> npt.NDArray[np.int64]:
    """The stream index of each device op (`order`); -1 for a migration."""
    # A migration is on no stream: the driver moved the pages, whatever the program had queued.
    on_stream = op_kind != OpKind.MIGRATION
    streams = np.full(order.size, UNKNOWN, dtype=np.int64)
    streams[on_stream] = _stream_indices(a, order[on_stream])
    return streams


def _columns(
    a: Activities,
    order: npt.NDArray[np.intp],
    op_kind: npt.NDArray[np.int8],
    streams: npt.NDArray[np.int64],
    api_rows: npt.NDArray[np.intp],
    range_rows: npt.NDArray[np.intp],
) -> dict[str, npt.NDArray[Any]]:
    """The trace's columns: the device ops (`order`), then the API calls, then the ranges."""
    issued_by = _issuing_calls(a, order, api_rows)
    enqueue = np.where(issued_by >= 0, a["start_ns"][np.maximum(issued_by, 0)], UNKNOWN)
    handed_over = np.where(issued_by >= 0, np.minimum(a["end_ns"][np.maximum(issued_by, 0)], a["start_ns"][order]),
                           UNKNOWN)  # fmt: skip
    ready = _ready(a["start_ns"][order], a["end_ns"][order], streams, handed_over,
                   awaited_ns(a, order, streams, enqueue))  # fmt: skip
    op_of_call = _ops_of_calls(len(a), issued_by, api_rows)
    op_device = np.maximum(a["device"][order], 0)
    call_device = np.where(op_of_call >= 0, op_device[np.maximum(op_of_call, 0)], UNKNOWN)
    op_thread = np.where(issued_by >= 0, a["thread"][np.maximum(issued_by, 0)], UNKNOWN)
    host = np.concatenate([api_rows, range_rows])
    n_dev, n_host = order.size, host.size
    return {
        "kind": np.concatenate([op_kind, np.full(api_rows.size, OpKind.API),
                                np.full(range_rows.size, OpKind.ANNOTATION)]),
        "unit": np.concatenate([_units(op_kind), np.full(n_host, Unit.HOST)]),
        "stream": np.concatenate([streams, np.full(n_host, UNKNOWN)]),
        "chunk": np.full(n_dev + n_host, UNKNOWN),
        "enqueue_ns": np.concatenate([enqueue, np.full(n_host, UNKNOWN)]),
        "ready_ns": np.concatenate([ready, np.full(n_host, UNKNOWN)]),
        "start_ns": np.concatenate([a["start_ns"][order], a["start_ns"][host]]),
        "end_ns": np.concatenate([a["end_ns"][order], a["end_ns"][host]]),
        "bytes": np.concatenate([a["bytes"][order], np.zeros(n_host, dtype=np.int64)]),
        "memory": np.concatenate([_memory(a, order), np.full(n_host, MemoryKind.NONE)]),
        "name": np.concatenate([a["name"][order], a["name"][host]]),
        "op": np.concatenate([np.full(n_dev, UNKNOWN), op_of_call, np.full(range_rows.size, UNKNOWN)]),
        "device": np.concatenate([op_device, call_device, np.full(range_rows.size, UNKNOWN)]),
        "thread": np.concatenate([op_thread, a["thread"][host]]),
    }  # fmt: skip


def _count_from_first_record(columns: dict[str, npt.NDArray[Any]]) -> int:
    """Shift the known times so that the first record starts at 0; the file's time of that record."""
    origin = int(columns["start_ns"].min())  # device ops, calls and ranges alike
    for name in ("enqueue_ns", "ready_ns", "start_ns", "end_ns"):
        known = columns[name] != UNKNOWN
        columns[name][known] -= origin
    return origin


def _device_rows(a: Activities) -> npt.NDArray[np.intp]:
    kernels = a.mask(ActivityKind.KERNEL, ActivityKind.MEMSET)
    copies = a.mask(ActivityKind.MEMCPY) & np.isin(a["copy_kind"], list(_COPY_OPS))
    return np.flatnonzero(kernels | copies)


def _op_kinds(a: Activities, rows: npt.NDArray[np.intp]) -> npt.NDArray[np.int8]:
    kinds = np.where(communication_rows(a, rows), OpKind.COMMUNICATION, OpKind.KERNEL).astype(np.int8)
    kinds[a["kind"][rows] == ActivityKind.MEMSET] = OpKind.MEMSET
    for copy_kind, op in _COPY_OPS.items():
        kinds[(a["kind"][rows] == ActivityKind.MEMCPY) & (a["copy_kind"][rows] == copy_kind)] = op
    return kinds


def _units(kinds: npt.NDArray[np.int8]) -> npt.NDArray[np.int8]:
    units = np.full(kinds.size, Unit.COMPUTE, dtype=np.int8)
    for kind, unit in _UNITS.items():
        units[kinds == kind] = unit
    return units


def _stream_indices(a: Activities, ops: npt.NDArray[np.intp]) -> npt.NDArray[np.int64]:
    """The streams of `ops` as 0, 1, ... in the order they first appear.

    A stream is its process's, its GPU's and its id together: two processes, or two GPUs,
    each have a stream 7 of their own.
    """
    numbers, first = groups(a["process"][ops], a["device"][ops], a["stream"][ops])
    rank = np.empty(first.size, dtype=np.int64)
    rank[np.argsort(first, kind="stable")] = np.arange(first.size)
    indices: npt.NDArray[np.int64] = rank[numbers]
    return indices


def _issuing_calls(a: Activities, ops: npt.NDArray[np.intp], calls: npt.NDArray[np.intp]) -> npt.NDArray[np.int64]:
    """For each op, the row (in `a`) of the API call of its process with its correlation id; -1 for none."""
    issued = np.full(ops.size, UNKNOWN, dtype=np.int64)
    keys = correlation_keys(a, np.concatenate([ops, calls]))
    op_ids, call_ids = keys[: ops.size], keys[ops.size :]
    known = call_ids >= 0
    if not known.any():
        return issued
    by_id = np.argsort(call_ids[known], kind="stable")
    sorted_ids, sorted_calls = call_ids[known][by_id], calls[known][by_id]
    at = np.clip(np.searchsorted(sorted_ids, op_ids), 0, sorted_ids.size - 1)
    found = (op_ids >= 0) & (sorted_ids[at] == op_ids)
    issued[found] = sorted_calls[at[found]]
    return issued


def _ops_of_calls(rows: int, issued: npt.NDArray[np.int64], calls: npt.NDArray[np.intp]) -> npt.NDArray[np.int64]:
    """For each call, the trace row of the op it issued (ops are rows 0..n-1 of the trace); -1 for none.

    `issued` is each op's issuing call (`_issuing_calls`), among `rows` activities.
    """
    op_of_call = np.full(calls.size, UNKNOWN, dtype=np.int64)
    position = np.full(rows, UNKNOWN, dtype=np.int64)
    position[calls] = np.arange(calls.size)
    found = np.flatnonzero(issued >= 0)
    op_of_call[position[issued[found]]] = found
    return op_of_call


def _ready(
    start: npt.NDArray[np.int64],
    end: npt.NDArray[np.int64],
    streams: npt.NDArray[np.int64],
    enqueue: npt.NDArray[np.int64],
    awaited: npt.NDArray[np.int64],
) -> npt.NDArray[np.int64]:
    """When each op was ready (ops sorted by start): never after its start.

    The latest of its hand-over, the end of the op before it on its stream and the end of the
    work a recorded wait held it for (`waits.awaited_ns`).
    """
    previous_end = np.full(start.size, UNKNOWN, dtype=np.int64)
    for stream in np.unique(streams[streams >= 0]):
        rows = np.flatnonzero(streams == stream)
        previous_end[rows[1:]] = np.maximum.accumulate(end[rows])[:-1]
    ready = np.maximum(np.maximum(enqueue, previous_end), awaited)
    ready[(enqueue == UNKNOWN) & (previous_end == UNKNOWN) & (awaited == UNKNOWN)] = UNKNOWN
    return np.minimum(ready, start, where=ready != UNKNOWN, out=ready)


def _memory(a: Activities, rows: npt.NDArray[np.intp]) -> npt.NDArray[np.int8]:
    """The host side of each copy: the source of an H2D copy, the destination of a D2H one."""
    memory = np.full(rows.size, MemoryKind.NONE, dtype=np.int8)
    host_side = np.where(a["copy_kind"][rows] == CopyKind.H2D, a["src_memory"][rows], a["dst_memory"][rows])
    copies = a["kind"][rows] == ActivityKind.MEMCPY
    for tool_kind, kind in _HOST_MEMORY.items():
        memory[copies & (host_side == tool_kind)] = kind
    return memory


def _meta(a: Activities, ops: npt.NDArray[np.intp], streams: npt.NDArray[np.int64], origin: int) -> TraceMeta:
    given = a.meta.get("devices")
    devices: dict[Any, Any] = given if isinstance(given, dict) else {}
    used = [int(d) for d in np.unique(a["device"][ops]) if d >= 0]  # sorted
    name = " + ".join(str(devices.get(d, devices.get(str(d), f"GPU {d}"))) for d in used) or "GPU"
    return TraceMeta(
        backend="file",
        device=",".join(f"cuda:{d}" for d in used),
        device_name=name,
        timing=str(a.meta.get("tool", "a profiler")),
        simulated=False,
        source=a.meta.get("source"),
        tool=a.meta.get("tool"),
        tool_version=a.meta.get("tool_version"),
        recorded=a.meta.get("recorded"),
        # The files do not say; every GPU since Fermi copies each direction on its own engine.
        device_facts={"copy_engines": 2},
        not_shown=_not_shown(a),
        legacy_streams=tuple(_legacy_streams(a, ops, streams)),
        process=a.meta.get("process"),
        # the file's clock at time 0 and the job's rank, which put the ranks of a job on one axis
        extra={"time_origin_ns": origin, **{key: a.meta[key] for key in ("rank", "world_size") if key in a.meta}},
    )


def _legacy_streams(a: Activities, ops: npt.NDArray[np.intp], streams: npt.NDArray[np.int64]) -> list[int]:
    """The stream indices of the streams the file names as the legacy default (NULL) stream."""
    named = a.meta.get(NULL_STREAMS_META)
    if not isinstance(named, list) or not named:
        return []
    legacy = np.isin(a["stream"][ops], np.asarray(named, dtype=np.int64)) & (streams >= 0)
    return sorted({int(s) for s in streams[legacy]})


def _not_shown(a: Activities) -> dict[str, int]:
    counts: dict[str, int] = {}
    copies = a.mask(ActivityKind.MEMCPY)
    for kind, words in _NOT_SHOWN_COPIES.items():
        count = int((copies & (a["copy_kind"] == kind)).sum())
        if count:
            counts[words] = counts.get(words, 0) + count
    # Kineto writes each record_function range twice: on the host thread, and as the GPU ran it
    annotations = int((a.mask(ActivityKind.ANNOTATION) & (a["on_device"] == 1)).sum())
    if annotations:
        counts["annotation ranges as the GPU ran them"] = annotations
    return counts

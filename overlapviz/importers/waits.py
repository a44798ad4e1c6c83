"""Waits the program asked for: a stream held until work given to another stream is done.

``cudaStreamWaitEvent`` (``cuStreamWaitEvent``, ``hipStreamWaitEvent``; what PyTorch's
``Stream.wait_stream`` and ``wait_event`` and NCCL's own stream joins call) holds every op issued
to one stream after it until an event recorded on another stream has been reached: the end of
the ops issued to that stream before the record. A trace tells such a wait by the call's name;
which streams it joins, where the tool recorded them:

- Nsight Systems: the synchronisation record of the call (its correlation id) names the waiting
  stream;
- PyTorch profiler with CUDA sync events: the call's ``cuda_sync`` "Stream Wait Event" names the
  waiting stream and, where Kineto resolved them, the stream waited on and the correlation id of
  the event record, whose call's start says which ops of that stream the event covers.

An op the wait holds (the first issued to the waiting stream after the wait) is not ready
before the awaited work ended. Where the tool does not say which stream waited, the first op
issued after the wait to each stream of that process may be the one held; where it does not
say what was awaited, the op may have waited for anything: it counts as ready only when it
started (`UNRESOLVED`), so that no finding blames the GPU for a wait the program asked for.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from overlapviz.importers.activity import UNKNOWN, Activities, ActivityKind
from overlapviz.importers.keys import correlation_keys

UNRESOLVED = int(np.iinfo(np.int64).max)  # held until an unknown moment: ready only when it started
_WAIT_CALL = re.compile(r"(cuda|cu|hip)StreamWaitEvent")
_NO_STREAM = 0xFFFFFFFF  # how Nsight writes a synchronisation of no stream
_Ints = npt.NDArray[np.int64]


@dataclass(frozen=True)
class _Lanes:
    """The device ops of each stream in issue order, and how far each stream had got."""

    index: dict[tuple[int, int, int], int]  # (process, device, stream id) -> stream number
    process: _Ints  # of each stream number
    rows: list[npt.NDArray[np.intp]]  # per stream: positions of its ops among the ops, by start
    issued: list[_Ints]  # per stream: when each op was issued (its call's start, else its own), never decreasing
    ended: list[_Ints]  # per stream: the end of the op and of every op before it


def awaited_ns(a: Activities, ops: npt.NDArray[np.intp], streams: _Ints, enqueue: _Ints) -> _Ints:
    """Per op: the earliest a recorded wait let it start.

    Parameters
    ----------
    a
        The activities.
    ops
        The rows (in `a`) of the device ops, sorted by start.
    streams
        Each op's stream number (-1 for none).
    enqueue
        When each op's call began (-1 where none issued it).

    Returns
    -------
    numpy.ndarray
        The end of the awaited work; `UNRESOLVED` where the wait cannot be resolved; -1 where
        no wait holds the op.
    """
    awaited = np.full(ops.size, UNKNOWN, dtype=np.int64)
    waits = _wait_calls(a)
    if waits.size == 0:
        return awaited
    lanes = _lanes(a, ops, streams, enqueue)
    records = _records(a, waits)
    for wait, record in zip(waits.tolist(), _sync_records(a, waits).tolist(), strict=True):
        until = _awaited_end(a, lanes, records, record)
        for lane in _waiting_lanes(a, lanes, wait, record):
            _hold_first_after(awaited, lanes, lane, int(a["start_ns"][wait]), until)
    return awaited


def _wait_calls(a: Activities) -> npt.NDArray[np.intp]:
    is_wait = np.array([_WAIT_CALL.match(name) is not None for name in a.names] or [False])
    calls = a.mask(ActivityKind.RUNTIME, ActivityKind.DRIVER)
    return np.flatnonzero(calls & is_wait[a["name"]])


def _sync_records(a: Activities, waits: npt.NDArray[np.intp]) -> _Ints:
    """Per wait call, the row of the synchronisation record of its process and correlation id; -1 for none."""
    syncs = np.flatnonzero(a.mask(ActivityKind.SYNC))
    keys = correlation_keys(a, np.concatenate([waits, syncs]))
    of_sync = dict(zip(keys[waits.size :].tolist(), syncs.tolist(), strict=True))
    of_sync.pop(UNKNOWN, None)
    return np.array([of_sync.get(key, UNKNOWN) for key in keys[: waits.size].tolist()], dtype=np.int64)


def _records(a: Activities, waits: npt.NDArray[np.intp]) -> dict[tuple[int, int], int]:
    """The start of each call that an event record waited for names: (process, correlation id) -> start."""
    wanted = np.unique(a["wait_record"][a["wait_record"] >= 0])
    calls = np.flatnonzero(a.mask(ActivityKind.RUNTIME, ActivityKind.DRIVER) & np.isin(a["correlation"], wanted))
    keys = zip(a["process"][calls].tolist(), a["correlation"][calls].tolist(), strict=True)
    return dict(zip(keys, a["start_ns"][calls].tolist(), strict=True))


def _lanes(a: Activities, ops: npt.NDArray[np.intp], streams: _Ints, enqueue: _Ints) -> _Lanes:
    on_stream = np.flatnonzero(streams >= 0)
    by_stream = on_stream[np.argsort(streams[on_stream], kind="stable")]  # each stream's ops stay by start
    cuts = np.flatnonzero(np.diff(streams[by_stream])) + 1
    rows = np.split(by_stream, cuts) if by_stream.size else []
    issued_at = np.where(enqueue >= 0, enqueue, a["start_ns"][ops])
    keys = [(int(a["process"][ops[r[0]]]), int(a["device"][ops[r[0]]]), int(a["stream"][ops[r[0]]])) for r in rows]
    return _Lanes(
        index={key: number for number, key in enumerate(keys)},
        process=np.array([key[0] for key in keys], dtype=np.int64),
        rows=rows,
        issued=[np.maximum.accumulate(issued_at[r]) for r in rows],
        ended=[np.maximum.accumulate(a["end_ns"][ops[r]]) for r in rows],
    )


def _waiting_lanes(a: Activities, lanes: _Lanes, wait: int, record: int) -> list[int]:
    """The streams the wait may hold: the one its record names, else every stream of its process."""
    process = int(a["process"][wait])
    stream = int(a["stream"][record]) if record >= 0 else UNKNOWN
    if stream < 0 or stream == _NO_STREAM:
        return np.flatnonzero(lanes.process == process).tolist()
    lane = lanes.index.get((process, int(a["device"][record]), stream))
    return [] if lane is None else [lane]


def _awaited_end(a: Activities, lanes: _Lanes, records: dict[tuple[int, int], int], record: int) -> int:
    """When the work the wait is for ended; `UNRESOLVED` where the trace does not say; -1 for no work."""
    if record < 0 or a["wait_stream"][record] < 0 or a["wait_record"][record] < 0:
        return UNRESOLVED
    process = int(a["process"][record])
    recorded = records.get((process, int(a["wait_record"][record])))
    if recorded is None:
        return UNRESOLVED
    lane = lanes.index.get((process, int(a["device"][record]), int(a["wait_stream"][record])))
    if lane is None:
        return UNKNOWN  # nothing ever ran on that stream: nothing to wait for
    before = int(np.searchsorted(lanes.issued[lane], recorded, side="right")) - 1
    return int(lanes.ended[lane][before]) if before >= 0 else UNKNOWN


def _hold_first_after(awaited: _Ints, lanes: _Lanes, lane: int, issued: int, until: int) -> None:
    """Hold the first op issued to the stream after `issued` until `until`."""
    first = int(np.searchsorted(lanes.issued[lane], issued, side="right"))
    if until != UNKNOWN and first < lanes.rows[lane].size:
        op = lanes.rows[lane][first]
        awaited[op] = max(int(awaited[op]), until)

"""Nsight Systems SQLite exports (``nsys export --type sqlite``), read into `Activities`.

The export is one SQLite database. These tables become rows, in this order:

- ``CUPTI_ACTIVITY_KIND_MEMCPY``: copies (``copyKind``, ``srcKind``, ``dstKind``, ``bytes``);
  unified-memory migrations (copy kinds ``UVM_*``) stay `CopyKind.UVM_H2D` and its kin: the
  driver moved pages, the program issued no copy;
- ``CUPTI_ACTIVITY_KIND_MEMSET``: memsets (``memKind`` as the destination memory);
- ``CUPTI_ACTIVITY_KIND_KERNEL``: kernels, named by ``demangledName`` (else ``shortName``);
- ``CUPTI_ACTIVITY_KIND_RUNTIME``: CUDA API calls, runtime or driver by ``eventClass``, named
  by ``nameId`` as the file spells them (``cudaMemcpyAsync_v3020``);
- ``CUPTI_ACTIVITY_KIND_SYNCHRONIZATION``: synchronisations, named by ``syncType``; one of a
  stream whose ``eventSyncId`` is that of an event record in ``CUPTI_ACTIVITY_KIND_CUDA_EVENT``
  has that record's stream and call as what it waited for (``wait_stream``, ``wait_record``);
- ``NVTX_EVENTS``: NVTX ranges (push/pop and start/end, with inline ``text`` or a
  ``textId``), not marks, nor ranges the program never closed.

Names are ids into ``StringIds``. Coded columns mean what the file's ENUM_* tables say, and
in older exports without them what `nsys_enums` lists. ``globalTid`` holds the OS thread id
in its low 24 bits, which is the ``thread``; a ``correlationId`` of 0 links nothing (CUPTI
counts from 1), as for migrations. Times are the export's integer nanoseconds, unchanged.

The database is read as hostile (`untrusted_sqlite`): a damaged file, a missing table or
column, a value of the wrong type, a NULL where a number must be, or more records than the
limit (`DEFAULT_MAX_RECORDS`, ``OVERLAPVIZ_MAX_NSYS_RECORDS``) is one `NsysFormatError`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from overlapviz.core.analysis.migrations import migration_name
from overlapviz.core.files.trace_format import file_reason
from overlapviz.core.i18n import _
from overlapviz.importers import nsys_enums as enums
from overlapviz.importers.activity import ACTIVITY_COLUMNS, UNKNOWN, Activities, ActivityKind, CopyKind, empty_columns
from overlapviz.importers.nsys_facts import FACT_TABLES, export_meta
from overlapviz.importers.untrusted_sqlite import SQLITE_MAGIC, Column, DatabaseProblem, UntrustedDatabase

MAX_RECORDS_ENV = "OVERLAPVIZ_MAX_NSYS_RECORDS"
DEFAULT_MAX_RECORDS = 20_000_000
MEMCPY = "CUPTI_ACTIVITY_KIND_MEMCPY"
MEMSET = "CUPTI_ACTIVITY_KIND_MEMSET"
KERNEL = "CUPTI_ACTIVITY_KIND_KERNEL"
RUNTIME = "CUPTI_ACTIVITY_KIND_RUNTIME"
SYNC = "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"
NVTX = "NVTX_EVENTS"
CUDA_EVENT = "CUPTI_ACTIVITY_KIND_CUDA_EVENT"  # event records: which stream, which call
CUDA_TABLES = (MEMCPY, MEMSET, KERNEL, RUNTIME, SYNC)
STRINGS = "StringIds"
_ENUMS = (enums.MEMCPY_OPER, enums.MEM_KIND, enums.EVENT_CLASS, enums.SYNC_TYPE, enums.EVENT_TYPE, enums.STREAM_TYPE)
_THREAD_BITS = 0xFFFFFF  # the OS thread id's part of a globalTid (or globalPid); the process id is the next 24 bits
_PROCESS_SHIFT = 24
_NO_ID = 0xFFFFFFFF  # how an export writes "none" in an id column (streamId, eventSyncId)
_MAX_DEVICE = int(np.iinfo(ACTIVITY_COLUMNS["device"]).max)

_Part = dict[str, npt.NDArray[Any]]


class NsysFormatError(ValueError):
    """A file is not an Nsight Systems export that can be read; one line naming the file and why."""


def looks_like_nsys(raw: bytes) -> bool:
    """Whether the bytes are an SQLite database with the CUPTI activity tables of an Nsight export.

    Parameters
    ----------
    raw
        The whole file, decompressed.

    Returns
    -------
    bool
        True for an SQLite database holding at least one ``CUPTI_ACTIVITY_KIND_*`` table that
        `read_nsys` reads; False for anything else, a damaged database included.
    """
    if not raw.startswith(SQLITE_MAGIC):
        return False
    try:
        with UntrustedDatabase(raw) as database:
            return not database.tables.isdisjoint(CUDA_TABLES)
    except DatabaseProblem:
        return False


def read_nsys(raw: bytes, source: str, *, max_records: int | None = None) -> Activities:
    """Read an Nsight Systems SQLite export's bytes into activities.

    Parameters
    ----------
    raw
        The whole file, decompressed (as `overlapviz.core.files.safe_read.read_input_bytes` gives it).
    source
        The file's name, for messages and ``meta["source"]``.
    max_records
        The most rows to read from all tables together; None for ``OVERLAPVIZ_MAX_NSYS_RECORDS``,
        else `DEFAULT_MAX_RECORDS`.

    Returns
    -------
    Activities
        One row per copy, memset, kernel, API call, synchronisation and NVTX range; ``meta``
        holds ``tool``, ``source`` and, where the file says them, ``tool_version``,
        ``schema_version``, ``devices`` (CUDA device -> name) and ``recorded`` (UTC date).

    Raises
    ------
    NsysFormatError
        The bytes are not an SQLite database, or not an export with CUDA activity, or the
        database is damaged, lacks a table or column it needs, holds a value of the wrong type
        or range, or more records than the limit.
    """
    limit = _record_limit(source, max_records)
    try:
        with UntrustedDatabase(raw) as database:
            return _Export(database, limit).activities(source)
    except DatabaseProblem as problem:
        raise _error(source, str(problem)) from None


class _Export:
    """One export's tables, read column by column."""

    def __init__(self, database: UntrustedDatabase, limit: int) -> None:
        if database.tables.isdisjoint(CUDA_TABLES):
            message = _(
                "an SQLite database, but not an Nsight Systems export of CUDA activity: it has none of {tables}"
            )
            raise DatabaseProblem(message.format(tables=", ".join(CUDA_TABLES)))
        self.db = database
        read = (*CUDA_TABLES, NVTX, CUDA_EVENT, STRINGS, *FACT_TABLES, *(enum.table for enum in _ENUMS))
        records = sum(database.count(table) for table in read if table in database.tables)
        if records > limit:
            message = _("it holds {records} records, more than the limit of {limit} (set {variable} to change it)")
            raise DatabaseProblem(message.format(records=records, limit=limit, variable=MAX_RECORDS_ENV))
        self.names = _Names()
        self._meanings = {enum.table: enums.meanings(database, enum) for enum in _ENUMS}

    def activities(self, source: str) -> Activities:
        readers: dict[str, Callable[[], _Part]] = {
            MEMCPY: self._copies, MEMSET: self._memsets, KERNEL: self._kernels,
            RUNTIME: self._calls, SYNC: self._syncs, NVTX: self._ranges,
        }  # fmt: skip
        parts = [read() for table, read in readers.items() if table in self.db.tables]
        columns = empty_columns(sum(len(part["kind"]) for part in parts))
        at = 0
        for part in parts:
            rows = slice(at, at + len(part["kind"]))
            for name, values in part.items():
                columns[name][rows] = values
            at = rows.stop
        return Activities(columns, self.names.texts, export_meta(self.db, source))

    def _copies(self) -> _Part:
        start, end, device, stream, correlation, process, size, kind, src, dst = self._read(
            MEMCPY,
            [*_DEVICE_RECORD, _int("bytes"), _int("copyKind"), _optional("srcKind"), _optional("dstKind")],
        )  # fmt: skip
        _check_sizes(MEMCPY, size)
        kind_of, kinds = enums.translate(kind, self._meanings[enums.MEMCPY_OPER.table], enums.copy_kind)
        src_of, sources = enums.translate(src, self._meanings[enums.MEM_KIND.table], enums.memory)
        dst_of, targets = enums.translate(dst, self._meanings[enums.MEM_KIND.table], enums.memory)
        combos, name_of = np.unique(np.stack([kind_of, src_of, dst_of], axis=1), axis=0, return_inverse=True)
        labels = [_copy_label(kinds[k], sources[s], targets[d]) for k, s, d in combos]
        return {
            **_device_times(MEMCPY, ActivityKind.MEMCPY, start, end, device, stream, correlation),
            "process": _os_process(process),
            "bytes": size,
            "copy_kind": _firsts(kinds)[kind_of],
            "src_memory": _firsts(sources)[src_of],
            "dst_memory": _firsts(targets)[dst_of],
            "name": self.names.each(labels)[name_of.reshape(-1)],
        }

    def _memsets(self) -> _Part:
        start, end, device, stream, correlation, process, size, memory = self._read(
            MEMSET, [*_DEVICE_RECORD, _int("bytes"), _optional("memKind")]
        )
        _check_sizes(MEMSET, size)
        memory_of, memories = enums.translate(memory, self._meanings[enums.MEM_KIND.table], enums.memory)
        labels = [f"Memset ({word})" for _value, word in memories]
        return {
            **_device_times(MEMSET, ActivityKind.MEMSET, start, end, device, stream, correlation),
            "process": _os_process(process),
            "bytes": size,
            "dst_memory": _firsts(memories)[memory_of],
            "name": self.names.each(labels)[memory_of],
        }

    def _kernels(self) -> _Part:
        start, end, device, stream, correlation, process, demangled, short = self._read(
            KERNEL, [*_DEVICE_RECORD, _optional("demangledName"), _optional("shortName")]
        )
        has_demangled = demangled != UNKNOWN
        named = np.where(has_demangled, demangled, short)
        source = "demangledName" if has_demangled.all() else "demangledName or shortName"
        return {
            **_device_times(KERNEL, ActivityKind.KERNEL, start, end, device, stream, correlation),
            "process": _os_process(process),
            "name": self._strings(named, f"{KERNEL}.{source}"),
        }

    def _calls(self) -> _Part:
        start, end, thread, correlation, name, event_class = self._read(
            RUNTIME,
            [_int("start"), _int("end"), _optional("globalTid"), _optional("correlationId"), _optional("nameId"),
             _optional("eventClass")],
        )  # fmt: skip
        class_of, drivers = enums.translate(
            event_class, self._meanings[enums.EVENT_CLASS.table], lambda name: name == enums.DRIVER_CLASS
        )
        kind = np.where(np.array(drivers, dtype=bool)[class_of], ActivityKind.DRIVER, ActivityKind.RUNTIME)
        return {
            **_times(RUNTIME, start, end),
            "kind": kind,
            "thread": _os_thread(thread),
            "process": _os_process(thread),
            "correlation": _correlation(correlation),
            "name": self._strings(name, f"{RUNTIME}.nameId"),
        }

    def _syncs(self) -> _Part:
        start, end, device, stream, correlation, process, sync_type, event_sync = self._read(
            SYNC,
            [_int("start"), _int("end"), _optional("deviceId"), _optional("streamId"), _optional("correlationId"),
             _optional("globalPid"), _optional("syncType"), _optional("eventSyncId")],
        )  # fmt: skip
        type_of, words = enums.translate(sync_type, self._meanings[enums.SYNC_TYPE.table], enums.sync_words)
        waits_on = np.where((stream >= 0) & (stream != _NO_ID), event_sync, UNKNOWN)  # a stream's wait, not a host's
        return {
            **_device_times(SYNC, ActivityKind.SYNC, start, end, device, stream, correlation),
            **self._awaited_records(waits_on),
            "process": _os_process(process),
            "name": self.names.each(words)[type_of],
        }

    def _awaited_records(self, event_sync: npt.NDArray[np.int64]) -> _Part:
        """The stream and the record call (correlation id) of the event each synchronisation waited for.

        The export links the two by ``eventSyncId`` (Nsight Systems 2025 writes it); -1 where it does not.
        """
        stream, record = np.full(event_sync.size, UNKNOWN), np.full(event_sync.size, UNKNOWN)
        if CUDA_EVENT not in self.db.tables:
            return {"wait_stream": stream, "wait_record": record}
        ids, streams, calls = self._read(CUDA_EVENT, [_optional("eventSyncId"), _int("streamId"),
                                                      _optional("correlationId")])  # fmt: skip
        usable = np.flatnonzero((ids >= 0) & (ids != _NO_ID))
        usable = usable[np.argsort(ids[usable], kind="stable")]
        if usable.size:
            at = usable[np.clip(np.searchsorted(ids[usable], event_sync), 0, usable.size - 1)]
            found = (event_sync >= 0) & (event_sync != _NO_ID) & (ids[at] == event_sync)
            stream[found], record[found] = streams[at[found]], _correlation(calls[at[found]])
        return {"wait_stream": stream, "wait_record": record}

    def _ranges(self) -> _Part:
        types = self._meanings[enums.EVENT_TYPE.table]
        codes = sorted(code for code, name in types.items() if enums.is_range_type(name))
        self.db.check(NVTX, [_int("eventType")])
        where = f'"eventType" IN ({", ".join("?" * len(codes)) or "NULL"}) AND "end" IS NOT NULL'
        start, end, thread, text_id = self._read(
            NVTX, [_int("start"), _int("end"), _optional("globalTid"), _optional("textId")], where, codes
        )
        inline = self.db.texts(NVTX, Column("text", "text", required=False, default=None), where, codes)
        by_id = np.array([text is None for text in inline], dtype=bool)
        texts = list(inline)
        for row, text in zip(np.flatnonzero(by_id), self._texts(text_id[by_id], f"{NVTX}.textId"), strict=True):
            texts[row] = text
        return {
            **_times(NVTX, start, end),
            "kind": np.full(len(start), ActivityKind.ANNOTATION),
            "thread": _os_thread(thread),
            "process": _os_process(thread),
            "name": self.names.each([text or "" for text in texts]),
        }

    def _read(
        self, table: str, columns: Sequence[Column], where: str = "", params: Sequence[int] = ()
    ) -> list[npt.NDArray[np.int64]]:
        return list(self.db.integers(table, columns, where, params).T)

    def _strings(self, ids: npt.NDArray[np.int64], column: str) -> npt.NDArray[np.int32]:
        """Name indices of string ids; an unknown id (-1) is the empty name."""
        distinct, per_row = np.unique(ids, return_inverse=True)
        return self.names.each(self._texts(distinct, column))[per_row.reshape(-1)]

    def _texts(self, ids: npt.NDArray[np.int64], column: str) -> list[str]:
        """The StringIds text of each id, in order; an unknown id (-1) is the empty text."""
        wanted = {int(i) for i in np.unique(ids) if i != UNKNOWN}
        found = self.db.lookup(STRINGS, "id", "value", wanted) if wanted else {}
        missing = sorted(wanted - found.keys())
        if missing:
            if len(missing) == 1:
                message = _("{column} names string {id}, which {table} does not hold")
            else:
                message = _("{column} names string {id} (and {count} more), which {table} does not hold")
            raise DatabaseProblem(message.format(column=column, id=missing[0], count=len(missing) - 1, table=STRINGS))
        return [found.get(int(i), "") for i in ids]


# The columns every device record (copy, memset, kernel) begins with, in this order.
_DEVICE_RECORD = (
    Column("start"), Column("end"), Column("deviceId"), Column("streamId"), Column("correlationId", required=False),
    Column("globalPid", required=False),
)  # fmt: skip


class _Names:
    """The distinct texts of the name column, in order of first use."""

    def __init__(self) -> None:
        self._index: dict[str, int] = {}

    @property
    def texts(self) -> tuple[str, ...]:
        return tuple(self._index)

    def each(self, texts: Sequence[str]) -> npt.NDArray[np.int32]:
        """The index of each text, added where new."""
        return np.array([self._index.setdefault(text, len(self._index)) for text in texts], dtype=np.int32)


def _int(name: str) -> Column:
    return Column(name)


def _optional(name: str) -> Column:
    return Column(name, required=False)


def _times(table: str, start: npt.NDArray[np.int64], end: npt.NDArray[np.int64]) -> _Part:
    backwards = end < start
    if backwards.any():
        row = int(np.argmax(backwards))
        message = _("{table}: a record ends before it starts (start {start}, end {end}), in {count} rows")
        raise DatabaseProblem(message.format(table=table, start=start[row], end=end[row], count=int(backwards.sum())))
    return {"start_ns": start, "end_ns": end}


def _device_times(
    table: str,
    kind: ActivityKind,
    start: npt.NDArray[np.int64],
    end: npt.NDArray[np.int64],
    device: npt.NDArray[np.int64],
    stream: npt.NDArray[np.int64],
    correlation: npt.NDArray[np.int64],
) -> _Part:
    outside = (device < UNKNOWN) | (device > _MAX_DEVICE)
    if outside.any():
        message = _("{table}.deviceId holds {value}, not a device number")
        raise DatabaseProblem(message.format(table=table, value=device[np.argmax(outside)]))
    return {
        **_times(table, start, end),
        "kind": np.full(len(start), kind),
        "device": device,
        "stream": stream,
        "correlation": _correlation(correlation),
    }


def _check_sizes(table: str, size: npt.NDArray[np.int64]) -> None:
    if (size < 0).any():
        message = _("{table}.bytes holds {value}, a negative size")
        raise DatabaseProblem(message.format(table=table, value=size[np.argmax(size < 0)]))


def _correlation(ids: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    return np.where(ids > 0, ids, UNKNOWN)


def _os_thread(global_tid: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    return np.where(global_tid >= 0, global_tid & _THREAD_BITS, UNKNOWN)


def _os_process(global_id: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """The OS process id inside a globalTid or globalPid (both hold it in the same bits)."""
    return np.where(global_id >= 0, (global_id >> _PROCESS_SHIFT) & _THREAD_BITS, UNKNOWN)


def _firsts(meanings: Sequence[tuple[Any, str]]) -> npt.NDArray[np.int8]:
    """The enum value of each meaning, as int8 for indexing by row."""
    return np.array([int(value) for value, _meaning in meanings] or [0], dtype=np.int8)


def _copy_label(kind: tuple[CopyKind, str], src: tuple[Any, str], dst: tuple[Any, str]) -> str:
    """A copy's name as Kineto writes them (``Memcpy HtoD (Pinned -> Device)``); a migration's its own."""
    if kind[0] in enums.UNIFIED:
        return migration_name(kind[1])
    return f"Memcpy {kind[1]} ({src[1]} -> {dst[1]})"


def _record_limit(source: str, given: int | None) -> int:
    if given is not None:
        if isinstance(given, bool) or not isinstance(given, int) or given < 1:
            raise ValueError(_("the record limit must be a whole number from 1, not {given}").format(given=repr(given)))
        return given
    text = os.environ.get(MAX_RECORDS_ENV, "").strip()
    if not text:
        return DEFAULT_MAX_RECORDS
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        message = _("{variable}={value} is not a whole number of records from 1")
        raise _error(source, message.format(variable=MAX_RECORDS_ENV, value=repr(text)))
    return value


def _error(source: str, why: str) -> NsysFormatError:
    message = file_reason(source, why)
    return NsysFormatError(message.replace("\r", "\\r").replace("\n", "\\n"))

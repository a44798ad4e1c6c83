"""What an Nsight Systems export says about itself: the tool's version, the GPUs, when it ran.

Newer exports name the Nsight Systems that wrote them in ``META_DATA_EXPORT``
(``EXPORT_PRODUCT_VERSION``, ``EXPORT_SCHEMA_VERSION``) and the session's start in
``TARGET_INFO_SESSION_START_TIME``; older ones have neither. Both name the GPUs in
``TARGET_INFO_GPU``, where ``cuDevice`` is the CUDA device number the activity tables use
and ``id`` Nsight's own (they differ on machines with several GPUs). Under WSL a CUDA device
is listed twice: as the real GPU and as Windows' virtual adapter ("Microsoft Basic Render
Driver", no SMs, no bus location); the GPU with SMs and a bus location names it.
``TARGET_INFO_CUDA_STREAM`` says how each stream was created (``flag``; the legacy default
stream is the ``NULL`` one), and older exports name that stream in
``TARGET_INFO_CUDA_NULL_STREAM`` too. The processes that called CUDA (``globalTid`` of
``CUPTI_ACTIVITY_KIND_RUNTIME``, its process in the bits above the thread id's 24) are named
in ``PROCESSES``, or in older exports by their main thread's name in ``ThreadNames``.
"""

from __future__ import annotations

import datetime
from typing import Any

import numpy as np

from overlapviz.importers import nsys_enums as enums
from overlapviz.importers.activity import ACTIVITY_COLUMNS, NULL_STREAMS_META, UNKNOWN
from overlapviz.importers.untrusted_sqlite import Column, UntrustedDatabase

TOOL = "Nsight Systems"
EXPORT, GPUS, SESSION_START = "META_DATA_EXPORT", "TARGET_INFO_GPU", "TARGET_INFO_SESSION_START_TIME"
STREAMS, NULL_STREAM = "TARGET_INFO_CUDA_STREAM", "TARGET_INFO_CUDA_NULL_STREAM"
RUNTIME, PROCESSES, THREAD_NAMES, STRINGS = "CUPTI_ACTIVITY_KIND_RUNTIME", "PROCESSES", "ThreadNames", "StringIds"
FACT_TABLES = (EXPORT, GPUS, SESSION_START, STREAMS, NULL_STREAM, PROCESSES, THREAD_NAMES)
_VERSIONS = (("tool_version", "EXPORT_PRODUCT_VERSION"), ("schema_version", "EXPORT_SCHEMA_VERSION"))
_MAX_DEVICE = int(np.iinfo(ACTIVITY_COLUMNS["device"]).max)
_MAX_FACT = 200  # characters kept of a device name or a version
_THREAD_BITS = 24  # a globalTid's low bits are the OS thread id, the next 24 the process id


def export_meta(database: UntrustedDatabase, source: str) -> dict[str, Any]:
    """The `Activities` meta of an export: ``tool`` and ``source``, and what the file says of itself.

    Parameters
    ----------
    database
        The export.
    source
        The file's name.

    Returns
    -------
    dict
        ``tool``, ``source`` and, where the file has them, ``tool_version``,
        ``schema_version``, ``devices`` (CUDA device -> name), ``recorded`` (UTC date) and
        ``null_streams`` (the stream ids of the legacy default stream) and ``process`` (the
        names of the processes that called CUDA, comma-separated).
    """
    meta: dict[str, Any] = {"tool": TOOL, "source": source}
    export = _export(database)
    meta.update({key: export[name][:_MAX_FACT] for key, name in _VERSIONS if export.get(name)})
    devices = _devices(database)
    if devices:
        meta["devices"] = devices
    recorded = _recorded(database)
    if recorded:
        meta["recorded"] = recorded
    null_streams = _null_streams(database)
    if null_streams:
        meta[NULL_STREAMS_META] = null_streams
    processes = _process_names(database)
    if processes:
        meta["process"] = ", ".join(processes)[:_MAX_FACT]
    return meta


def _process_names(database: UntrustedDatabase) -> list[str]:
    """The names of the processes that called CUDA, in the order of their ids."""
    if RUNTIME not in database.tables:
        return []
    tids = np.unique(database.integers(RUNTIME, [Column("globalTid")])[:, 0])
    pids = sorted({int(tid) >> _THREAD_BITS << _THREAD_BITS for tid in tids if tid >= 0})
    if PROCESSES in database.tables:
        names = database.lookup(PROCESSES, "globalPid", "name", pids)
    else:
        names = _main_thread_names(database, pids)
    return [names[pid] for pid in pids if names.get(pid)]


def _main_thread_names(database: UntrustedDatabase, pids: list[int]) -> dict[int, str]:
    """Each process's main thread's name (its thread id is the process id), where ``ThreadNames`` has it."""
    if THREAD_NAMES not in database.tables or STRINGS not in database.tables:
        return {}
    pid_mask = (1 << _THREAD_BITS) - 1
    main_of = {pid | ((pid >> _THREAD_BITS) & pid_mask): pid for pid in pids}
    rows = database.rows(THREAD_NAMES, [Column("globalTid"), Column("nameId")])
    name_ids = {main_of[tid]: int(name) for tid, name in rows if tid in main_of}
    strings = database.lookup(STRINGS, "id", "value", name_ids.values())
    return {pid: strings[name] for pid, name in name_ids.items() if name in strings}


def _null_streams(database: UntrustedDatabase) -> list[int]:
    """The stream ids that are the legacy default stream, as the export's stream tables say."""
    found: set[int] = set()
    if STREAMS in database.tables:
        names = enums.meanings(database, enums.STREAM_TYPE)
        rows = database.rows(STREAMS, [Column("streamId"), Column("flag")])
        found |= {int(stream) for stream, flag in rows if names.get(int(flag)) == enums.NULL_STREAM_TYPE}
    if NULL_STREAM in database.tables:
        found |= {int(stream) for (stream,) in database.rows(NULL_STREAM, [Column("streamId")])}
    return sorted(found)


def _export(database: UntrustedDatabase) -> dict[str, str]:
    if EXPORT not in database.tables:
        return {}
    rows = database.rows(EXPORT, [Column("name", "text"), Column("value", "text", required=False, default=None)])
    return {name: value for name, value in rows if value is not None}


def _devices(database: UntrustedDatabase) -> dict[int, str]:
    if GPUS not in database.tables:
        return {}
    columns = [
        Column("id"), Column("cuDevice", required=False), Column("name", "text", required=False, default=None),
        Column("smCount", required=False), Column("busLocation", "text", required=False, default=None),
    ]  # fmt: skip
    devices: dict[int, str] = {}
    ranks: dict[int, tuple[bool, bool]] = {}
    for gpu, cuda, name, sms, bus in database.rows(GPUS, columns):
        number = int(cuda if cuda != UNKNOWN else gpu)
        rank = (sms > 0, bool(bus))  # a real GPU has SMs and sits on a bus; a virtual adapter has neither
        if name and 0 <= number <= _MAX_DEVICE and rank >= ranks.get(number, (False, False)):
            devices[number], ranks[number] = name[:_MAX_FACT], rank
    return devices


def _recorded(database: UntrustedDatabase) -> str | None:
    """The UTC date the session began."""
    if SESSION_START not in database.tables:
        return None
    starts = database.rows(SESSION_START, [Column("utcEpochNs")])
    try:
        when = datetime.datetime.fromtimestamp(starts[0][0] // 10**9, tz=datetime.UTC)
    except (IndexError, OverflowError, OSError, ValueError):
        return None
    return when.date().isoformat()

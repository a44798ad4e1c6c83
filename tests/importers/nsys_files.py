"""The real Nsight Systems exports in tests/data/nsys, read once per test session, and ways to change them."""

import sqlite3
from functools import cache
from pathlib import Path

from overlapviz.core.files.safe_read import read_input_bytes
from overlapviz.importers.nsys import read_nsys

NSYS = Path(__file__).resolve().parent.parent / "data" / "nsys"
OLD = "mordred-2021-no-enums.sqlite.gz"
NVTX = "nvfuser-2024.6-nvtx.sqlite.gz"
UVM = "balinski-gomory-2025.5-pageable-uvm.sqlite.gz"
STREAMS = "test-cuda-2026.1-pinned-streams.sqlite.gz"
NAMES = (OLD, NVTX, UVM, STREAMS)
WITH_ENUMS = (NVTX, UVM, STREAMS)


@cache
def raw_of(name):
    """The decompressed bytes of one export."""
    return read_input_bytes(NSYS / name)


@cache
def activities_of(name):
    """One export read by `read_nsys`."""
    return read_nsys(raw_of(name), name)


def database_of(name):
    """A private, writable in-memory copy of one export (the caller may change it)."""
    connection = sqlite3.connect(":memory:")
    connection.deserialize(raw_of(name))
    return connection


def sql(name, query, params=()):
    """The rows a query gives on one export, asked of SQLite directly."""
    connection = database_of(name)
    try:
        return connection.execute(query, params).fetchall()
    finally:
        connection.close()


def loosened(name):
    """A writable copy of one export whose tables accept NULL anywhere (nsys declares many columns NOT NULL)."""
    connection = database_of(name)
    connection.execute("PRAGMA writable_schema = ON")
    connection.execute("UPDATE sqlite_master SET sql = replace(sql, 'NOT NULL', '') WHERE type = 'table'")
    connection.commit()
    raw = connection.serialize()
    connection.close()
    connection = sqlite3.connect(":memory:")
    connection.deserialize(raw)  # a fresh connection reads the changed schema
    return connection


def changed(name, *statements):
    """The bytes of one export, its NOT NULL constraints dropped, after SQL statements.

    Each statement is a string, or a (string, params) pair.
    """
    connection = loosened(name)
    try:
        for statement in statements:
            query, params = (statement, ()) if isinstance(statement, str) else statement
            connection.execute(query, params)
        connection.commit()
        return connection.serialize()
    finally:
        connection.close()


_PROCESS_COLUMNS = ("globalPid", "globalTid")
_SECOND_PROCESS_SHIFT_NS = 1_000_000  # the second process's records, 1 ms after the first's


def two_process_export(name, path, mpi_ranks=None):
    """One real export made a job of two processes, written at `path`: what ``nsys profile mpirun`` writes.

    Every record of the CUDA activity tables is copied as a second process's (a process id
    that no process of the export has, on the next CUDA device, 1 ms later) and ``PROCESSES``
    names it; `mpi_ranks` (the
    first process's rank, the second's) adds the ``MPI_RANKS`` table of an MPI trace.
    """
    connection = database_of(name)
    pid = connection.execute("SELECT globalPid >> 24 & 16777215 FROM CUPTI_ACTIVITY_KIND_KERNEL LIMIT 1").fetchone()[0]
    other = connection.execute("SELECT max(pid) + 1 FROM PROCESSES").fetchone()[0]
    tables = [row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type='table' AND "
                                                   "name LIKE 'CUPTI_ACTIVITY_KIND_%'")]  # fmt: skip
    for table in tables:
        columns = [row[1] for row in connection.execute(f"PRAGMA table_info({table})")]
        changed = [_second_process(column, other - pid) for column in columns]
        connection.execute(f"INSERT INTO {table} ({', '.join(columns)}) SELECT {', '.join(changed)} FROM {table}")
    global_pid = connection.execute("SELECT globalPid FROM PROCESSES WHERE pid = ?", (pid,)).fetchone()[0]
    connection.execute("INSERT INTO PROCESSES (globalPid, pid, name) VALUES (?, ?, 'rank-two')",
                       (global_pid + ((other - pid) << 24), other))  # fmt: skip
    if mpi_ranks is not None:
        connection.execute("CREATE TABLE MPI_RANKS (globalTid INTEGER NOT NULL, rank INTEGER NOT NULL)")
        for process, rank in zip((pid, other), mpi_ranks, strict=True):
            connection.execute("INSERT INTO MPI_RANKS VALUES (?, ?)", ((process << 24) + process, rank))
    connection.commit()
    path.write_bytes(connection.serialize())
    return pid, other


def _second_process(column, pid_step):
    if column in _PROCESS_COLUMNS:
        return f"{column} + ({pid_step} << 24)"
    if column in ("start", "end", "timestamp"):
        return f'"{column}" + {_SECOND_PROCESS_SHIFT_NS}'
    return "deviceId + 1" if column == "deviceId" else f'"{column}"'

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

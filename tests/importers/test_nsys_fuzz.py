"""Mutated real Nsight Systems exports: each reads into sane activities, or is refused in one line.

Mutations by SQL (a cell set to NULL, text, binary data, a real or an extreme integer; a
table or a column dropped) and by bytes (truncated, bytes flipped), 550 cases in all.
"""

import contextlib
import sqlite3

import numpy as np
import pytest
from fuzzing import fuzz_settings
from hypothesis import given
from hypothesis import strategies as st
from nsys_files import NAMES, loosened, raw_of, sql

from overlapviz.importers.activity import Activities, ActivityKind, CopyKind, HostMemory
from overlapviz.importers.nsys import NsysFormatError, looks_like_nsys, read_nsys

pytestmark = pytest.mark.fuzz

# Every table and column the reader takes something from.
READ = {
    "CUPTI_ACTIVITY_KIND_MEMCPY": ("start", "end", "deviceId", "streamId", "correlationId", "bytes", "copyKind",
                                   "srcKind", "dstKind"),
    "CUPTI_ACTIVITY_KIND_MEMSET": ("start", "end", "deviceId", "streamId", "correlationId", "bytes", "memKind"),
    "CUPTI_ACTIVITY_KIND_KERNEL": ("start", "end", "deviceId", "streamId", "correlationId", "demangledName",
                                   "shortName"),
    "CUPTI_ACTIVITY_KIND_RUNTIME": ("start", "end", "globalTid", "correlationId", "nameId", "eventClass"),
    "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION": ("start", "end", "deviceId", "streamId", "correlationId", "syncType"),
    "NVTX_EVENTS": ("start", "end", "eventType", "globalTid", "textId", "text"),
    "StringIds": ("id", "value"),
    "ENUM_CUDA_MEMCPY_OPER": ("id", "name"),
    "ENUM_CUDA_MEM_KIND": ("id", "name"),
    "ENUM_NSYS_EVENT_CLASS": ("id", "name"),
    "ENUM_CUPTI_SYNC_TYPE": ("id", "name"),
    "ENUM_NSYS_EVENT_TYPE": ("id", "name"),
    "META_DATA_EXPORT": ("name", "value"),
    "TARGET_INFO_GPU": ("id", "cuDevice", "name"),
    "TARGET_INFO_SESSION_START_TIME": ("utcEpochNs",),
}  # fmt: skip


def _present(name):
    """table -> (its columns the reader uses, its row count), for the tables this export has."""
    tables = {table for (table,) in sql(name, "SELECT name FROM sqlite_master WHERE type = 'table'")}
    found = {}
    for table in sorted(tables & READ.keys()):
        columns = {column for (column,) in sql(name, "SELECT name FROM pragma_table_info(?)", (table,))}
        rows = sql(name, f'SELECT count(*) FROM "{table}"')[0][0]
        found[table] = (tuple(c for c in READ[table] if c in columns), rows)
    return found


PRESENT = {name: _present(name) for name in NAMES}
VALUES = st.one_of(
    st.sampled_from([None, -1, 0, 1, 7, 59, 2**31, 2**63 - 1, -(2**63), 1e30, -1e30, float("inf"), 2.5, "", "abc",
                     "12", "x" * 10_000, b"", b"\xff\x00", "CUDA_MEMCPY_KIND_HTOD"]),
    st.integers(min_value=-(2**63), max_value=2**63 - 1),
    st.text(max_size=8),
    st.binary(max_size=8),
)  # fmt: skip
_ENUMS = {int(k) for k in ActivityKind}, {int(k) for k in CopyKind}, {int(k) for k in HostMemory}


def assert_read_sanely_or_refused(raw, name):
    """The export reads into activities that hold together, or is refused in one line naming it."""
    assert looks_like_nsys(raw) in (True, False)
    try:
        a = read_nsys(raw, name)
    except NsysFormatError as error:
        message = str(error)
        assert message.startswith(f"{name}: ") and "\n" not in message and "\r" not in message
        return
    assert isinstance(a, Activities)
    assert (a["start_ns"] <= a["end_ns"]).all()
    assert (a["bytes"] >= 0).all() and (a["device"] >= -1).all()
    assert ((a["correlation"] == -1) | (a["correlation"] > 0)).all()
    kinds, copy_kinds, memories = _ENUMS
    assert set(a["kind"].tolist()) <= kinds and set(a["copy_kind"].tolist()) <= copy_kinds
    assert set(a["src_memory"].tolist()) | set(a["dst_memory"].tolist()) <= memories
    assert ((a["name"] >= 0) & (a["name"] < len(a.names))).all()
    assert all(isinstance(text, str) for text in a.names)
    assert a.meta["tool"] == "Nsight Systems"
    assert all(isinstance(k, int) and isinstance(v, str) for k, v in a.meta.get("devices", {}).items())


@st.composite
def cell_changes(draw):
    """An export and one to three cells of the tables it reads, each with the value to put there."""
    name = draw(st.sampled_from(NAMES))
    changes = []
    for _ in range(draw(st.integers(1, 3))):
        table = draw(st.sampled_from(sorted(t for t, (columns, rows) in PRESENT[name].items() if columns and rows)))
        columns, rows = PRESENT[name][table]
        changes.append((table, draw(st.sampled_from(columns)), draw(st.integers(0, rows - 1)), draw(VALUES)))
    return name, changes


@fuzz_settings(300)
@given(cell_changes())
def test_cells_changed_by_sql(case):
    name, changes = case
    connection = loosened(name)
    try:
        for table, column, row, value in changes:
            # A key that takes only distinct integers (StringIds.id) refuses some values: it stays as it was.
            with contextlib.suppress(sqlite3.IntegrityError):
                connection.execute(
                    f'UPDATE "{table}" SET "{column}" = ? WHERE rowid = (SELECT rowid FROM "{table}" LIMIT 1 OFFSET ?)',
                    (value, row),
                )
        connection.commit()
        raw = connection.serialize()
    finally:
        connection.close()
    assert_read_sanely_or_refused(raw, name)


@st.composite
def removals(draw):
    """An export, and a table it reads, or one column of it, to remove."""
    name = draw(st.sampled_from(NAMES))
    table = draw(st.sampled_from(sorted(PRESENT[name])))
    columns = PRESENT[name][table][0]
    return name, table, draw(st.none() | st.sampled_from(columns)) if columns else None


def _without(name, table, column):
    """The export's bytes without `column` of `table` (the whole table where SQLite cannot drop the column)."""
    connection = loosened(name)
    try:
        try:
            connection.execute(f'ALTER TABLE "{table}" DROP COLUMN "{column}"' if column else f'DROP TABLE "{table}"')
        except sqlite3.OperationalError:  # a key column, which SQLite keeps: drop its table instead
            connection.execute(f'DROP TABLE "{table}"')
        connection.commit()
        return connection.serialize()
    finally:
        connection.close()


@fuzz_settings(100)
@given(removals())
def test_tables_and_columns_dropped(case):
    name, table, column = case
    assert_read_sanely_or_refused(_without(name, table, column), name)


@st.composite
def damaged_bytes(draw):
    """An export cut short, or with a few bytes changed."""
    name = draw(st.sampled_from(NAMES))
    raw = raw_of(name)
    if draw(st.booleans()):
        return name, raw[: draw(st.integers(0, len(raw) - 1))]
    damaged = np.frombuffer(raw, dtype=np.uint8).copy()
    for at, mask in draw(
        st.lists(st.tuples(st.integers(0, len(raw) - 1), st.integers(1, 255)), min_size=1, max_size=8)
    ):
        damaged[at] ^= mask
    return name, damaged.tobytes()


@fuzz_settings(150)
@given(damaged_bytes())
def test_bytes_truncated_or_flipped(case):
    name, raw = case
    assert_read_sanely_or_refused(raw, name)

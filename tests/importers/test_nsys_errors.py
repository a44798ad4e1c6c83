"""Bad Nsight Systems exports: each is refused in one line naming the file, or read sanely."""

import sqlite3
from collections import Counter

import numpy as np
import pytest
from nsys_files import NAMES, NSYS, NVTX, OLD, STREAMS, UVM, activities_of, changed, raw_of, sql

from overlapviz.core.files.safe_read import read_input_bytes
from overlapviz.importers.activity import ActivityKind, CopyKind, HostMemory
from overlapviz.importers.nsys import MAX_RECORDS_ENV, NsysFormatError, looks_like_nsys, read_nsys

MEMCPY = "CUPTI_ACTIVITY_KIND_MEMCPY"
FIRST_COPY = f"(SELECT rowid FROM {MEMCPY} ORDER BY rowid LIMIT 1)"


def refused(raw, source="bad.sqlite", **options):
    """The message of the NsysFormatError that reading gives; it is one line naming the file."""
    with pytest.raises(NsysFormatError) as caught:
        read_nsys(raw, source, **options)
    message = str(caught.value)
    assert message.startswith(f"{source}: ") and "\n" not in message and "\r" not in message
    return message


def empty_database(*statements):
    connection = sqlite3.connect(":memory:")
    for statement in statements:
        connection.execute(statement)
    connection.commit()
    return connection.serialize()


def set_first_copy(column, value):
    return changed(STREAMS, (f"UPDATE {MEMCPY} SET {column} = ? WHERE rowid = {FIRST_COPY}", (value,)))


@pytest.mark.parametrize("raw", [b"", b"hello", b"SQLite format 3", b"\x1f\x8b\x08\x00", b'{"traceEvents": []}'])
def test_bytes_that_are_not_sqlite_are_refused_and_not_recognised(raw):
    assert "not an SQLite database" in refused(raw)
    assert not looks_like_nsys(raw)


def test_an_sqlite_database_without_the_cupti_tables_is_not_an_export():
    raw = empty_database("CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT)")
    assert not looks_like_nsys(raw)
    assert "not an Nsight Systems export of CUDA activity" in refused(raw)
    assert "not an Nsight Systems export" in refused(empty_database("CREATE TABLE notes (text TEXT)"))


def test_a_required_column_missing_is_named():
    raw = changed(STREAMS, f"ALTER TABLE {MEMCPY} DROP COLUMN bytes")
    assert refused(raw).endswith(f"{MEMCPY} has no column bytes")


def test_an_optional_column_missing_reads_as_unknown():
    a = read_nsys(changed(STREAMS, f"ALTER TABLE {MEMCPY} DROP COLUMN srcKind"), STREAMS)
    rows = a.mask(ActivityKind.MEMCPY)
    assert (a["src_memory"][rows] == HostMemory.UNKNOWN).all()
    assert (a["dst_memory"][rows] != HostMemory.UNKNOWN).all()


@pytest.mark.parametrize(
    ("value", "words"),
    [
        ("abc", "holds text ('abc') where a whole number belongs, in 1 row"),
        (1e30, "holds a real number (1e+30) where a whole number belongs, in 1 row"),
        (2.5, "holds a real number (2.5) where a whole number belongs, in 1 row"),
        (b"\x00\x01", "holds binary data (b'\\x00\\x01') where a whole number belongs, in 1 row"),
        (None, "is empty (NULL) in 1 row"),
    ],
)
def test_a_value_of_the_wrong_type_is_refused_with_the_column_and_the_value(value, words):
    assert refused(set_first_copy("bytes", value)).endswith(f"{MEMCPY}.bytes {words}")


def test_a_column_declared_as_text_holding_text_is_refused():
    raw = changed(
        OLD,
        "CREATE TABLE copies AS SELECT * FROM CUPTI_ACTIVITY_KIND_MEMCPY",
        "DROP TABLE CUPTI_ACTIVITY_KIND_MEMCPY",
        "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start TEXT, end TEXT, deviceId TEXT, contextId TEXT, streamId TEXT,"
        " correlationId TEXT, bytes TEXT, copyKind TEXT, srcKind TEXT, dstKind TEXT)",
        "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY SELECT 'at ' || start, end, deviceId, contextId, streamId,"
        " correlationId, bytes, copyKind, srcKind, dstKind FROM copies",
    )
    assert "CUPTI_ACTIVITY_KIND_MEMCPY.start holds text ('at " in refused(raw)


def test_line_breaks_and_control_characters_of_a_value_are_escaped_in_the_message():
    assert "('one\\ntwo')" in refused(set_first_copy("start", "one\ntwo"))
    message = refused(set_first_copy("start", "\x1b[31mred"))
    assert "\x1b" not in message and "('\\x1b[31mred')" in message


def test_the_extremes_of_int64_read_as_they_are():
    raw = changed(
        STREAMS,
        (f"UPDATE {MEMCPY} SET start = ?, end = ? WHERE rowid = {FIRST_COPY}", (-(2**63), 2**63 - 1)),
        (f"UPDATE {MEMCPY} SET bytes = ? WHERE rowid = {FIRST_COPY}", (2**63 - 1,)),
    )
    a = read_nsys(raw, STREAMS)
    first = np.flatnonzero(a.mask(ActivityKind.MEMCPY))[0]
    assert (a["start_ns"][first], a["end_ns"][first], a["bytes"][first]) == (-(2**63), 2**63 - 1, 2**63 - 1)


def test_a_record_that_ends_before_it_starts_is_refused():
    raw = changed(STREAMS, (f"UPDATE {MEMCPY} SET start = ? WHERE rowid = {FIRST_COPY}", (2**63 - 1,)))
    assert f"{MEMCPY}: a record ends before it starts (start {2**63 - 1}, end " in refused(raw)


@pytest.mark.parametrize(
    ("column", "value", "words"), [("bytes", -5, "a negative size"), ("deviceId", 70_000, "not a device number")]
)
def test_numbers_out_of_range_are_refused(column, value, words):
    assert refused(set_first_copy(column, value)).endswith(f"{MEMCPY}.{column} holds {value}, {words}")


def test_codes_no_table_lists_read_as_unknown():
    a = read_nsys(set_first_copy("copyKind", 99), STREAMS)
    first = np.flatnonzero(a.mask(ActivityKind.MEMCPY))[0]
    assert a["copy_kind"][first] == CopyKind.UNKNOWN
    assert a.names[a["name"][first]] == "Memcpy Unknown (Pinned -> Device)"


def test_the_enum_tables_are_read_by_name_not_by_number():
    swapped = changed(
        STREAMS,
        "UPDATE ENUM_CUDA_MEMCPY_OPER SET name = CASE id WHEN 1 THEN 'CUDA_MEMCPY_KIND_DTOH'"
        " WHEN 2 THEN 'CUDA_MEMCPY_KIND_HTOD' ELSE name END",
    )
    read = Counter(read_nsys(swapped, STREAMS)["copy_kind"][activities_of(STREAMS).mask(ActivityKind.MEMCPY)])
    assert read == {CopyKind.D2H: 8, CopyKind.H2D: 4}


@pytest.mark.parametrize("name", [NVTX, UVM, STREAMS])
def test_without_its_enum_tables_a_newer_export_reads_the_same(name):
    enum_tables = [table for (table,) in sql(name, "SELECT name FROM sqlite_master WHERE name LIKE 'ENUM%'")]
    without = read_nsys(changed(name, *(f'DROP TABLE "{table}"' for table in enum_tables)), name)
    with_enums = activities_of(name)
    assert without.names == with_enums.names
    for column in with_enums.columns:
        assert (without[column] == with_enums[column]).all(), column


def test_a_name_id_missing_from_string_ids_is_refused():
    raw = changed(STREAMS, "DELETE FROM StringIds WHERE id IN (SELECT demangledName FROM CUPTI_ACTIVITY_KIND_KERNEL)")
    assert "CUPTI_ACTIVITY_KIND_KERNEL.demangledName names string 453, which StringIds does not hold" in refused(raw)
    assert refused(changed(STREAMS, "DROP TABLE StringIds")).endswith("it has no table StringIds")


def test_a_kernel_without_a_demangled_name_takes_its_short_name():
    raw = changed(STREAMS, "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET demangledName = NULL")
    a = read_nsys(raw, STREAMS)
    assert {a.names[i] for i in a["name"][a.mask(ActivityKind.KERNEL)]} == {"add_parallel"}


def test_text_that_is_not_utf8_reads_with_replacement_characters():
    raw = changed(STREAMS, "UPDATE StringIds SET value = CAST(X'6164645fff' AS TEXT) WHERE id = 453")
    a = read_nsys(raw, STREAMS)
    assert {a.names[i] for i in a["name"][a.mask(ActivityKind.KERNEL)]} == {"add_\ufffd"}


def test_nvtx_ranges_never_closed_are_left_out_and_a_bad_event_type_refused():
    unclosed = changed(NVTX, "UPDATE NVTX_EVENTS SET end = NULL WHERE rowid IN (SELECT rowid FROM NVTX_EVENTS LIMIT 2)")
    assert read_nsys(unclosed, NVTX).mask(ActivityKind.ANNOTATION).sum() == 650
    typed = changed(NVTX, "UPDATE NVTX_EVENTS SET eventType = 'range' WHERE rowid = 1")
    assert refused(typed).endswith("NVTX_EVENTS.eventType holds text ('range') where a whole number belongs, in 1 row")


def test_nvtx_texts_by_id_are_looked_up_in_string_ids():
    raw = changed(
        NVTX,
        "INSERT INTO StringIds (id, value) VALUES (999999, 'from the string table')",
        "UPDATE NVTX_EVENTS SET text = NULL, textId = 999999 WHERE rowid = 1",
    )
    a = read_nsys(raw, NVTX)
    first = np.flatnonzero(a.mask(ActivityKind.ANNOTATION))[0]
    assert a.names[a["name"][first]] == "from the string table"


def test_more_records_than_the_limit_are_refused_before_reading(monkeypatch):
    total = len(activities_of(OLD))
    assert f"more than the limit of {total - 1} (set {MAX_RECORDS_ENV}" in refused(raw_of(OLD), max_records=total - 1)
    monkeypatch.setenv(MAX_RECORDS_ENV, "10")
    assert "more than the limit of 10" in refused(raw_of(OLD))
    monkeypatch.setenv(MAX_RECORDS_ENV, "many")
    assert refused(raw_of(OLD)).endswith(f"{MAX_RECORDS_ENV}='many' is not a whole number of records from 1")
    with pytest.raises(ValueError, match="record limit"):
        read_nsys(raw_of(OLD), OLD, max_records=0)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("keep", [0.5, 0.1, 100, 16])
def test_a_truncated_export_is_refused(name, keep):
    raw = raw_of(name)
    cut = raw[: int(len(raw) * keep) if keep < 1 else keep]
    assert "damaged or not an SQLite database (" in refused(cut)
    assert not looks_like_nsys(cut)


def test_an_export_last_written_in_wal_mode_reads_the_same(tmp_path):
    path = tmp_path / "wal.sqlite"
    path.write_bytes(raw_of(STREAMS))
    connection = sqlite3.connect(path)
    assert connection.execute("PRAGMA journal_mode = WAL").fetchone() == ("wal",)
    connection.close()
    raw = path.read_bytes()
    assert raw[18:20] == b"\x02\x02"
    assert len(read_nsys(raw, STREAMS)) == len(activities_of(STREAMS))


def test_a_view_in_place_of_a_table_is_not_read():
    raw = changed(
        STREAMS,
        f"DROP TABLE {MEMCPY}",
        f"CREATE VIEW {MEMCPY} AS SELECT start, end, deviceId, streamId, correlationId, 1 AS bytes, 1 AS copyKind"
        " FROM CUPTI_ACTIVITY_KIND_KERNEL",
    )
    a = read_nsys(raw, STREAMS)
    assert a.mask(ActivityKind.MEMCPY).sum() == 0 and a.mask(ActivityKind.KERNEL).sum() == 4


def test_computed_columns_and_tables_without_rowid_are_refused():
    computed = changed(
        STREAMS,
        f"ALTER TABLE {MEMCPY} DROP COLUMN bytes",
        f"ALTER TABLE {MEMCPY} ADD COLUMN bytes INTEGER AS (end - start)",
    )
    assert refused(computed).endswith(f"{MEMCPY}.bytes is computed by SQL in the file, not stored")
    keyed = changed(
        OLD,
        "ALTER TABLE CUPTI_ACTIVITY_KIND_MEMSET RENAME TO old_memsets",
        "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET (start INTEGER PRIMARY KEY, end INTEGER, deviceId INTEGER,"
        " streamId INTEGER, bytes INTEGER) WITHOUT ROWID",
    )
    assert refused(keyed).endswith("CUPTI_ACTIVITY_KIND_MEMSET is a table WITHOUT ROWID, which no export writes")


def test_a_gzipped_export_is_read_through_the_safe_reader():
    path = NSYS / STREAMS
    assert path.read_bytes()[:2] == b"\x1f\x8b"
    assert len(read_nsys(read_input_bytes(path), str(path))) == 61

"""The columnar file (.ovz): exact round trips, and every damaged or hostile file refused in one line."""

import gzip
import io
import json
import zipfile
from pathlib import Path

import numpy as np
import pytest

from overlapviz.app.session_file import open_file, save_session
from overlapviz.backends import registry
from overlapviz.core.config import PipelineConfig
from overlapviz.core.files.columnar_read import columnar_session, columnar_trace
from overlapviz.core.files.columnar_write import (
    COLUMNAR_KEY,
    DOCUMENT_MEMBER,
    columnar_bytes,
    export_columnar,
    is_columnar_name,
)
from overlapviz.core.files.session_document import SessionData
from overlapviz.core.files.trace_format import TraceFormatError
from overlapviz.core.files.trace_import import import_chrome
from overlapviz.core.trace.columns import COLUMNS
from overlapviz.importers.read import read_trace_file, read_with_settings
from overlapviz.resources import asset_path
from tests.core.tracefactory import pipeline_trace

SOURCES = sorted(asset_path("traces").glob("*.json"))
DATA = Path(__file__).parents[1] / "data"


def assert_same(loaded, trace):
    assert loaded.names == trace.names
    assert loaded.meta == trace.meta
    for name, dtype in COLUMNS.items():
        assert loaded[name].dtype == dtype
        assert np.array_equal(loaded[name], trace[name]), name


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.name)
def test_every_shipped_trace_comes_back_exactly(source, tmp_path):
    trace = import_chrome(source)
    path = tmp_path / "t.ovz"
    export_columnar(trace, path)
    assert_same(read_trace_file(path), trace)
    opened, as_json = read_with_settings(path), read_with_settings(source)
    assert_same(opened.trace, trace)
    assert opened.config is not None
    assert (opened.config, opened.backend, opened.device) == (as_json.config, as_json.backend, as_json.device)


@pytest.mark.parametrize(
    "name", ["sim-pageable-0.2.0.json.gz", "torch-pinned-0.2.0.json.gz", "sim-window-0.2.0.json.gz"]
)
def test_recorded_traces_come_back_exactly(name, tmp_path):
    trace = read_trace_file(DATA / "overlapviz" / name)
    export_columnar(trace, tmp_path / "t.ovz")
    assert_same(read_trace_file(tmp_path / "t.ovz"), trace)


def test_a_sim_run_comes_back_exactly_and_as_the_json_trace_does(tmp_path):
    trace = registry.load_backend("sim").run(PipelineConfig(chunks=8, streams=3))
    export_columnar(trace, tmp_path / "t.ovz")
    assert_same(read_trace_file(tmp_path / "t.ovz"), trace)


def test_a_session_keeps_its_own_settings_backend_and_device(tmp_path):
    trace = pipeline_trace(chunks=3)
    config = PipelineConfig(chunks=6, streams=2)
    path = tmp_path / "s.ovz"
    save_session(path, SessionData(config, trace, "sim", "a100"))
    opened = open_file(path)
    assert (opened.config, opened.backend, opened.device) == (config, "sim", "a100")
    assert_same(opened.trace, trace)
    assert_same(read_trace_file(path), trace)  # the command line takes the session's trace


def test_a_session_without_a_trace(tmp_path):
    path = tmp_path / "s.ovz"
    save_session(path, SessionData(PipelineConfig(chunks=4), None))
    assert open_file(path) == SessionData(PipelineConfig(chunks=4), None)
    with pytest.raises(TraceFormatError, match=r"s\.ovz: a session without a trace"):
        read_trace_file(path)


def test_the_same_trace_gives_the_same_bytes_and_numpy_loads_it_without_pickle(tmp_path):
    trace = pipeline_trace(chunks=2)
    first = columnar_bytes(SessionData(None, trace), session=False)
    assert first == columnar_bytes(SessionData(None, trace), session=False)
    (tmp_path / "t.npz").write_bytes(first)
    with np.load(tmp_path / "t.npz", allow_pickle=False) as loaded:
        assert np.array_equal(loaded["start_ns"], trace["start_ns"])
        assert json.loads(loaded[DOCUMENT_MEMBER])["trace"]["names"] == list(trace.names)


def test_gzipped_and_under_any_name_it_opens_by_content(tmp_path):
    trace = pipeline_trace(chunks=2)
    (tmp_path / "t.bin").write_bytes(gzip.compress(columnar_bytes(SessionData(None, trace), session=False)))
    assert_same(read_trace_file(tmp_path / "t.bin"), trace)


def test_which_names_take_columns():
    assert is_columnar_name("a/t.ovz") and is_columnar_name("T.NPZ")
    assert not any(is_columnar_name(name) for name in ("t.json", "t.ovz.json", "ovz", "t.csv"))


# --- hostile and damaged files --------------------------------------------------------------------


def good_members(trace=None):
    """The members of a good file, as name -> bytes, to damage one at a time."""
    raw = columnar_bytes(SessionData(None, trace or pipeline_trace(chunks=2)), session=False)
    with zipfile.ZipFile(io.BytesIO(raw)) as archive:
        return {info.filename: archive.read(info) for info in archive.infolist()}


def zipped(members, compression=zipfile.ZIP_STORED):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=compression) as archive:
        for name, data in members.items() if isinstance(members, dict) else members:
            archive.writestr(name, data)
    return buffer.getvalue()


def npy(array, **kwargs):
    buffer = io.BytesIO()
    np.save(buffer, array, **kwargs)
    return buffer.getvalue()


def refusal(raw, tmp_path):
    """The one line a file of `raw` bytes is refused with, by both doors."""
    path = tmp_path / "bad.ovz"
    path.write_bytes(raw)
    with pytest.raises(TraceFormatError) as caught:
        read_trace_file(path)
    with pytest.raises(TraceFormatError):
        read_with_settings(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: ") and "\n" not in message
    return message


def with_member(name, data):
    members = good_members()
    members[name] = data
    return zipped(members)


def with_document(change):
    members = good_members()
    document = json.loads(members[DOCUMENT_MEMBER])
    change(document)
    members[DOCUMENT_MEMBER] = json.dumps(document).encode()
    return zipped(members)


def test_truncated_files(tmp_path):
    raw = columnar_bytes(SessionData(None, pipeline_trace(chunks=2)), session=False)
    for size in (4, 30, len(raw) // 2, len(raw) - 30, len(raw) - 1):
        assert "damaged zip file" in refusal(raw[:size], tmp_path) or "is missing" in refusal(raw[:size], tmp_path)


def test_a_flipped_byte_in_a_column_fails_its_checksum(tmp_path):
    # long enough that the flipped byte lies past what zipfile reads ahead with the header (4 KiB)
    raw = bytearray(columnar_bytes(SessionData(None, pipeline_trace(chunks=200)), session=False))
    info = zipfile.ZipFile(io.BytesIO(raw)).getinfo("start_ns.npy")
    next_member = raw.index(b"PK\x03\x04", info.header_offset + 4)
    raw[next_member - 1] ^= 0xFF  # the last value's highest byte
    assert "start_ns.npy is damaged: its checksum does not match" in refusal(bytes(raw), tmp_path)


def test_the_columns_are_used_where_they_lie_in_the_file(tmp_path):
    trace = pipeline_trace(chunks=2)
    raw = columnar_bytes(SessionData(None, trace), session=False)
    loaded = columnar_trace(raw, "t.ovz")
    for name, dtype in COLUMNS.items():
        assert loaded[name].base is not None and loaded[name].ctypes.data % np.dtype(dtype).itemsize == 0


@pytest.mark.parametrize(
    ("array", "words"),
    [
        (np.zeros(16, dtype=np.float64), "holds float64; the column start_ns is int64"),
        (np.zeros(16, dtype=">i8"), "holds >i8"),
        (np.zeros((4, 4), dtype=np.int64), "2 dimensions"),
        (np.array(0, dtype=np.int64), "0 dimensions"),
    ],
)
def test_a_column_of_the_wrong_type_or_shape(array, words, tmp_path):
    assert words in refusal(with_member("start_ns.npy", npy(array)), tmp_path)


def test_a_pickled_object_array_is_refused_unread(tmp_path, monkeypatch):
    import pickle

    monkeypatch.setattr(pickle, "loads", lambda *a, **k: pytest.fail("unpickled"))
    monkeypatch.setattr(pickle, "load", lambda *a, **k: pytest.fail("unpickled"))
    data = npy(np.array([object()] * 3, dtype=object), allow_pickle=True)
    assert "holds object; the column start_ns is int64" in refusal(with_member("start_ns.npy", data), tmp_path)


def test_huge_declared_sizes_are_refused_before_any_allocation(tmp_path):
    header = io.BytesIO()
    np.lib.format.write_array_header_1_0(header, {"descr": "<i8", "fortran_order": False, "shape": (10**15,)})
    message = refusal(with_member("start_ns.npy", header.getvalue() + b"\0" * 64), tmp_path)
    assert "declares 1,000,000,000,000,000 values; at most 2,147,483,648" in message
    header = io.BytesIO()
    np.lib.format.write_array_header_1_0(header, {"descr": "<i8", "fortran_order": False, "shape": (10**6,)})
    message = refusal(with_member("start_ns.npy", header.getvalue() + b"\0" * 64), tmp_path)
    assert "declares 1,000,000 values but holds another number of bytes" in message


def test_columns_of_different_lengths(tmp_path):
    assert "the columns differ in length" in refusal(with_member("stream.npy", npy(np.zeros(3, np.int32))), tmp_path)


@pytest.mark.parametrize("name", ["kind.npy", "thread.npy", DOCUMENT_MEMBER])
def test_missing_members(name, tmp_path):
    members = good_members()
    del members[name]
    message = refusal(zipped(members), tmp_path)
    missing = f"the column {name} is missing" if name != DOCUMENT_MEMBER else "a zip file without overlapviz.json"
    assert missing in message


def test_other_zips_extra_twice_and_compressed_members(tmp_path):
    assert "without overlapviz.json" in refusal(zipped({"a.txt": b"hello"}), tmp_path)
    assert "'x.npy', which is no column" in refusal(with_member("x.npy", npy(np.zeros(2))), tmp_path)
    members = list(good_members().items())
    with pytest.warns(UserWarning, match="Duplicate name"):
        twice = zipped([*members, members[1]])
    assert "'kind.npy' twice" in refusal(twice, tmp_path)
    assert "is compressed" in refusal(zipped(dict(members), zipfile.ZIP_DEFLATED), tmp_path)


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda d: d.update({COLUMNAR_KEY: 2}), "columnar format 2; this overlapviz reads formats up to 1"),
        (lambda d: d.pop(COLUMNAR_KEY), "overlapviz_columns is not a format version: None"),
        (lambda d: d.update({COLUMNAR_KEY: True}), "not a format version: True"),
        (lambda d: d["trace"].update({"names": [1]}), "trace.names is missing or is not a list"),
        (lambda d: d["trace"].update({"meta": []}), "trace.meta is not an object"),
        (lambda d: d["trace"]["meta"].update({"device_name": "x" * 5000}), "meta.device_name is 5,000 characters"),
        (lambda d: d["trace"].update({"names": d["trace"]["names"][:1]}), "is not one of the 1 span names"),
        (lambda d: d.update({"trace": 3}), "trace is not an object"),
        (lambda d: d.update({"session": []}), "session is not an object"),
    ],
)
def test_a_bad_document(change, words, tmp_path):
    assert words in refusal(with_document(change), tmp_path)


def test_a_document_that_is_no_json(tmp_path):
    assert "overlapviz.json: not a JSON file" in refusal(with_member(DOCUMENT_MEMBER, b"{nope"), tmp_path)
    assert "overlapviz.json is not an object" in refusal(with_member(DOCUMENT_MEMBER, b"[1]"), tmp_path)
    assert "nested too deeply" in refusal(with_member(DOCUMENT_MEMBER, b"[" * 100_000), tmp_path)


@pytest.mark.parametrize(
    ("column", "value", "words"),
    [
        ("kind", 99, "kind 99 is no kind overlapviz knows"),
        ("unit", -1, "unit -1 is no unit"),
        ("memory", 7, "memory 7 is no memory"),
        ("name", -1, "name -1 is not one of"),
        ("start_ns", 10**15, "ends before it starts"),
        ("op", 10**6, "op 1000000 is not a row of this trace"),
        ("bytes", -5, "bytes is negative"),
        ("ready_ns", -7, "ready_ns is negative"),
    ],
)
def test_values_out_of_range(column, value, words, tmp_path):
    members = good_members()
    with zipfile.ZipFile(io.BytesIO(zipped(members))) as archive, archive.open(f"{column}.npy") as stream:
        array = np.lib.format.read_array(stream).copy()
    array[1] = value
    assert words in refusal(with_member(f"{column}.npy", npy(array)), tmp_path)


def test_settings_out_of_range_are_refused_by_the_app_not_the_command_line(tmp_path):
    trace = pipeline_trace(chunks=2)
    raw = columnar_bytes(SessionData(None, trace.with_meta(config={"chunks": -3})), session=False)
    assert len(columnar_trace(raw, "t.ovz")) == len(trace)
    with pytest.raises(TraceFormatError, match=r"^t\.ovz: .*chunks"):
        columnar_session(raw, "t.ovz")


def test_a_directory_listing_thousands_of_members_is_refused_before_zipfile_lists_it(tmp_path):
    many = [(f"padding/member-{number:06d}-of-a-hostile-file", b"") for number in range(24_000)]
    assert "its directory takes" in refusal(zipped([*good_members().items(), *many]), tmp_path)


def test_a_directory_size_claimed_through_zip64_is_checked_too(tmp_path):
    raw = io.BytesIO()
    with zipfile.ZipFile(raw, "w", allowZip64=True) as archive:
        for name, data in good_members().items():
            archive.writestr(name, data)
    data = bytearray(raw.getvalue())
    end = data.rfind(b"PK\x05\x06")
    locator = 20  # a zip64 end-of-directory locator comes just before the end record
    record = 56  # and the zip64 end record (its fixed part) just before the locator
    # Build a zip64 record and locator claiming a directory of 5 MB, as a hostile writer may.
    directory_at = int.from_bytes(data[end + 16 : end + 20], "little")
    zip64 = (
        b"PK\x06\x06" + (record - 12).to_bytes(8, "little") + (45).to_bytes(2, "little") + (45).to_bytes(2, "little")
        + bytes(8) + (15).to_bytes(8, "little") + (15).to_bytes(8, "little")
        + (5 * 1024**2).to_bytes(8, "little") + directory_at.to_bytes(8, "little")
    )  # fmt: skip
    locator_bytes = b"PK\x06\x07" + bytes(4) + end.to_bytes(8, "little") + (1).to_bytes(4, "little")
    assert len(zip64) == record and len(locator_bytes) == locator
    forged = bytes(data[:end]) + zip64 + locator_bytes + bytes(data[end:])
    assert "its directory takes 5,242,880 bytes" in refusal(forged, tmp_path)

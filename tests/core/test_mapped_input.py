"""Large input is mapped rather than copied, and no valid file is refused for its size alone.

`MAP_MIN_BYTES` is lowered so that small files take the path of large ones.
"""

import errno
import gzip
import mmap
from pathlib import Path

import numpy as np
import pytest

from overlapviz.core.files import safe_read
from overlapviz.core.files.safe_read import MAX_INPUT_ENV, InputFileError, map_input, release_pages
from overlapviz.core.files.trace_export import CSV_HEADER
from overlapviz.core.files.trace_format import TraceFormatError
from overlapviz.importers.read import read_trace_file, read_with_settings

TORCH = Path(__file__).resolve().parents[1] / "data" / "torch"


@pytest.fixture(autouse=True)
def small_maps(monkeypatch):
    monkeypatch.delenv(MAX_INPUT_ENV, raising=False)
    monkeypatch.setattr(safe_read, "MAP_MIN_BYTES", 16)


def test_a_small_file_is_read_as_bytes(tmp_path):
    (tmp_path / "t.json").write_bytes(b"{}")
    assert map_input(tmp_path / "t.json") == b"{}"


@pytest.mark.parametrize("compressed", [False, True], ids=["plain", "gzip"])
def test_a_large_file_is_mapped_whole(tmp_path, compressed):
    data = b'{"traceEvents": []}' * 100
    (tmp_path / "t.json").write_bytes(gzip.compress(data) if compressed else data)
    mapped = map_input(tmp_path / "t.json")
    assert isinstance(mapped, mmap.mmap)
    with mapped:
        release_pages(mapped)  # let go of, not lost: read again when touched
        assert mapped[:] == data


def test_a_large_file_is_copied_by_hand_where_the_system_cannot(tmp_path, monkeypatch):
    def cannot(*_args):
        raise OSError(errno.EXDEV, "Invalid cross-device link")

    data = bytes(range(256)) * 64
    (tmp_path / "t.json").write_bytes(data)
    monkeypatch.setattr(safe_read.os, "copy_file_range", cannot)
    with map_input(tmp_path / "t.json") as mapped:
        assert mapped[:] == data


@pytest.mark.parametrize("size", [100, 3 * 1024**2 + 7], ids=["in memory", "on disk"])
def test_gzip_decompressed_once_reads_whole_from_memory_or_disk(tmp_path, monkeypatch, size):
    monkeypatch.setattr(safe_read, "MAP_MIN_BYTES", 2**62)
    data = np.random.default_rng(size).integers(0, 8, size, dtype=np.uint8).tobytes()  # compresses, unlike noise
    (tmp_path / "t.json.gz").write_bytes(gzip.compress(data, compresslevel=1))
    assert map_input(tmp_path / "t.json.gz") == data
    assert safe_read.read_input_bytes(tmp_path / "t.json.gz") == data


def test_a_gzip_bomb_is_refused_before_it_is_unpacked_anywhere(tmp_path):
    (tmp_path / "bomb.json.gz").write_bytes(gzip.compress(b"\0" * 1024**2))
    with pytest.raises(InputFileError, match="it decompresses to more than the limit of 1000 bytes"):
        map_input(tmp_path / "bomb.json.gz", max_bytes=1000)


def test_without_a_set_limit_only_more_than_the_machines_memory_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(safe_read, "machine_memory_bytes", lambda: 100)
    (tmp_path / "t.json").write_bytes(b" " * 101)
    (tmp_path / "t.json.gz").write_bytes(gzip.compress(b" " * 101))
    for read in (map_input, safe_read.read_input_bytes):
        with pytest.raises(InputFileError, match=r"it is larger than this machine's memory \(100 bytes\) can hold"):
            read(tmp_path / "t.json")
        with pytest.raises(InputFileError, match=r"decompresses to more than this machine's memory \(100 bytes\)"):
            read(tmp_path / "t.json.gz")


@pytest.mark.parametrize("name", ["torch-train-step.json.gz", "torch-dataloader.json.gz"])
def test_a_mapped_pytorch_trace_reads_as_the_same_trace(tmp_path, monkeypatch, name):
    plain = tmp_path / "trace.json"
    plain.write_bytes(gzip.decompress((TORCH / name).read_bytes()))
    mapped = read_trace_file(plain)
    monkeypatch.setattr(safe_read, "MAP_MIN_BYTES", 2**62)
    copied = read_trace_file(plain)
    assert mapped.names == copied.names
    assert mapped.columns.keys() == copied.columns.keys()
    for column in mapped.columns:
        np.testing.assert_array_equal(mapped[column], copied[column])
    assert read_with_settings(plain).trace is not None


def test_a_damaged_mapped_pytorch_trace_says_what_is_wrong(tmp_path):
    data = gzip.decompress((TORCH / "torch-train-step.json.gz").read_bytes())
    (tmp_path / "cut.json").write_bytes(data[: len(data) // 2])
    with pytest.raises(TraceFormatError, match="not JSON"):
        read_trace_file(tmp_path / "cut.json")


def test_a_large_file_of_another_kind_is_still_read(tmp_path):
    (tmp_path / "t.csv").write_bytes(",".join(CSV_HEADER).encode() + b"\n" + b"1,2,3\n" * 10)
    with pytest.raises(TraceFormatError, match="CSV export"):
        read_trace_file(tmp_path / "t.csv")

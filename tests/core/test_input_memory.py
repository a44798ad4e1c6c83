"""How much memory reading an input file takes: the input held once, a gzip bomb refused holding none of it.

Peaks are Python's allocations (tracemalloc) while one file is read, with the size limit
scaled down from 2 GiB to `LIMIT` so that the test itself stays small and quick; the code
reads in pieces of 1 MiB whatever the limit, so the proportions are those of a full-size
file.
"""

from __future__ import annotations

import gzip
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest

from overlapviz.app.session_file import SessionFormatError, open_file
from overlapviz.core.files.safe_read import MAX_INPUT_ENV, InputFileError, read_input_bytes
from overlapviz.core.files.trace_format import TraceFormatError
from overlapviz.importers.read import read_trace_file

MIB = 1024**2
LIMIT = 24 * MIB


@pytest.fixture(autouse=True)
def small_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(MAX_INPUT_ENV, str(LIMIT))
    monkeypatch.setattr("overlapviz.core.files.trace_import.PYTHON_JSON_BYTES", MIB, raising=False)


def peak_while(read: Callable[[Path], object], path: Path) -> int:
    """The most memory Python held at once, above what it held before, while `read(path)` ran."""
    tracemalloc.start()
    try:
        read(path)
    except (InputFileError, TraceFormatError, SessionFormatError):
        pass  # refused, as it should be: the peak on the way is what counts here
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return peak


def gzip_of(path: Path, piece: bytes, pieces: int) -> Path:
    with gzip.open(path, "wb", compresslevel=1) as stream:
        for _ in range(pieces):
            stream.write(piece)
    return path


def test_a_gzip_bomb_is_refused_holding_almost_none_of_it(tmp_path):
    bomb = gzip_of(tmp_path / "bomb.json.gz", b"\0" * MIB, 3 * LIMIT // MIB)
    with pytest.raises(InputFileError, match="decompresses to more than the limit"):
        read_input_bytes(bomb)
    assert peak_while(read_input_bytes, bomb) < LIMIT / 4  # a few pieces of 1 MiB on their way through


def test_gzip_within_the_limit_is_held_once(tmp_path):
    fits = gzip_of(tmp_path / "fits.json.gz", b" " * MIB, LIMIT // MIB)
    assert len(read_input_bytes(fits)) == LIMIT
    assert peak_while(read_input_bytes, fits) < 1.2 * LIMIT


@pytest.mark.parametrize("read", [read_trace_file, open_file], ids=["trace", "session"])
def test_a_file_of_spaces_at_the_limit_is_held_once_on_its_way_to_refusal(tmp_path, read):
    spaces = tmp_path / "spaces.json"
    spaces.write_bytes(b" " * LIMIT)
    with pytest.raises((TraceFormatError, SessionFormatError), match="not a JSON file"):
        read(spaces)
    assert peak_while(read, spaces) < 1.2 * LIMIT

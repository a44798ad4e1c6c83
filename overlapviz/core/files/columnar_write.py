"""overlapviz's columnar file (``.ovz``): a trace, or a session, as NumPy columns in one zip.

A Chrome trace of 10^6 spans is about 550 MB of JSON that takes seconds to parse; the same
spans as columns are about 70 MB and open in a fraction of a second
(``benchmarks/own_file_scale.py`` measures both). The file is an uncompressed ``.npz``, so
``numpy.load(path, allow_pickle=False)`` opens it too:

- ``overlapviz.json``: ``{"overlapviz_columns": 1, "session": ..., "trace": ...}``. ``session``
  is null for a trace file, else ``{"config", "backend", "device"}`` as a session file holds
  them (`core.files.session_document`); ``trace`` is null for a session without a trace, else
  ``{"meta", "names"}``: the trace's metadata and span names, as a Chrome trace's
  ``otherData`` holds them.
- one ``<column>.npy`` per column of `core.trace.columns.COLUMNS`, little-endian, one value per
  span, present exactly when ``trace`` is not null.

Members are stored, never compressed (gzip the whole file to make it smaller: every reader
un-gzips by content), each column's values aligned to 64 bytes in the file (so that they are
used where they lie, not copied), and dated 1980-01-01, so that one trace always gives the
same bytes.
Which files are written this way is decided by their suffix (`COLUMNAR_SUFFIXES`); reading
is `core.files.columnar_read`'s, by content.
"""

from __future__ import annotations

import io
import json
import os
import struct
import zipfile
from pathlib import PurePath
from typing import Any

import numpy as np

from overlapviz.core.files.atomic_write import atomic_write_bytes
from overlapviz.core.files.session_document import SessionData
from overlapviz.core.files.trace_export import json_value
from overlapviz.core.trace.columns import COLUMNS
from overlapviz.core.trace.spans import Trace

COLUMNAR_VERSION = 1
COLUMNAR_KEY = "overlapviz_columns"
COLUMNAR_SUFFIXES = (".ovz", ".npz")  # the names a user picks for this form; Chrome JSON for any other
DOCUMENT_MEMBER = "overlapviz.json"
ZIP_MAGIC = b"PK\x03\x04"
_ALIGN = 64
_PADDING_ID = 0xD935  # the extra field zipalign pads with
_PADDING_HEAD = 4  # an extra field's id and length
_LOCAL_HEADER_SIZE = 30  # a member's own header, before its name and extra field
_ZIP64_EXTRA_SIZE = 20
_FIXED_DATE = (1980, 1, 1, 0, 0, 0)  # the earliest a zip can say: the same trace, the same bytes


def is_columnar_name(path: str | os.PathLike[str]) -> bool:
    """Whether a file to write at `path` takes the columnar form (by its suffix, any case)."""
    return PurePath(path).suffix.lower() in COLUMNAR_SUFFIXES


def column_member(name: str) -> str:
    """The zip member that holds column `name`."""
    return f"{name}.npy"


def column_dtype(name: str) -> np.dtype[Any]:
    """The type column `name` is stored as: its own, little-endian."""
    return np.dtype(COLUMNS[name]).newbyteorder("<")


def export_columnar(trace: Trace, path: str | os.PathLike[str]) -> None:
    """Write `trace` as a columnar trace file, atomically.

    Raises
    ------
    OSError
        The file could not be written; nothing is left behind.
    """
    atomic_write_bytes(path, columnar_bytes(SessionData(None, trace), session=False))


def save_columnar_session(path: str | os.PathLike[str], data: SessionData) -> None:
    """Write the session `data` (settings, and the trace when there is one) as a columnar file, atomically."""
    atomic_write_bytes(path, columnar_bytes(data, session=True))


def columnar_bytes(data: SessionData, *, session: bool) -> bytes:
    """The columnar file for `data`: a session's (with its settings) or, `session` False, a trace's alone."""
    trace = data.trace
    document = {
        COLUMNAR_KEY: COLUMNAR_VERSION,
        "session": _settings(data) if session else None,
        "trace": None if trace is None else {"meta": trace.meta.to_dict(), "names": list(trace.names)},
    }
    text = json.dumps(document, separators=(",", ":"), allow_nan=False, default=json_value)
    columns = {} if trace is None else {name: trace[name] for name in COLUMNS}
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_STORED, allowZip64=True) as archive:
        archive.writestr(_member(DOCUMENT_MEMBER), text.encode())
        for name, values in columns.items():
            npy = io.BytesIO()
            np.lib.format.write_array(npy, np.asarray(values, dtype=column_dtype(name)), allow_pickle=False)
            archive.writestr(_aligned(column_member(name), buffer, len(npy.getbuffer())), npy.getvalue())
    return buffer.getvalue()  # the buffer's own bytes, not a copy, while nothing else refers to it


def _aligned(name: str, buffer: io.BytesIO, size: int) -> zipfile.ZipInfo:
    """A member to be written at the end of `buffer` whose data begins at a multiple of `_ALIGN` in the file.

    A ``.npy`` header fills a multiple of 64 bytes, so the column's values are aligned too,
    and a reader uses them where they lie. The member's extra field pads its own header,
    as Android's zipalign does; zip readers skip it.
    """
    info = _member(name)
    header = _LOCAL_HEADER_SIZE + len(name.encode()) + _PADDING_HEAD
    if size * 1.05 > zipfile.ZIP64_LIMIT:  # zipfile then adds its zip64 sizes to the member's header
        header += _ZIP64_EXTRA_SIZE
    padding = -(buffer.seek(0, io.SEEK_END) + header) % _ALIGN
    info.extra = struct.pack("<HH", _PADDING_ID, padding) + bytes(padding)
    return info


def _settings(data: SessionData) -> dict[str, Any]:
    config = None if data.config is None else data.config.to_dict()
    return {"config": config, "backend": data.backend, "device": data.device}


def _member(name: str) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name, date_time=_FIXED_DATE)
    info.compress_type = zipfile.ZIP_STORED
    info.external_attr = 0o644 << 16  # an ordinary readable file, for unzip
    return info

"""Reading overlapviz's columnar file (`core.files.columnar_write`) back into exactly what was written.

The file is untrusted: nothing in it is unpickled or taken on its word. Every member must be
stored (no zip bomb), each column a one-dimensional array of exactly its own type (so an
object array, which only pickle could read, is refused by its header), all of one length,
holding exactly the bytes its header declares; then the values meet the rules of a Chrome
trace's: known kinds, units and memory kinds, names that exist, `check_spans`, and the
metadata through `TraceMeta.from_dict`. Any fault is one `TraceFormatError` naming the file.
"""

from __future__ import annotations

import io
import struct
import zipfile
import zlib
from collections import Counter
from typing import IO, Any

import numpy as np
import numpy.typing as npt

from overlapviz.core.config import ConfigError
from overlapviz.core.files.columnar_write import (
    COLUMNAR_KEY,
    COLUMNAR_VERSION,
    DOCUMENT_MEMBER,
    ZIP_MAGIC,
    column_dtype,
    column_member,
)
from overlapviz.core.files.session_document import SessionData, config_of
from overlapviz.core.files.trace_format import TraceFormatError
from overlapviz.core.files.trace_import import parse_json
from overlapviz.core.i18n import _, grouped, pgettext
from overlapviz.core.trace.checks import MAX_ROWS, TraceValueError, short_repr
from overlapviz.core.trace.columns import COLUMNS
from overlapviz.core.trace.meta import TraceMeta
from overlapviz.core.trace.spans import MemoryKind, OpKind, Trace, Unit, check_spans

_MAX_NPY_HEADER = 10_000  # bytes of a column's header: ours are under 128
_NPY_HEADER_READERS = {(1, 0): np.lib.format.read_array_header_1_0, (2, 0): np.lib.format.read_array_header_2_0}
_LOCAL_HEADER = struct.Struct("<4s2B4HL2L2H")  # a zip member's own header, as zipfile reads it
_NAME_LENGTH, _EXTRA_LENGTH = 10, 11  # its fields that say how long the name and the extra field after it are
# The end of a zip's directory (its record, and zip64's locator and record) as zipfile reads them.
_END_OF_DIRECTORY, _ZIP64_LOCATOR_MAGIC = b"PK\x05\x06", b"PK\x06\x07"
_END_RECORD, _ZIP64_LOCATOR = struct.Struct("<4s4H2LH"), struct.Struct("<4sLQL")
_ZIP64_END_RECORD = struct.Struct("<4sQ2H2L4Q")
_DIRECTORY_SIZE, _ZIP64_RECORD_AT, _ZIP64_DIRECTORY_SIZE = 5, 2, 8
_END_SEARCH_BYTES = _END_RECORD.size + 0xFFFF  # the record, and the longest comment after it
_MAX_DIRECTORY_BYTES = 1024**2  # a trace's 15 members need about 2 KB
_KNOWN_VALUES = {"kind": OpKind, "unit": Unit, "memory": MemoryKind}
# What a damaged zip makes Python's zipfile and NumPy's header reader raise.
_DAMAGED = (
    zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, OSError, ValueError, NotImplementedError, RuntimeError,
    KeyError, struct.error, zlib.error, OverflowError, SyntaxError,
)  # fmt: skip


def is_columnar(raw: bytes) -> bool:
    """Whether a file's bytes are a zip, as overlapviz's columnar file is (any other zip is refused when read)."""
    return raw.startswith(ZIP_MAGIC)


def columnar_trace(raw: bytes, source: str) -> Trace:
    """The trace in the columnar file `raw` (read from `source`), of a trace file or a session.

    Raises
    ------
    TraceFormatError
        The file is damaged, not overlapviz's, or a session without a trace; the message names `source`.
    """
    trace = _read(raw, source)[1]
    if trace is None:
        raise TraceFormatError(_("{file}: a session without a trace").format(file=source))
    return trace


def columnar_session(raw: bytes, source: str) -> SessionData:
    """What the columnar file `raw` holds with its settings: a session's own, or those in a trace's metadata.

    Raises
    ------
    TraceFormatError
        The file is damaged or not overlapviz's, or a setting is unknown or out of range; the
        message names `source`.
    """
    session, trace = _read(raw, source)
    try:
        if session is None and trace is not None:  # a trace file: the settings that made it are in its metadata
            return SessionData(config_of(trace.meta.config), trace, trace.meta.backend, trace.meta.device)
        session = session or {}
        backend, device = session.get("backend"), session.get("device")
        return SessionData(
            config_of(session.get("config")),
            trace,
            backend if isinstance(backend, str) else None,
            device if isinstance(device, str) else None,
        )
    except (TraceFormatError, ConfigError, TypeError) as error:
        raise TraceFormatError(f"{source}: {error}") from None


def _read(raw: bytes, source: str) -> tuple[dict[str, Any] | None, Trace | None]:
    """The session part (None: a trace file) and the trace (None: a session without one)."""
    try:
        _check_directory_size(raw)
        with zipfile.ZipFile(io.BytesIO(raw)) as archive:
            return _contents(archive, raw)
    except (TraceFormatError, TraceValueError) as error:
        raise TraceFormatError(f"{source}: {error}") from None
    except _DAMAGED as error:
        why = str(error)[:200] or type(error).__name__
        raise TraceFormatError(_("{file}: a damaged zip file ({why})").format(file=source, why=why)) from None


def _check_directory_size(raw: bytes) -> None:
    """Refuse a zip whose directory is far longer than a trace's few members need.

    zipfile makes an object of every entry its directory lists before anything else can be
    checked: a hostile file listing millions would take the reading process's memory.
    """
    end = raw.rfind(_END_OF_DIRECTORY, max(0, len(raw) - _END_SEARCH_BYTES))
    if end < 0:
        return  # no directory at all: zipfile says the file is damaged
    size = _END_RECORD.unpack_from(raw, end)[_DIRECTORY_SIZE]
    locator = end - _ZIP64_LOCATOR.size
    if locator >= 0 and raw.startswith(_ZIP64_LOCATOR_MAGIC, locator):  # zipfile then reads the zip64 record's size
        record = _ZIP64_LOCATOR.unpack_from(raw, locator)[_ZIP64_RECORD_AT]
        if 0 <= record <= len(raw) - _ZIP64_END_RECORD.size:
            size = _ZIP64_END_RECORD.unpack_from(raw, record)[_ZIP64_DIRECTORY_SIZE]
    if size > _MAX_DIRECTORY_BYTES:
        message = _("its directory takes {size} bytes, far more than a trace's columns need")
        raise TraceFormatError(message.format(size=grouped(size)))


def _contents(archive: zipfile.ZipFile, raw: bytes) -> tuple[dict[str, Any] | None, Trace | None]:
    members = _check_members(archive, len(raw))
    document = _document(archive.read(DOCUMENT_MEMBER))
    session, trace_part = document.get("session"), document.get("trace")
    if session is not None and not isinstance(session, dict):
        raise TraceFormatError(_("{member}: {name} is not an object").format(member=DOCUMENT_MEMBER, name="session"))
    expected = set() if trace_part is None else {column_member(name) for name in COLUMNS}
    if missing := sorted(expected - members):
        raise TraceFormatError(_("the column {column} is missing").format(column=missing[0]))
    if extra := sorted(members - expected):
        raise TraceFormatError(
            _("it holds {member}, which is no column of a trace").format(member=short_repr(extra[0]))
        )
    if trace_part is None:
        return session, None
    return session, _trace(archive, raw, trace_part)


def _check_members(archive: zipfile.ZipFile, size: int) -> set[str]:
    """The names of the column members; raises for a member not stored whole, twice or too large."""
    names = [info.filename for info in archive.infolist()]
    if DOCUMENT_MEMBER not in names:
        message = _("a zip file without {member}; overlapviz opens only the columnar files it wrote (.ovz)")
        raise TraceFormatError(message.format(member=DOCUMENT_MEMBER))
    if len(set(names)) < len(names):
        twice = next(name for name, count in Counter(names).items() if count > 1)
        raise TraceFormatError(_("it holds {member} twice").format(member=short_repr(twice)))
    for info in archive.infolist():
        if info.compress_type != zipfile.ZIP_STORED:
            message = _("{member} is compressed; overlapviz reads stored members (gzip the whole file instead)")
            raise TraceFormatError(message.format(member=short_repr(info.filename)))
        if info.file_size > size:
            message = _("{member} declares {size} bytes, more than the file")
            raise TraceFormatError(message.format(member=short_repr(info.filename), size=grouped(info.file_size)))
    return set(names) - {DOCUMENT_MEMBER}


def _document(text: bytes) -> dict[str, Any]:
    document = parse_json(text, DOCUMENT_MEMBER)
    if not isinstance(document, dict):
        raise TraceFormatError(_("{member} is not an object").format(member=DOCUMENT_MEMBER))
    version = document.get(COLUMNAR_KEY)
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        message = _("{member}: {key} is not a format version: {value}")
        raise TraceFormatError(message.format(member=DOCUMENT_MEMBER, key=COLUMNAR_KEY, value=short_repr(version)))
    if version > COLUMNAR_VERSION:
        message = _(
            "written in columnar format {version}; this overlapviz reads formats up to {newest} (update overlapviz)"
        )
        raise TraceFormatError(message.format(version=version, newest=COLUMNAR_VERSION))
    return document


def _trace(archive: zipfile.ZipFile, raw: bytes, part: object) -> Trace:
    if not isinstance(part, dict):
        raise TraceFormatError(_("{member}: {name} is not an object").format(member=DOCUMENT_MEMBER, name="trace"))
    names, meta = part.get("names"), part.get("meta", {})
    if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
        message = _("{member}: trace.names is missing or is not a list of span names")
        raise TraceFormatError(message.format(member=DOCUMENT_MEMBER))
    if not isinstance(meta, dict):
        raise TraceFormatError(_("{member}: {name} is not an object").format(member=DOCUMENT_MEMBER, name="trace.meta"))
    columns = {name: _column(archive, raw, name) for name in COLUMNS}
    lengths = {len(values) for values in columns.values()}
    if len(lengths) > 1:
        counts = pgettext("list", ", ").join(map(str, sorted(lengths)))
        raise TraceFormatError(_("the columns differ in length ({counts} values)").format(counts=counts))
    _check_values(columns, len(names))
    trace = Trace(columns, tuple(names), TraceMeta.from_dict(meta))
    check_spans(trace)
    return trace


def _column(archive: zipfile.ZipFile, raw: bytes, name: str) -> npt.NDArray[Any]:
    """Column `name`: its header checked against what it must be, then its values where they lie in `raw`.

    The values are not copied out of the file's bytes unless they lie unaligned there (a file
    overlapviz wrote aligns them); the member's checksum is checked over them first.
    """
    member, dtype = column_member(name), column_dtype(name)
    info = archive.getinfo(member)
    with archive.open(info) as stream:  # checks the member's own header against the zip's directory
        length = _checked_header(stream, name)
        header = stream.tell()
    if info.file_size - header != length * dtype.itemsize:
        message = _("{member} declares {count} values but holds another number of bytes")
        raise TraceFormatError(message.format(member=member, count=grouped(length)))
    start = _data_start(raw, info)
    if start + info.file_size > len(raw):
        raise TraceFormatError(
            _("{member} ends before its {count} values").format(member=member, count=grouped(length))
        )
    if zlib.crc32(memoryview(raw)[start : start + info.file_size]) != info.CRC:
        raise TraceFormatError(_("{member} is damaged: its checksum does not match").format(member=member))
    column = np.frombuffer(raw, dtype=dtype, count=length, offset=start + header)
    if column.ctypes.data % dtype.itemsize:
        column = column.copy()  # unaligned values would slow every computation on them
    return column.astype(COLUMNS[name], copy=False)


def _data_start(raw: bytes, info: zipfile.ZipInfo) -> int:
    """Where a member's data begins in the file: after its own header (which zipfile has already checked)."""
    fields = _LOCAL_HEADER.unpack_from(raw, info.header_offset)
    return int(info.header_offset + _LOCAL_HEADER.size + fields[_NAME_LENGTH] + fields[_EXTRA_LENGTH])


def _checked_header(stream: IO[bytes], name: str) -> int:
    """The number of values a column's ``.npy`` header declares, once it says one dimension of the right type."""
    member = column_member(name)
    version = np.lib.format.read_magic(stream)
    if version not in _NPY_HEADER_READERS:
        raise TraceFormatError(
            _("{member}: .npy format {version} (overlapviz reads 1.0 and 2.0)").format(member=member, version=version)
        )
    shape, _fortran, dtype = _NPY_HEADER_READERS[version](stream, max_header_size=_MAX_NPY_HEADER)
    if dtype != column_dtype(name):
        message = _("{member} holds {dtype}; the column {name} is {column_dtype}")
        raise TraceFormatError(message.format(member=member, dtype=dtype, name=name, column_dtype=column_dtype(name)))
    if len(shape) != 1:
        message = _("{member} has {count} dimensions; a column has one")
        raise TraceFormatError(message.format(member=member, count=len(shape)))
    if not 0 <= shape[0] <= MAX_ROWS:
        message = _("{member} declares {count} values; at most {most}")
        raise TraceFormatError(message.format(member=member, count=grouped(shape[0]), most=grouped(MAX_ROWS)))
    return int(shape[0])


def _check_values(columns: dict[str, npt.NDArray[Any]], names: int) -> None:
    """Kinds, units and memory kinds that exist, names in the list, no span ending before it starts."""
    for column, known in _KNOWN_VALUES.items():
        values = columns[column]
        if values.size and {int(v) for v in known} >= set(range(int(values.min()), int(values.max()) + 1)):
            continue  # every value lies in a run of known ones: no need to look at each
        bad = np.flatnonzero(~np.isin(values, [int(value) for value in known]))
        if bad.size:
            message = _("row {row}: {column} {value} is no {column} overlapviz knows")
            raise TraceFormatError(message.format(row=bad[0], column=column, value=columns[column][bad[0]]))
    bad = np.flatnonzero((columns["name"] < 0) | (columns["name"] >= names))
    if bad.size:
        message = _("row {row}: name {value} is not one of the {count} span names")
        raise TraceFormatError(message.format(row=bad[0], value=columns["name"][bad[0]], count=names))
    bad = np.flatnonzero(columns["end_ns"] < columns["start_ns"])
    if bad.size:
        raise TraceFormatError(_("row {row} ends before it starts").format(row=bad[0]))

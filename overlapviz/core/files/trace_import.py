"""Reading a Chrome trace that overlapviz wrote (`core.files.trace_format`) back into exactly its trace.

A well-formed file is decoded straight into columns (`trace_at_once`); any other is parsed
(`parse_json`) and read event by event (`trace_from_chrome`), which names the event and what
is wrong with it.
"""

from __future__ import annotations

import json
import os
from typing import Any

import msgspec
import numpy as np
import numpy.typing as npt

from overlapviz.core.files.safe_read import read_input_bytes
from overlapviz.core.files.trace_format import (
    FORMAT_VERSION,
    INT_ARGS,
    KIND_WORDS,
    MEMORY_WORDS,
    UNIT_WORDS,
    WORD_COLUMNS,
    TraceFormatError,
)
from overlapviz.core.i18n import N_, _
from overlapviz.core.trace.checks import MAX_ROWS, TraceValueError, check_int, column_range, short_repr
from overlapviz.core.trace.columns import COLUMNS, PLACEMENT_COLUMNS
from overlapviz.core.trace.meta import TraceMeta
from overlapviz.core.trace.spans import Trace, check_spans

PYTHON_JSON_BYTES = 64 * 1024**2  # the largest JSON file read again as text when the strict reader refuses it
_UTF8_BOM = b"\xef\xbb\xbf"
_NOT_OURS = N_("overlapviz can only open traces it wrote")


def import_chrome(path: str | os.PathLike[str]) -> Trace:
    """Read a Chrome trace JSON file that overlapviz wrote, plain or gzip-compressed.

    Parameters
    ----------
    path
        The file to read: a regular file within the input size limit (see `core.files.safe_read`).

    Returns
    -------
    Trace
        The same spans, names and metadata that were exported.

    Raises
    ------
    TraceFormatError
        The file is not JSON, or not a trace overlapviz wrote; the message names the file
        and what is missing.
    InputFileError
        The file could not be read, is not a regular file, or is over the size limit (it is
        an `OSError`).
    """
    return trace_from_bytes(read_input_bytes(path, what="trace"), os.fspath(path))


def trace_from_bytes(raw: bytes, source: str) -> Trace:
    """The trace in `raw`, a Chrome trace overlapviz wrote, read from `source`.

    The fast way when it is well formed, else the way that says what is wrong, naming `source`.
    """
    at_once = trace_at_once(raw)
    if at_once is not None:
        return at_once
    data = parse_json(raw, source)
    try:
        return trace_from_chrome(data)
    except TraceFormatError as error:
        raise TraceFormatError(f"{source}: {error}") from None


def parse_json(raw: bytes, path: str | os.PathLike[str]) -> Any:
    """Parse a file's bytes as JSON; a `TraceFormatError` naming the file if they are not, or nest too deep.

    The bytes are parsed where they lie (msgspec), never first copied into text. What that
    strict reader refuses, Python's reader tries again (it also takes UTF-16, ``NaN`` and
    lone surrogates, and says where a fault is by line), but only in a file of at most
    `PYTHON_JSON_BYTES`: it holds the file a second time, as text.
    """
    try:
        return msgspec.json.decode(memoryview(raw)[len(_UTF8_BOM) :] if raw.startswith(_UTF8_BOM) else raw)
    except RecursionError:
        raise TraceFormatError(_("{file}: its JSON is nested too deeply to be a trace").format(file=path)) from None
    except msgspec.DecodeError as error:
        if len(raw) > PYTHON_JSON_BYTES:
            raise TraceFormatError(
                _("{file}: not a JSON file ({why})").format(file=path, why=str(error)[:200])
            ) from None
    return _python_json(raw, path)


def _python_json(raw: bytes, path: str | os.PathLike[str]) -> Any:
    try:
        return json.loads(raw)
    except RecursionError:
        raise TraceFormatError(_("{file}: its JSON is nested too deeply to be a trace").format(file=path)) from None
    except ValueError as error:
        raise TraceFormatError(_("{file}: not a JSON file ({why})").format(file=path, why=str(error)[:200])) from None


def trace_from_chrome(data: object) -> Trace:
    """Rebuild a trace from `chrome_dict` output (parsed JSON).

    Parameters
    ----------
    data
        The parsed JSON document.

    Returns
    -------
    Trace
        The trace that was exported.

    Raises
    ------
    TraceFormatError
        `data` is not a trace overlapviz wrote; the message says what is missing.
    """
    events, other = _document_parts(data)
    int_args = _int_args_of(other["overlapviz"])
    names = other.get("names")
    meta = other.get("meta", {})
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise TraceFormatError(_("otherData.names is missing or is not a list of span names"))
    if not isinstance(meta, dict):
        raise TraceFormatError(_("{name} is not an object").format(name="otherData.meta"))
    name_index = {name: i for i, name in enumerate(names)}
    columns = _columns_at_once(events, name_index, int_args)
    if columns is None:  # something is wrong: the event-by-event reading finds it and says where
        columns = _columns_of(_rows_one_by_one(events, name_index, int_args))
    try:
        trace = Trace(columns, tuple(names), TraceMeta.from_dict(meta))
        check_spans(trace)
    except TraceValueError as error:
        raise TraceFormatError(str(error)) from None
    return trace


def _document_parts(data: object) -> tuple[list[Any], dict[str, Any]]:
    """Return the events and overlapviz's part of otherData; raise if the document is not ours."""
    if isinstance(data, list):
        raise TraceFormatError(_("a Chrome trace in the plain array format; {rule}").format(rule=_(_NOT_OURS)))
    if not isinstance(data, dict) or not isinstance(data.get("traceEvents"), list):
        raise TraceFormatError(_("not a Chrome trace: there is no traceEvents list"))
    other = data.get("otherData")
    if not isinstance(other, dict) or "overlapviz" not in other:
        message = _("a Chrome trace without overlapviz data (otherData.overlapviz); {rule}")
        raise TraceFormatError(message.format(rule=_(_NOT_OURS)))
    version = other["overlapviz"]
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise TraceFormatError(_("otherData.overlapviz is not a format version: {value}").format(value=repr(version)))
    if version > FORMAT_VERSION:
        message = _(
            "written in trace format {version}; this overlapviz reads formats up to {newest} (update overlapviz)"
        )
        raise TraceFormatError(message.format(version=version, newest=FORMAT_VERSION))
    return data["traceEvents"], other


def _int_args_of(version: int) -> tuple[str, ...]:
    """The integer columns a file of format `version` carries (format 1 has no GPU or host thread)."""
    return INT_ARGS if version >= 2 else tuple(a for a in INT_ARGS if a not in PLACEMENT_COLUMNS)


def _rows_one_by_one(
    events: list[Any], name_index: dict[str, int], int_args: tuple[str, ...]
) -> dict[int, dict[str, int]]:
    """Each row's column values, read and checked an event at a time; the first problem raised."""
    rows: dict[int, dict[str, int]] = {}
    for number, event in enumerate(events):
        parsed = _span_of(number, event, name_index, int_args)
        if parsed is not None:
            row, values = parsed
            if row in rows:
                raise TraceFormatError(_("event {number}: row {row} appears twice").format(number=number, row=row))
            rows[row] = values
    return rows


def _columns_at_once(
    events: list[Any], name_index: dict[str, int], int_args: tuple[str, ...]
) -> dict[str, npt.NDArray[Any]] | None:
    """The columns of a well-formed file's parsed events, a column at a time; None at the first doubt.

    Accepts exactly what `_rows_one_by_one` accepts, or less: a file it refuses is read again
    event by event, which names the event and what is wrong with it. A million spans read
    here in a few seconds, where checking them one by one in Python takes minutes.
    """
    if any(type(event) is not dict for event in events):
        return None
    drawn = [event for event in events if event.get("ph") == "X"]
    if any(type(event.get("args")) is not dict or type(event.get("name")) is not str for event in drawn):
        return None
    spans = [event for event in drawn if "copy_of" not in event["args"]]  # a span drawn twice is read once
    args = [event["args"] for event in spans]
    if any("row" not in a for a in args):
        return None
    try:
        words = {column: [a.get(column) for a in args] for column in WORD_COLUMNS}
        return _checked_columns(
            [name_index.get(event["name"], -1) for event in spans],
            words,
            {column: [a.get(column) for a in args] for column in ("row", *int_args)},
        )
    except TypeError:  # a word that is a list or an object
        return None


def _checked_columns(
    names: list[int], words: dict[str, list[Any]], ints: dict[str, list[Any]]
) -> dict[str, npt.NDArray[Any]] | None:
    """Every column in row order from its values per span, or None where any value is off.

    `names` index the file's names (-1: not one of them); `words` are the kind, unit and
    memory words; `ints` the integer columns the file has, "row" among them.
    """
    if -1 in names:
        return None
    found: dict[str, npt.NDArray[np.int64]] = {}
    for column, values in words.items():
        allowed = WORD_COLUMNS[column]
        numbers = [allowed.get(word) for word in values]
        if None in numbers:
            return None
        found[column] = np.array([int(number) for number in numbers if number is not None], dtype=np.int64)
    for column, values in ints.items():
        if any(type(value) is not int for value in values):  # bools, floats, text and missing ones too
            return None
        try:
            array = np.array(values, dtype=np.int64)
        except OverflowError:
            return None
        low, high = (0, MAX_ROWS - 1) if column == "row" else column_range(column)
        if array.size and (int(array.min()) < low or int(array.max()) > high):
            return None
        found[column] = array
    n = len(names)
    order = np.argsort(found["row"], kind="stable")
    if not np.array_equal(found["row"][order], np.arange(n)):
        return None  # rows missing or twice
    if np.any(found["end_ns"] < found["start_ns"]):
        return None
    found["name"] = np.array(names, dtype=np.int64)
    return {
        name: (found[name][order] if name in found else np.zeros(n, dtype=np.int64)).astype(dtype)
        for name, dtype in COLUMNS.items()
    }


class _Args(msgspec.Struct):
    """The args of an event, as `chrome_dict` writes them; a field of another type fails the decoding."""

    row: int | None = None
    copy_of: int | None = None
    kind: str | None = None
    unit: str | None = None
    memory: str | None = None
    stream: int | None = None
    chunk: int | None = None
    enqueue_ns: int | None = None
    ready_ns: int | None = None
    start_ns: int | None = None
    end_ns: int | None = None
    bytes: int | None = None
    op: int | None = None
    device: int | None = None
    thread: int | None = None


class _Event(msgspec.Struct):
    ph: str | None = None
    name: str | None = None
    args: _Args | None = None


class _Document(msgspec.Struct):
    traceEvents: list[_Event]  # noqa: N815 (the Chrome trace format's name)
    otherData: dict[str, Any]  # noqa: N815


def trace_at_once(raw: bytes) -> Trace | None:
    """The trace in `raw` if it is a well-formed file overlapviz wrote, decoded straight into columns.

    None for anything else (a session, another tool's trace, a file with any fault): those go
    through `parse_json` and `trace_from_chrome`, which say what is wrong and where. A
    well-formed file of 10^6 spans is decoded here without a dictionary per event.
    """
    try:
        document = msgspec.json.decode(raw, type=_Document)
        other = _document_parts({"traceEvents": [], "otherData": document.otherData})[1]
    except (msgspec.DecodeError, RecursionError, TraceFormatError):
        return None
    names, meta = other.get("names"), other.get("meta", {})
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names) or not isinstance(meta, dict):
        return None
    drawn = [event for event in document.traceEvents if event.ph == "X"]
    if any(event.args is None or event.name is None for event in drawn):
        return None
    spans = [event for event in drawn if event.args is not None and event.args.copy_of is None]
    args = [event.args for event in spans if event.args is not None]
    name_index = {name: i for i, name in enumerate(names)}
    columns = _checked_columns(
        [name_index.get(event.name, -1) for event in spans if event.name is not None],
        {column: [getattr(a, column) for a in args] for column in WORD_COLUMNS},
        {column: [getattr(a, column) for a in args] for column in ("row", *_int_args_of(other["overlapviz"]))},
    )
    if columns is None:
        return None
    try:
        trace = Trace(columns, tuple(names), TraceMeta.from_dict(meta))
        check_spans(trace)
    except (TraceValueError, ValueError, TypeError):
        return None
    return trace


def _span_of(
    number: int, event: object, name_index: dict[str, int], int_args: tuple[str, ...]
) -> tuple[int, dict[str, int]] | None:
    """(row, column values) for the event that carries a row; None for every other event.

    `int_args` are the integer columns the file's format has; the others read as 0.
    """
    if not isinstance(event, dict):
        raise TraceFormatError(_("event {number} is not an object").format(number=number))
    if event.get("ph") != "X":
        return None
    name = event.get("name")
    if not isinstance(name, str):
        raise TraceFormatError(_("event {number}: its name is not text").format(number=number))
    where = _("event {number} ({name})").format(number=number, name=repr(name[:60]))
    args = event.get("args")
    if not isinstance(args, dict) or ("row" not in args and "copy_of" not in args):
        raise TraceFormatError(
            _("{where} has no overlapviz args (args.row); {rule}").format(where=where, rule=_(_NOT_OURS))
        )
    if "copy_of" in args:
        return None
    if event.get("name") not in name_index:
        raise TraceFormatError(_("{where}: its name is not in otherData.names").format(where=where))
    values = dict.fromkeys(PLACEMENT_COLUMNS, 0)
    values.update({name: _int_arg(where, args, name) for name in ("row", *int_args)})
    values["kind"] = int(_word_arg(where, args, "kind", KIND_WORDS))
    values["unit"] = int(_word_arg(where, args, "unit", UNIT_WORDS))
    values["memory"] = int(_word_arg(where, args, "memory", MEMORY_WORDS))
    values["name"] = name_index[event["name"]]
    if values["end_ns"] < values["start_ns"]:
        raise TraceFormatError(_("{where} ends before it starts").format(where=where))
    return values.pop("row"), values


def _int_arg(where: str, args: dict[str, Any], name: str) -> int:
    if name not in args:
        raise TraceFormatError(_("{where}: {name} is missing").format(where=where, name=f"args.{name}"))
    try:
        return check_int(where, f"args.{name}", args[name], column=None if name == "row" else name)
    except TraceValueError as error:
        raise TraceFormatError(str(error)) from None


def _word_arg(where: str, args: dict[str, Any], name: str, allowed: dict[str, Any]) -> Any:
    value = args.get(name)
    if not isinstance(value, str) or value not in allowed:
        message = _("{where}: {name} is {value}; expected one of {allowed}")
        raise TraceFormatError(
            message.format(where=where, name=f"args.{name}", value=short_repr(value), allowed=", ".join(allowed))
        )
    return allowed[value]


def _columns_of(rows: dict[int, dict[str, int]]) -> dict[str, npt.NDArray[Any]]:
    """Columns from rows numbered 0..n-1, each exactly once."""
    missing = sorted(set(range(len(rows))) - set(rows))
    if missing:
        message = _("rows are not numbered 0 to {last}: row {row} is missing")
        raise TraceFormatError(message.format(last=len(rows) - 1, row=missing[0]))
    ordered = [rows[i] for i in range(len(rows))]
    return {name: np.array([r[name] for r in ordered], dtype=dtype) for name, dtype in COLUMNS.items()}

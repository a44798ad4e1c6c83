"""What a trace read from a file must satisfy before anything analyses or draws it.

A file is checked whole on load and refused with one message, so that nothing downstream
(metrics, lanes, the picture) meets a value it cannot handle: an integer past its column's
width, a row pointing nowhere, metadata of the wrong type, a 10 MB device name. The rules
here are the ones a trace overlapviz wrote always satisfies. The rows' own rule
(`overlapviz.core.trace.spans.check_spans`) sits beside the trace, since this module is below it:
the trace's metadata runs these checks as it is built.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from overlapviz.core.i18n import _, grouped
from overlapviz.core.trace.columns import COLUMNS

MAX_META_TEXT = 1024  # characters in one metadata string: a device name, a timing note
MAX_META_DEPTH = 16  # nesting of the metadata object; a config or device facts need three
MAX_COPY_ENGINES = 64
MAX_ROWS = 2**31  # rows are referred to by int32 columns (op)
_TEXT_KEYS = (
    "backend", "device", "device_name", "timing", "caveat", "version",
    "timing_reason", "source", "tool", "tool_version", "recorded", "window_name", "process",
)  # fmt: skip
_COUNT_KEYS = ("host_wall_ns", "pinned_kept_bytes", "host_issue_ns", "ring_pinned_bytes", "graph_capture_ns")


class TraceValueError(ValueError):
    """A value in a trace file is out of range or of the wrong type; the message says which."""


def _integer_range(dtype: Any) -> tuple[int, int]:
    info = np.iinfo(dtype)
    return int(info.min), int(info.max)


_COLUMN_RANGES = {name: _integer_range(dtype) for name, dtype in COLUMNS.items()}  # every column is an integer one


def column_range(name: str) -> tuple[int, int]:
    """The values a column's integer type holds (found once: a file checks millions of values)."""
    return _COLUMN_RANGES[name]


def check_int(where: str, name: str, value: object, column: str | None = None) -> int:
    """`value` as an integer of `column` (default: a row number), or a `TraceValueError` saying why not.

    `name` is how the message calls the value (``args.start_ns``, say).
    """
    if isinstance(value, bool) or not isinstance(value, int):
        message = _("{where}: {name} is not a whole number: {value}")
        raise TraceValueError(message.format(where=where, name=name, value=short_repr(value)))
    low, high = column_range(column) if column is not None else (0, MAX_ROWS - 1)
    if not low <= value <= high:
        message = _("{where}: {name} {value} is out of range ({low} to {high})")
        raise TraceValueError(message.format(where=where, name=name, value=short_repr(value), low=low, high=high))
    return value


def check_meta(meta: dict[str, Any]) -> None:
    """Metadata of the types the views read, short texts, no deep nesting."""
    _check_depth(meta)
    for key in _TEXT_KEYS:
        value = meta.get(key)
        if value is None:
            continue
        if not isinstance(value, str):
            raise TraceValueError(_("{name} is not text: {value}").format(name=f"meta.{key}", value=short_repr(value)))
        if len(value) > MAX_META_TEXT:
            message = _("{name} is {count} characters long; at most {most}")
            raise TraceValueError(
                message.format(name=f"meta.{key}", count=grouped(len(value)), most=grouped(MAX_META_TEXT))
            )
    if "device_facts" in meta and not isinstance(meta["device_facts"], dict):
        raise TraceValueError(_not_an_object("meta.device_facts", meta["device_facts"]))
    if meta.get("config") is not None and not isinstance(meta["config"], dict):
        raise TraceValueError(_not_an_object("meta.config", meta["config"]))
    if "simulated" in meta and not isinstance(meta["simulated"], bool):
        message = _("{name} is not true or false: {value}")
        raise TraceValueError(message.format(name="meta.simulated", value=short_repr(meta["simulated"])))
    for key in _COUNT_KEYS:
        if meta.get(key) is not None:
            _check_count(f"meta.{key}", meta[key])
    _check_window(meta.get("window"))
    _check_not_shown(meta.get("not_shown"))
    _check_legacy_streams(meta.get("legacy_streams"))
    facts = meta.get("device_facts", {})
    if "copy_engines" in facts:
        engines = facts["copy_engines"]
        if isinstance(engines, bool) or not isinstance(engines, int) or not 1 <= engines <= MAX_COPY_ENGINES:
            message = _("{name} is {value}; expected a whole number from 1 to {most}")
            raise TraceValueError(
                message.format(name="meta.device_facts.copy_engines", value=short_repr(engines), most=MAX_COPY_ENGINES)
            )


def _check_window(window: object) -> None:
    """A window is the ``[start, end]`` ns a trace was cut to, in the whole run's time."""
    if window is None:
        return
    if not isinstance(window, list) or len(window) != 2:
        raise TraceValueError(_("meta.window is {value}; expected [start_ns, end_ns]").format(value=short_repr(window)))
    start = check_int("meta", "window start", window[0], column="start_ns")
    end = check_int("meta", "window end", window[1], column="end_ns")
    if not 0 <= start <= end:
        message = _("meta.window {start} to {end} ns is not a time range from the run's start")
        raise TraceValueError(message.format(start=start, end=end))


def _check_legacy_streams(streams: object) -> None:
    """The streams a file names as the legacy default stream: a list of stream indices."""
    if streams is None:
        return
    if not isinstance(streams, list):
        raise TraceValueError(
            _("{name} is not a list: {value}").format(name="meta.legacy_streams", value=short_repr(streams))
        )
    for stream in streams:
        check_int("meta", "legacy_streams entry", stream, column="stream")


def _check_not_shown(counts: object) -> None:
    """What a trace holds but does not draw: a count per kind of record."""
    if counts is None:
        return
    if not isinstance(counts, dict):
        raise TraceValueError(_not_an_object("meta.not_shown", counts))
    for what, count in counts.items():
        _check_count(f"meta.not_shown[{short_repr(what)}]", count)


def _check_count(name: str, value: object) -> None:
    """A number of bytes, records or nanoseconds: whole, not negative, within 64 bits."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TraceValueError(_("{name} is not a whole number: {value}").format(name=name, value=short_repr(value)))
    if not 0 <= value <= column_range("bytes")[1]:
        message = _("{name} is {value}; expected a whole number from 0 to 2**63 - 1")
        raise TraceValueError(message.format(name=name, value=short_repr(value)))


def _not_an_object(name: str, value: object) -> str:
    return _("{name} is not an object: {value}").format(name=name, value=short_repr(value))


def _check_depth(meta: dict[str, Any]) -> None:
    """Walk the metadata without recursion; refuse it past `MAX_META_DEPTH` levels."""
    pending: list[tuple[object, int]] = [(meta, 1)]
    while pending:
        value, depth = pending.pop()
        if depth > MAX_META_DEPTH:
            raise TraceValueError(_("meta is nested more than {depth} levels deep").format(depth=MAX_META_DEPTH))
        if isinstance(value, dict):
            pending.extend((item, depth + 1) for item in value.values())
        elif isinstance(value, list):
            pending.extend((item, depth + 1) for item in value)


def short_repr(value: object, limit: int = 40) -> str:
    """`value` for a message, cut short so the message stays one line (and never recurses)."""
    if isinstance(value, dict | list):
        return _("an object") if isinstance(value, dict) else _("a list")
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 100:
        return _("a number of about {digits} digits").format(digits=int(value.bit_length() * 0.30103))
    if isinstance(value, str) and len(value) > limit:
        value = value[:limit]
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."

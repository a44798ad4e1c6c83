"""PyTorch profiler traces: the Chrome trace JSON that Kineto writes, read into `Activities`.

``torch.profiler.profile(...).export_chrome_trace`` writes one JSON object: ``traceEvents``
plus what Kineto knows of the run (``deviceProperties``, ``baseTimeNanoseconds``,
``schemaVersion``, the CUDA versions). Complete events (``ph`` X) of these categories become
rows:

- ``gpu_memcpy``: copies, direction and memory from the name (`copy_names`);
- ``gpu_memset``: memsets; ``kernel``: kernels (``args.device``, ``args.stream``,
  ``args.bytes``; the event's ``pid`` and ``tid``, which Kineto sets to the device and the
  stream, where the args lack them; an NCCL kernel's ``args["Collective name"]``);
- ``cuda_runtime`` and ``cuda_driver``: API calls, on the host thread ``tid``;
- ``cuda_sync`` (``enable_cuda_sync_events``): synchronisations, named by their kind; a
  ``Stream Wait Event`` has the waiting stream in ``args.stream`` and, where Kineto resolved
  them, the stream waited on (``args.wait_on_stream``) and the correlation id of the event
  record (``args.wait_on_cuda_event_record_corr_id``);
- ``user_annotation`` (``record_function`` ranges on the host), ``gpu_user_annotation``
  (the same ranges as the GPU ran them: ``on_device`` 1) and ``ProfilerStep#N`` ranges (a
  ``cpu_op`` in older PyTorch): annotations.

PyTorch 1.8 and 1.9 spelled the categories ``Memcpy``, ``Memset``, ``Kernel``, ``Runtime`` and
``Operator`` (a GPU record's ``tid`` the text ``"stream 7"``): they read as their current
names. A ROCm (HIP) build writes ``args.stream`` of host calls as a text (``"0x0"``), read as
the number it spells, and may give a copy no ``args.bytes``: its size is then 0, unknown.

Everything else (``cpu_op``, ``python_function``, ``overhead``, flows, metadata) is not a
row. ``args.correlation`` links an API call to the device op it issued; where a record lacks
it, the ``ac2g`` flow event at the same place and time gives it (Kineto numbers flows by
correlation id).

Times are exact: ``ts`` and ``dur`` are microseconds with three decimals, read as text
(`micros`). Kineto writes ``ts`` after ``baseTimeNanoseconds``, which is added back, so
times count nanoseconds since 1970 and ``recorded`` is the UTC date of the first record;
a file without it keeps its own clock and no date. The file does not say which PyTorch
wrote it, so there is no ``tool_version``; ``schema_version`` is Kineto's format number.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable, Iterator
from itertools import repeat
from operator import attrgetter
from typing import Any

import msgspec
import numpy as np
import numpy.typing as npt

from overlapviz.core.trace_checks import short_repr
from overlapviz.importers.activity import ACTIVITY_COLUMNS, UNKNOWN, Activities, ActivityKind, empty_columns
from overlapviz.importers.copy_names import parse_copy_name
from overlapviz.importers.kineto_schema import (
    CATEGORIES_DECODER,
    DECODER,
    EVENTS_DECODER,
    INT64_MAX,
    Event,
    KinetoDocument,
)
from overlapviz.importers.micros import MicrosTextError, micros_text_to_ns, profiler_micros_ns

TOOL = "PyTorch profiler"
SNIFF_BYTES = 64 * 1024  # enough of a file's start for `looks_like_kineto`
_BOM = b"\xef\xbb\xbf"
_CURRENT_ROW_KINDS = {
    "gpu_memcpy": ActivityKind.MEMCPY,
    "gpu_memset": ActivityKind.MEMSET,
    "kernel": ActivityKind.KERNEL,
    "cuda_runtime": ActivityKind.RUNTIME,
    "cuda_driver": ActivityKind.DRIVER,
    "user_annotation": ActivityKind.ANNOTATION,
    "gpu_user_annotation": ActivityKind.ANNOTATION,
    "cuda_sync": ActivityKind.SYNC,
}
# PyTorch 1.8 and 1.9 (Kineto before it renamed its categories) spelled them so; ``Operator`` was ``cpu_op``.
_OLD_NAMES = {"Memcpy": "gpu_memcpy", "Memset": "gpu_memset", "Kernel": "kernel", "Runtime": "cuda_runtime"}
_ROW_KINDS = {**_CURRENT_ROW_KINDS, **{old: _CURRENT_ROW_KINDS[new] for old, new in _OLD_NAMES.items()}}
_STEP_PREFIX = "ProfilerStep#"
_STEP_CATEGORIES = frozenset({"cpu_op", "Operator"})
_DEVICE_CATEGORIES = frozenset({"gpu_memcpy", "gpu_memset", "kernel", "gpu_user_annotation", "cuda_sync", *_OLD_NAMES}
                               - {"Runtime"})  # fmt: skip
_SIZED_CATEGORIES = frozenset({"gpu_memcpy", "gpu_memset", "Memcpy", "Memset"})
# A number per row category (the last for ProfilerStep ranges), and what each number means.
_CATEGORY_NUMBERS = {category: number for number, category in enumerate(_ROW_KINDS)}
_STEP_NUMBER = len(_ROW_KINDS)
_KIND_OF = np.array([*_ROW_KINDS.values(), ActivityKind.ANNOTATION], dtype=np.int8)
_ON_DEVICE_OF = np.array([category in _DEVICE_CATEGORIES for category in _ROW_KINDS] + [False])
_SIZED_OF = np.array([category in _SIZED_CATEGORIES for category in _ROW_KINDS] + [False])
_FLOW_CATEGORY = "ac2g"
# Categories only Kineto writes (``kernel`` alone is not one: other tools use it too).
_KINETO_CATEGORIES = (frozenset(_ROW_KINDS) - {"kernel", "Kernel"}) | _STEP_CATEGORIES | {"python_function", "ac2g"}
_TOP_MARKERS = (b'"schemaVersion"', b'"deviceProperties"', b'"baseTimeNanoseconds"')
_EVENT_MARKERS = tuple(b'"%s"' % category.encode() for category in sorted(_KINETO_CATEGORIES))
_MAX_DEVICE = int(np.iinfo(ACTIVITY_COLUMNS["device"]).max)
_NOT_KINETO = "not a PyTorch profiler trace"
# Events decoded at once: a few tens of MB of objects, whatever the size of the file.
BATCH_EVENTS = 1 << 16
_BATCH_PATH = re.compile(r"`\$\[(\d+)\]")  # where msgspec places a bad value inside a batch
_BATCH_BYTE = re.compile(r" \(byte \d+\)")  # where in a batch, not in the file
_Place = tuple[int | str, int | str, bytes]  # an event's pid, tid and ts text: where a flow end meets it
_Int8 = npt.NDArray[np.int8]


class KinetoFormatError(ValueError):
    """A file is not a PyTorch profiler trace that can be read; one line naming the file and why."""


def looks_like_kineto(document_start: bytes) -> bool:
    """Whether a file's first bytes are those of a PyTorch profiler (Kineto) trace.

    Parameters
    ----------
    document_start
        The start of the (decompressed) file; `SNIFF_BYTES` of it are enough.

    Returns
    -------
    bool
        True for a JSON object with ``traceEvents`` and a Kineto marker (a top-level key
        such as ``deviceProperties``, or an event category such as ``cuda_runtime``).
    """
    start = document_start.removeprefix(_BOM).lstrip()
    if not start.startswith(b"{"):
        return False
    if any(marker in start for marker in _TOP_MARKERS):
        return True
    return b'"traceEvents"' in start and any(marker in start for marker in _EVENT_MARKERS)


def read_kineto(raw: bytes, source: str) -> Activities:
    """Read a PyTorch profiler trace's bytes into activities.

    Parameters
    ----------
    raw
        The whole file, decompressed (as `overlapviz.core.safe_read.read_input_bytes` gives it).
    source
        The file's name, for messages and ``meta["source"]``.

    Returns
    -------
    Activities
        One row per copy, memset, kernel, API call and annotation, in file order.

    Raises
    ------
    KinetoFormatError
        The bytes are not JSON, nest too deeply, hold a value of the wrong type or range,
        lack a time a row needs, or are not a PyTorch profiler trace at all.
    """
    document = _decode(raw, source)
    events = document.trace_events
    if events is None:
        raise _error(source, f"{_NOT_KINETO}: it has no traceEvents")
    if not _is_kineto(document, events, raw, source):
        raise _error(source, f"{_NOT_KINETO}: no Kineto key or event category in it")
    table = _Table(source, document.base_time_ns or 0, may_have_steps=_STEP_PREFIX.encode() in raw)
    for first, batch in _batches(EVENTS_DECODER, events, raw, source):
        table.add(first, batch)
    columns = table.columns(lambda: _flow_ids(events, raw, source))
    return Activities(columns, table.names, _meta(document, columns, source))


def _decode(raw: bytes, source: str) -> KinetoDocument:
    if not raw or raw.isspace():
        raise _error(source, "the file is empty")
    data = memoryview(raw)[len(_BOM) :] if raw.startswith(_BOM) else raw
    try:
        return DECODER.decode(data)
    except RecursionError:
        raise _error(source, "its JSON nests too deeply to be a trace") from None
    except msgspec.ValidationError as error:
        raise _wrong_value(raw, source, str(error)) from None
    except msgspec.DecodeError as error:
        raise _error(source, f"not JSON ({error})") from None


def _batches(decoder: msgspec.json.Decoder[list[Any]], events: list[msgspec.Raw], raw: bytes,
             source: str) -> Iterator[tuple[int, list[Any]]]:  # fmt: skip
    """The events decoded `BATCH_EVENTS` at a time, each batch with the number of its first event."""
    for first in range(0, len(events), BATCH_EVENTS):
        texts = b"[" + b",".join(events[first : first + BATCH_EVENTS]) + b"]"
        try:
            batch = decoder.decode(texts)
        except RecursionError:
            raise _error(source, "its JSON nests too deeply to be a trace") from None
        except msgspec.ValidationError as error:
            raise _wrong_value(raw, source, _path_in_file(str(error), first)) from None
        except msgspec.DecodeError as error:  # what skipping an event does not check, its UTF-8
            raise _error(source, f"not JSON ({_BATCH_BYTE.sub('', str(error))})") from None
        yield first, batch


def _path_in_file(message: str, first: int) -> str:
    """A message of msgspec's about a batch, its path (``$[12].pid``) made the file's (``$.traceEvents[N].pid``)."""
    return _BATCH_PATH.sub(lambda at: f"`$.traceEvents[{first + int(at[1])}]", message)


def _wrong_value(raw: bytes, source: str, why: str) -> KinetoFormatError:
    if not looks_like_kineto(raw[: len(_BOM) + SNIFF_BYTES]):
        return _error(source, f"{_NOT_KINETO}: no Kineto key or event category at its start")
    return _error(source, f"a value of the wrong type or range: {why}")


def _row_events(events: list[Event], *, may_have_steps: bool) -> list[Event]:
    """The events that become rows, in file order."""
    if not may_have_steps:
        # the usual case, and several times faster: a million cpu_op names go unread
        return [event for event in events if event.cat in _ROW_KINDS and event.ph == "X"]
    return [
        event
        for event in events
        if (event.cat in _ROW_KINDS or (event.cat in _STEP_CATEGORIES and event.name.startswith(_STEP_PREFIX)))
        and event.ph == "X"
    ]


def _is_kineto(document: KinetoDocument, events: list[msgspec.Raw], raw: bytes, source: str) -> bool:
    tops = (document.schema_version, document.device_properties, document.base_time_ns)
    if any(value is not None for value in tops):
        return True
    batches = _batches(CATEGORIES_DECODER, events, raw, source)
    return any(not _KINETO_CATEGORIES.isdisjoint({e.cat for e in batch}) for _, batch in batches)


def _error(source: str, why: str) -> KinetoFormatError:
    message = f"{source}: {why}"
    return KinetoFormatError(message.replace("\r", "\\r").replace("\n", "\\n"))


class _Table:
    """The activity columns of a trace's rows, built a batch of events at a time."""

    def __init__(self, source: str, base_ns: int, *, may_have_steps: bool) -> None:
        self.source, self.base_ns, self.may_have_steps = source, base_ns, may_have_steps
        self.index: dict[str, int] = {}  # each name's number, shared by the batches
        self.parts: list[dict[str, npt.NDArray[Any]]] = []
        self.unlinked: dict[int, _Place] = {}  # rows that lack a correlation id, and where they sit
        self.rows = 0

    @property
    def names(self) -> tuple[str, ...]:
        """The names of the rows, in the order they first appear."""
        return tuple(self.index)

    def add(self, first: int, events: list[Event]) -> None:
        """Add the rows among `events`, the batch whose first event is event number `first`."""
        batch = _Rows(_row_events(events, may_have_steps=self.may_have_steps), events, first, self.index, self.source)
        part = batch.columns(self.base_ns)
        self.unlinked.update((self.rows + row, place) for row, place in batch.unlinked(part["correlation"]))
        self.parts.append(part)
        self.rows += len(batch.rows)

    def columns(self, flow_ids: Callable[[], dict[_Place, int]]) -> dict[str, npt.NDArray[Any]]:
        """Every activity column of the rows added; `flow_ids` gives the ids that link the rows lacking one."""
        columns = empty_columns(0)
        for name in list(self.parts[0]) if self.parts else ():
            # a column at a time, letting each batch's piece go: never a second copy of the whole table
            columns[name] = np.concatenate([part.pop(name) for part in self.parts])
        columns["copy_kind"], columns["src_memory"], columns["dst_memory"] = _copies(
            columns["kind"], columns["name"], self.names
        )
        if self.unlinked:
            flows = flow_ids()
            rows = np.fromiter(self.unlinked, dtype=np.int64, count=len(self.unlinked))
            columns["correlation"][rows] = [flows.get(place, UNKNOWN) for place in self.unlinked.values()]
        columns["process"] = _owning_processes(columns)
        return columns


class _Rows:
    """The events of one batch that become rows, column by column."""

    def __init__(self, rows: list[Event], events: list[Event], first: int, index: dict[str, int], source: str) -> None:
        self.rows, self.events, self.first, self.source = rows, events, first, source
        categories = map(_CATEGORY_NUMBERS.get, map(attrgetter("cat"), rows), repeat(_STEP_NUMBER))
        self.category = np.fromiter(categories, dtype=np.intp, count=len(rows))
        self.kind, self.device_row = _KIND_OF[self.category], _ON_DEVICE_OF[self.category]
        self.name = np.array([index.setdefault(e.name, len(index)) for e in rows], dtype=np.int32)
        self.collective = _collectives(rows, index)

    def columns(self, base_ns: int) -> dict[str, npt.NDArray[Any]]:
        """The activity columns of these rows but the copies' (`_copies`), times shifted by `base_ns`."""
        columns: dict[str, npt.NDArray[Any]] = {"kind": self.kind, "name": self.name, "collective": self.collective}
        columns["start_ns"], columns["end_ns"] = self._times(base_ns)
        columns["device"], columns["stream"], columns["thread"], columns["process"] = self._placement()
        columns["correlation"] = np.maximum(self._ints("args.correlation"), UNKNOWN)
        columns["wait_stream"] = np.maximum(self._ints("args.wait_on_stream"), UNKNOWN)
        columns["wait_record"] = np.maximum(self._ints("args.wait_on_cuda_event_record_corr_id"), UNKNOWN)
        columns["bytes"] = self._bytes()
        columns["on_device"] = self.device_row & (self.kind == ActivityKind.ANNOTATION)
        return {name: values.astype(ACTIVITY_COLUMNS[name], copy=False) for name, values in columns.items()}

    def _times(self, base_ns: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        start, duration = self._micros("ts"), self._micros("dur")
        for values, field in ((start, "ts"), (duration, "dur")):
            if (values < 0).any():
                raise self._event_error(int(np.argmax(values < 0)), f"its {field} is negative")
        start += base_ns  # both below micros.MAX_NS: no overflow
        past = duration > INT64_MAX - start
        if past.any():
            raise self._event_error(int(np.argmax(past)), "it ends past the last time int64 nanoseconds can hold")
        return start, start + duration

    def _micros(self, field: str) -> npt.NDArray[np.int64]:
        texts_of = attrgetter(field)
        usual = profiler_micros_ns(b"\n".join(map(texts_of, self.rows)), len(self.rows))
        if usual is not None:
            return usual
        texts = list(map(bytes, map(texts_of, self.rows)))
        try:
            return micros_text_to_ns(texts)
        except MicrosTextError as error:
            text = texts[error.index]
            shown = short_repr(text.decode("utf-8", "replace"))
            why = f"it has no {field}" if not text else f"its {field} {shown} is {error}"
            raise self._event_error(error.index, why) from None

    def _placement(self) -> tuple[npt.NDArray[np.int64], ...]:
        """Device, stream, host thread and process: the args where they say, else the event's pid and tid.

        A device record's pid is its GPU, not a process: its process is its call's (`_owning_processes`).
        """
        pid, tid = self._ids("pid"), self._ids("tid")
        args_device, args_stream = self._ints("args.device"), self._streams()
        too_high = self.device_row & (args_device > _MAX_DEVICE)
        if too_high.any():
            row = int(np.argmax(too_high))
            raise self._event_error(row, f"its device {args_device[row]} is past the last index, {_MAX_DEVICE}")
        pid_device = np.where((pid >= 0) & (pid <= _MAX_DEVICE), pid, UNKNOWN)
        device = np.where(args_device >= 0, args_device, pid_device)
        stream = np.where(args_stream >= 0, args_stream, np.maximum(tid, UNKNOWN))
        return (
            np.where(self.device_row, device, UNKNOWN),
            np.where(self.device_row, stream, UNKNOWN),
            np.where(self.device_row, UNKNOWN, tid),
            np.where(self.device_row, UNKNOWN, pid),
        )

    def unlinked(self, correlation: npt.NDArray[np.int64]) -> list[tuple[int, _Place]]:
        """The copies, memsets, kernels and calls that lack a correlation id, each with where it sits."""
        linked = np.isin(self.kind, [ActivityKind.MEMCPY, ActivityKind.MEMSET, ActivityKind.KERNEL,
                                     ActivityKind.RUNTIME, ActivityKind.DRIVER])  # fmt: skip
        missing = np.flatnonzero(linked & (correlation == UNKNOWN)).tolist()
        return [(row, (self.rows[row].pid, self.rows[row].tid, bytes(self.rows[row].ts))) for row in missing]

    def _bytes(self) -> npt.NDArray[np.int64]:
        """Bytes of copies and memsets (0 where unknown), none for the other rows."""
        sized = _SIZED_OF[self.category]
        given = self._ints("args.bytes")
        negative = sized & (given < 0) & (given != UNKNOWN)
        if negative.any():
            row = int(np.argmax(negative))
            raise self._event_error(row, f"its byte count {given[row]} is negative")
        return np.where(sized, np.maximum(given, 0), 0)

    def _ints(self, name: str) -> npt.NDArray[np.int64]:
        """One integer field (``args.stream``, say) of every row, read in C rather than per row in Python."""
        return np.fromiter(map(attrgetter(name), self.rows), dtype=np.int64, count=len(self.rows))

    def _streams(self) -> npt.NDArray[np.int64]:
        """The ``args.stream`` of every row; a text is the number it spells (``"0x0"``), else unknown."""
        values = list(map(attrgetter("args.stream"), self.rows))
        if str not in set(map(type, values)):  # the usual case, several times faster
            return np.fromiter(values, dtype=np.int64, count=len(values))
        return np.array([_stream_number(v) if isinstance(v, str) else v for v in values], dtype=np.int64)

    def _ids(self, name: str) -> npt.NDArray[np.int64]:
        """The pid or tid of every row; a text is the number it spells (PyTorch 1.9's ``"25738"``), else unknown.

        A text such as ``"stream 7"`` (PyTorch 1.9's GPU rows) or ``"Spans"`` names no thread.
        """
        values = list(map(attrgetter(name), self.rows))
        if str not in set(map(type, values)):  # the usual case, several times faster
            return np.fromiter(values, dtype=np.int64, count=len(values))
        return np.array([_decimal(v) if isinstance(v, str) else v for v in values], dtype=np.int64)

    def _event_error(self, row: int, why: str) -> KinetoFormatError:
        event = self.rows[row]
        number = self.first + next(i for i, candidate in enumerate(self.events) if candidate is event)
        return _error(self.source, f"event {number} ({event.cat} {short_repr(event.name)}): {why}")


def _decimal(text: str) -> int:
    """The whole number a text of decimal digits spells; -1 for any other text."""
    digits = text.strip()
    return int(digits) if digits.isascii() and digits.isdigit() and len(digits) < 19 else UNKNOWN


def _stream_number(text: str) -> int:
    """The stream a text names (``"0x0"``, ``"7"``); -1 where it names no whole number from 0 to int64's last."""
    try:
        number = int(text.strip()[:40], 0)
    except ValueError:
        return UNKNOWN
    return number if 0 <= number <= INT64_MAX else UNKNOWN


def _collectives(rows: list[Event], index: dict[str, int]) -> npt.NDArray[np.int32]:
    """The number among the names of each row's ``Collective name`` argument; -1 where it has none."""
    texts = list(map(attrgetter("args.collective"), rows))
    if not any(texts):  # the usual case: a trace of one process, no NCCL
        return np.full(len(rows), UNKNOWN, dtype=np.int32)
    return np.array([index.setdefault(text, len(index)) if text else UNKNOWN for text in texts], dtype=np.int32)


def _flow_ids(events: list[msgspec.Raw], raw: bytes, source: str) -> dict[_Place, int]:
    """The correlation id of each flow end, by where it sits."""
    return {
        (e.pid, e.tid, bytes(e.ts)): e.id
        for _, batch in _batches(EVENTS_DECODER, events, raw, source)
        for e in batch
        if e.cat == _FLOW_CATEGORY and isinstance(e.id, int) and e.id >= 0
    }


def _owning_processes(columns: dict[str, npt.NDArray[Any]]) -> npt.NDArray[np.int64]:
    """The process of every row: a device record's is that of the call with its correlation id.

    Where calls of several processes share the id (traces of several ranks put together), the
    one that began last before the record did is taken.
    """
    process = columns["process"].copy()
    kind, correlation, start = columns["kind"], columns["correlation"], columns["start_ns"]
    calls = np.flatnonzero(np.isin(kind, [ActivityKind.RUNTIME, ActivityKind.DRIVER]) & (correlation >= 0))
    ops = np.flatnonzero(np.isin(kind, [ActivityKind.MEMCPY, ActivityKind.MEMSET, ActivityKind.KERNEL,
                                        ActivityKind.SYNC]) & (correlation >= 0))  # fmt: skip
    if calls.size == 0 or ops.size == 0:
        return process
    calls = calls[np.lexsort((start[calls], correlation[calls]))]  # by id, then by start
    ids, starts = correlation[calls], start[calls]
    at = np.maximum(np.searchsorted(ids, correlation[ops], side="right") - 1, 0)  # the latest call of the id
    # step back over calls of the same id that began after the op: one step per other process at most
    later = (at > 0) & (starts[at] > start[ops]) & (ids[at - 1] == correlation[ops])
    while later.any():
        at[later] -= 1
        later = (at > 0) & (starts[at] > start[ops]) & (ids[at - 1] == correlation[ops])
    at[ids[at] != correlation[ops]] = UNKNOWN
    found = at >= 0
    process[ops[found]] = process[calls[at[found]]]
    return process


def _copies(kind: _Int8, name: npt.NDArray[np.int32], names: tuple[str, ...]) -> tuple[_Int8, _Int8, _Int8]:
    """Copy kind and memory kinds per row, parsed once per distinct copy name."""
    parsed = np.zeros((len(names), 3), dtype=np.int8)
    copies = kind == ActivityKind.MEMCPY
    for number in np.unique(name[copies]).tolist():
        parsed[number] = parse_copy_name(names[number])
    per_row = np.where(copies[:, None], parsed[name], 0).astype(np.int8)
    return per_row[:, 0], per_row[:, 1], per_row[:, 2]


def _meta(document: KinetoDocument, columns: dict[str, npt.NDArray[Any]], source: str) -> dict[str, Any]:
    meta: dict[str, Any] = {"tool": TOOL, "source": source}
    if document.device_properties is not None:
        meta["devices"] = {device.id: device.name for device in document.device_properties}
    if document.base_time_ns is not None and len(columns["start_ns"]):
        first = int(columns["start_ns"].min()) // 10**9
        meta["recorded"] = datetime.datetime.fromtimestamp(first, tz=datetime.UTC).date().isoformat()
    versions = {
        "schema_version": document.schema_version,
        "cuda_runtime": document.cuda_runtime_version,
        "cuda_driver": document.cuda_driver_version,
    }
    meta.update({key: _version_text(key, value) for key, value in versions.items() if value is not None})
    return meta


def _version_text(key: str, value: int | str) -> str:
    """A version as people write it: CUDA's 13000 is 13.0."""
    if isinstance(value, str):
        return value[:40]
    if key == "schema_version" or value < 0:
        return str(value)
    return f"{value // 1000}.{value % 1000 // 10}"

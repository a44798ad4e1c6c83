"""The activity columns of a PyTorch profiler trace's rows, built a batch of events at a time (see `kineto`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import repeat
from operator import attrgetter
from typing import Any

import numpy as np
import numpy.typing as npt

from overlapviz.core.i18n import N_, _
from overlapviz.core.trace.checks import short_repr
from overlapviz.core.trace.communication import collective_in_group
from overlapviz.importers.activity import ACTIVITY_COLUMNS, UNKNOWN, ActivityKind, empty_columns
from overlapviz.importers.copy_names import parse_copy_name
from overlapviz.importers.kineto_categories import (
    CATEGORY_NUMBERS,
    KIND_OF,
    ON_DEVICE_OF,
    SIZED_OF,
    STEP_NUMBER,
    row_events,
)
from overlapviz.importers.kineto_errors import KinetoFormatError, kineto_error
from overlapviz.importers.kineto_schema import INT64_MAX, Event, EventArgs
from overlapviz.importers.micros import (
    NOT_A_NUMBER,
    OUT_OF_RANGE,
    MicrosTextError,
    micros_text_to_ns,
    profiler_micros_ns,
)

Place = tuple[int | str, int | str, bytes]  # an event's pid, tid and ts text: where a flow end meets it
_Int8 = npt.NDArray[np.int8]
_MAX_DEVICE = int(np.iinfo(ACTIVITY_COLUMNS["device"]).max)
# What is wrong with a time's text (`MicrosTextError`), as the sentence about the event's field
_TIME_TEXT_PROBLEMS = {
    NOT_A_NUMBER: N_("its {field} {text} is not a number"),
    OUT_OF_RANGE: N_("its {field} {text} is out of range"),
}


@dataclass
class TablePart:
    """Rows of a run of batches built apart (`kineto_parallel`), names and collectives numbered in their own order."""

    parts: list[dict[str, npt.NDArray[Any]]]
    names: tuple[str, ...]
    collectives: tuple[str, ...]
    unlinked: dict[int, Place]
    rows: int


class KinetoTable:
    """The activity columns of a trace's rows, built a batch of events at a time."""

    def __init__(self, source: str, base_ns: int) -> None:
        self.source, self.base_ns = source, base_ns
        self.index: dict[str, int] = {}  # each name's number, shared by the batches
        # each collective's text's number, apart: numbered among the names at the end (`names`), so that
        # the numbers do not depend on where batches begin
        self.collectives: dict[str, int] = {}
        self.parts: list[dict[str, npt.NDArray[Any]]] = []
        self.unlinked: dict[int, Place] = {}  # rows that lack a correlation id, and where they sit
        self.rows = 0

    @property
    def names(self) -> tuple[str, ...]:
        """The names of the rows in the order they first appear, then the collectives' texts no row bears."""
        return (*self.index, *(text for text in self.collectives if text not in self.index))

    def add(self, first: int, events: list[Event]) -> None:
        """Add the rows among `events`, the batch whose first event is event number `first`."""
        batch = _Rows(row_events(events), events, first, (self.index, self.collectives), self.source)
        part = batch.columns(self.base_ns)
        self.unlinked.update((self.rows + row, place) for row, place in batch.unlinked(part["correlation"]))
        self.parts.append(part)
        self.rows += len(batch.rows)

    def merge(self, part: TablePart) -> None:
        """Add the rows of another table, built of the events after those added so far, its names numbered anew."""
        numbers = np.array([self.index.setdefault(name, len(self.index)) for name in part.names], dtype=np.int32)
        collectives = [self.collectives.setdefault(text, len(self.collectives)) for text in part.collectives]
        for columns in part.parts:
            columns["name"] = numbers[columns["name"]]
            columns["collective"] = _renumbered(columns["collective"], collectives)
            self.parts.append(columns)
        self.unlinked.update((self.rows + row, place) for row, place in part.unlinked.items())
        self.rows += part.rows

    def part(self) -> TablePart:
        """What `merge` needs of this table."""
        return TablePart(self.parts, tuple(self.index), tuple(self.collectives), self.unlinked, self.rows)

    def columns(self, flow_ids: Callable[[], dict[Place, int]]) -> dict[str, npt.NDArray[Any]]:
        """Every activity column of the rows added; `flow_ids` gives the ids that link the rows lacking one."""
        columns = empty_columns(0)
        for name in list(self.parts[0]) if self.parts else ():
            # a column at a time, letting each batch's piece go: never a second copy of the whole table
            columns[name] = np.concatenate([part.pop(name) for part in self.parts])
        numbers = dict(self.index)  # as `names` numbers them
        collectives = [numbers.setdefault(text, len(numbers)) for text in self.collectives]
        columns["collective"] = _renumbered(columns["collective"], collectives)
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

    def __init__(self, rows: list[Event], events: list[Event], first: int,
                 indexes: tuple[dict[str, int], dict[str, int]], source: str) -> None:  # fmt: skip
        """`indexes`: the numbers of the names and of the collectives' texts, shared by the batches."""
        self.rows, self.events, self.first, self.source = rows, events, first, source
        index, collectives = indexes
        categories = map(CATEGORY_NUMBERS.get, map(attrgetter("cat"), rows), repeat(STEP_NUMBER))
        self.category = np.fromiter(categories, dtype=np.intp, count=len(rows))
        self.kind, self.device_row = KIND_OF[self.category], ON_DEVICE_OF[self.category]
        self.name = _numbered(list(map(attrgetter("name"), rows)), index)
        self.args = list(map(attrgetter("args"), rows))  # fetched once for the several fields read from them
        self.collective = _collectives(self.args, collectives)

    def columns(self, base_ns: int) -> dict[str, npt.NDArray[Any]]:
        """The activity columns of these rows but the copies' (`_copies`), times shifted by `base_ns`."""
        columns: dict[str, npt.NDArray[Any]] = {"kind": self.kind, "name": self.name, "collective": self.collective}
        columns["start_ns"], columns["end_ns"] = self._times(base_ns)
        columns["device"], columns["stream"], columns["thread"], columns["process"] = self._placement()
        columns["correlation"] = np.maximum(self._ints("correlation"), UNKNOWN)
        columns["wait_stream"] = np.maximum(self._ints("wait_on_stream"), UNKNOWN)
        columns["wait_record"] = np.maximum(self._ints("wait_on_cuda_event_record_corr_id"), UNKNOWN)
        columns["bytes"] = self._bytes()
        columns["on_device"] = self.device_row & (self.kind == ActivityKind.ANNOTATION)
        return {name: values.astype(ACTIVITY_COLUMNS[name], copy=False) for name, values in columns.items()}

    def _times(self, base_ns: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        start, duration = self._micros("ts"), self._micros("dur")
        for values, field in ((start, "ts"), (duration, "dur")):
            if (values < 0).any():
                raise self._event_error(int(np.argmax(values < 0)), _("its {field} is negative").format(field=field))
        start += base_ns  # both below micros.MAX_NS: no overflow
        past = duration > INT64_MAX - start
        if past.any():
            raise self._event_error(int(np.argmax(past)), _("it ends past the last time int64 nanoseconds can hold"))
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
            why = _("it has no {field}") if not text else _(_TIME_TEXT_PROBLEMS[str(error)])
            raise self._event_error(error.index, why.format(field=field, text=shown)) from None

    def _placement(self) -> tuple[npt.NDArray[np.int64], ...]:
        """Device, stream, host thread and process: the args where they say, else the event's pid and tid.

        A device record's pid is its GPU, not a process: its process is its call's (`_owning_processes`).
        """
        pid, tid = self._ids("pid"), self._ids("tid")
        args_device, args_stream = self._ints("device"), self._streams()
        too_high = self.device_row & (args_device > _MAX_DEVICE)
        if too_high.any():
            row = int(np.argmax(too_high))
            why = _("its device {device} is past the last index, {last}")
            raise self._event_error(row, why.format(device=args_device[row], last=_MAX_DEVICE))
        pid_device = np.where((pid >= 0) & (pid <= _MAX_DEVICE), pid, UNKNOWN)
        device = np.where(args_device >= 0, args_device, pid_device)
        stream = np.where(args_stream >= 0, args_stream, np.maximum(tid, UNKNOWN))
        return (
            np.where(self.device_row, device, UNKNOWN),
            np.where(self.device_row, stream, UNKNOWN),
            np.where(self.device_row, UNKNOWN, tid),
            np.where(self.device_row, UNKNOWN, pid),
        )

    def unlinked(self, correlation: npt.NDArray[np.int64]) -> list[tuple[int, Place]]:
        """The copies, memsets, kernels and calls that lack a correlation id, each with where it sits."""
        linked = np.isin(self.kind, [ActivityKind.MEMCPY, ActivityKind.MEMSET, ActivityKind.KERNEL,
                                     ActivityKind.RUNTIME, ActivityKind.DRIVER])  # fmt: skip
        missing = np.flatnonzero(linked & (correlation == UNKNOWN)).tolist()
        return [(row, (self.rows[row].pid, self.rows[row].tid, bytes(self.rows[row].ts))) for row in missing]

    def _bytes(self) -> npt.NDArray[np.int64]:
        """Bytes of copies and memsets (0 where unknown), none for the other rows."""
        sized = SIZED_OF[self.category]
        given = self._ints("bytes")
        negative = sized & (given < 0) & (given != UNKNOWN)
        if negative.any():
            row = int(np.argmax(negative))
            raise self._event_error(row, _("its byte count {count} is negative").format(count=given[row]))
        return np.where(sized, np.maximum(given, 0), 0)

    def _ints(self, name: str) -> npt.NDArray[np.int64]:
        """One integer field of the args (``device``, say) of every row, read in C rather than per row in Python."""
        return np.fromiter(map(attrgetter(name), self.args), dtype=np.int64, count=len(self.args))

    def _streams(self) -> npt.NDArray[np.int64]:
        """The ``args.stream`` of every row; a text is the number it spells (``"0x0"``), else unknown."""
        values = list(map(attrgetter("stream"), self.args))
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
        message = _("event {number} ({category} {name}): {why}")
        said = message.format(number=number, category=event.cat, name=short_repr(event.name), why=why)
        return kineto_error(self.source, said)


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


def _numbered(texts: list[str], index: dict[str, int]) -> npt.NDArray[np.int32]:
    """The number of each text in `index`, new texts numbered on in the order they first appear.

    The few distinct texts are numbered in Python, the many rows looked up in C.
    """
    for text in dict.fromkeys(texts):
        index.setdefault(text, len(index))
    return np.fromiter(map(index.__getitem__, texts), dtype=np.int32, count=len(texts))


def _renumbered(numbers: npt.NDArray[np.int32], new: list[int]) -> npt.NDArray[np.int32]:
    """`numbers` (-1 for none) each replaced by its `new` one."""
    if not new:
        return numbers
    return np.where(numbers >= 0, np.array(new, dtype=np.int32)[np.maximum(numbers, 0)], numbers).astype(numbers.dtype)


def _collectives(args: list[EventArgs], index: dict[str, int]) -> npt.NDArray[np.int32]:
    """The number in `index` of each row's ``Collective name`` (in its process group); -1 where it has none."""
    texts = list(map(attrgetter("collective"), args))
    if not any(texts):  # the usual case: a trace of one process, no NCCL
        return np.full(len(args), UNKNOWN, dtype=np.int32)
    texts = [collective_in_group(text, arg.process_group) if text else text
             for text, arg in zip(texts, args, strict=True)]  # fmt: skip
    return np.array([index.setdefault(text, len(index)) if text else UNKNOWN for text in texts], dtype=np.int32)


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

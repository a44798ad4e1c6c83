"""A batch of a PyTorch profiler trace's events decoded at once, its errors placed in the whole file (see `kineto`).

The reading process and the processes that decode batches beside it (`kineto_parallel`)
share this, so that a bad event reads the same wherever its batch was decoded.
"""

from __future__ import annotations

import mmap
import re
from dataclasses import dataclass
from typing import Any, Protocol

import msgspec
import numpy as np

from overlapviz.core.files.safe_read import release_pages
from overlapviz.core.i18n import _
from overlapviz.importers.kineto_errors import KinetoFormatError, kineto_error

_BATCH_PATH = re.compile(r"`\$\[(\d+)\]")  # where msgspec places a bad value inside a batch
_BATCH_BYTE = re.compile(r" \(byte \d+\)")  # where in a batch, not in the file


def decode_batch(decoder: msgspec.json.Decoder[list[Any]], text: bytes | bytearray, first: int, source: str, *,
                 kineto_start: bool) -> list[Any]:  # fmt: skip
    """The events of `text`, a JSON array of the events from number `first` on.

    `kineto_start` says whether the file's start looks like a Kineto trace's: a value of the
    wrong type in one that does not is read as a file of some other kind.
    """
    try:
        return decoder.decode(text)
    except RecursionError:
        raise kineto_error(source, _("its JSON nests too deeply to be a trace")) from None
    except msgspec.ValidationError as error:
        raise wrong_value(source, _path_in_file(str(error), first), kineto_start=kineto_start) from None
    except msgspec.DecodeError as error:  # what skipping an event does not check, its UTF-8
        raise kineto_error(source, _("not JSON ({error})").format(error=_BATCH_BYTE.sub("", str(error)))) from None


def wrong_value(source: str, why: str, *, kineto_start: bool) -> KinetoFormatError:
    """The error of a value of the wrong type or range, `why` saying where."""
    if not kineto_start:
        return kineto_error(source, _("not a PyTorch profiler trace: no Kineto key or event category at its start"))
    return kineto_error(source, _("a value of the wrong type or range: {why}").format(why=why))


def _path_in_file(message: str, first: int) -> str:
    """A message of msgspec's about a batch, its path (``$[12].pid``) made the file's (``$.traceEvents[N].pid``)."""
    return _BATCH_PATH.sub(lambda at: f"`$.traceEvents[{first + int(at[1])}]", message)


class Batches(Protocol):
    """A trace's events a batch at a time, each batch numbered by `firsts`: its text, and its events decoded."""

    source: str
    kineto_start: bool  # whether the file's start looks like a Kineto trace's (`decode_batch`)

    @property
    def firsts(self) -> range:
        """The number of each batch."""

    def text(self, first: int) -> bytes | bytearray:
        """The batch's events as one JSON array."""

    def decoded(self, decoder: msgspec.json.Decoder[list[Any]], first: int) -> list[Any]:
        """The batch's events."""


@dataclass
class EventBatches:
    """A trace's raw events, `size` at a time: each batch's text, and its events decoded."""

    events: list[msgspec.Raw]
    raw: bytes | mmap.mmap
    source: str
    size: int
    kineto_start: bool  # whether the file's start looks like a Kineto trace's (`decode_batch`)

    def __post_init__(self) -> None:
        self.place = TextPlace(self.raw)

    @property
    def firsts(self) -> range:
        """The number of each batch's first event."""
        return range(0, len(self.events), self.size)

    def text(self, first: int) -> bytes:
        """The text of the batch from event `first` on, as one JSON array.

        A mapped file's pages read so far are let go of first: the file is then resident a
        batch at a time, not whole.
        """
        release_pages(self.raw)
        return self.place.batch_text(self.events[first : first + self.size])

    def decoded(self, decoder: msgspec.json.Decoder[list[Any]], first: int) -> list[Any]:
        """The events of the batch from event `first` on."""
        return decode_batch(decoder, self.text(first), first, self.source, kineto_start=self.kineto_start)


class TextPlace:
    """Where the raw events lie in the file's bytes, so that a batch is one slice of them, not a join of its events.

    msgspec's raw values are views of the bytes decoded; should one not lie inside them, the
    batch is joined from its events instead.
    """

    def __init__(self, raw: bytes | mmap.mmap) -> None:
        self.raw = raw
        whole = np.frombuffer(raw, dtype=np.uint8)
        self.start, self.size = whole.ctypes.data, whole.size
        del whole  # a map with a view of it alive cannot be closed

    def batch_text(self, events: list[msgspec.Raw]) -> bytes:
        """The events as one JSON array: the file's bytes from the first one's start to the last one's end."""
        begin, last = self._offset(events[0]), self._offset(events[-1])
        if begin is None or last is None or last < begin:
            return b"[" + b",".join(events) + b"]"
        return b"".join((b"[", self.raw[begin : last + len(events[-1])], b"]"))

    def _offset(self, event: msgspec.Raw) -> int | None:
        view = np.frombuffer(event, dtype=np.uint8)
        offset = int(view.ctypes.data) - self.start
        return offset if offset >= 0 and offset + view.size <= self.size else None

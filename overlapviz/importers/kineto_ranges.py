"""A PyTorch profiler trace's events cut into batches of text without decoding the document first (see `kineto`).

Decoding the whole document to find where each event lies (msgspec's raw values) takes a
tenth of a large trace's read, and no helper (`kineto_parallel`) could start on its batches
before it ended. Instead the ``traceEvents`` array is found by its key, and its text cut, about
`batch_bytes` apart, where one event ends and the next begins (``}, {``).

Such a cut is a guess (a ``}, {`` may lie inside a text), which decoding proves: a batch that
begins where an event begins decodes as a JSON array only if it also ends where one ends (a
cut inside a string leaves the string open, one inside an event leaves its braces open). So
batches that all decode, the first beginning at the array's start, were cut right. What lies
around the array is decoded as the document with an empty ``traceEvents``, the skeleton. Where
the array is not found, or anything fails to decode, the caller reads the file the slow way,
which says what is wrong.
"""

from __future__ import annotations

import mmap
import re
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import islice
from typing import Any

import msgspec

from overlapviz.core.files.safe_read import release_pages
from overlapviz.importers.kineto_batches import decode_batch
from overlapviz.importers.kineto_schema import DECODER, KinetoDocument

_BOM = b"\xef\xbb\xbf"
_KEY = b'"traceEvents"'
_OPEN = re.compile(rb'"traceEvents"[ \t\n\r]*:[ \t\n\r]*\[')
_BETWEEN = re.compile(rb"\}[ \t\n\r]*,[ \t\n\r]*\{")  # JSON's whitespace only: a cut never hides invalid text
_END = re.compile(rb"[\[}][ \t\n\r]*\]")
_CLOSE_TRIES = 4  # the array's end is one of the last few such ``]`` of the file, or the slow way reads it
_TAIL_BYTES = 1 << 16
RELEASE_EVERY = 16


@dataclass(frozen=True)
class CutEvents:
    """The document around the events, and where each batch of events lies in the file's bytes."""

    document: KinetoDocument
    ranges: list[tuple[int, int]]


def cut_events(raw: bytes | mmap.mmap, batch_bytes: int) -> CutEvents | None:
    """The events of `raw` cut into batches of about `batch_bytes`; None where the layout is not the usual one."""
    begin = len(_BOM) if raw[: len(_BOM)] == _BOM else 0
    found = _OPEN.search(raw, begin)
    if found is None or raw.find(_KEY, begin) != found.start():
        return None
    skeleton = _skeleton(raw, begin, found.end())
    if skeleton is None:
        return None
    document, close = skeleton
    return CutEvents(document, _ranges(raw, found.end(), close, max(batch_bytes, 1)))


def _skeleton(raw: bytes | mmap.mmap, begin: int, open_end: int) -> tuple[KinetoDocument, int] | None:
    """The document with an empty ``traceEvents``, and where the array ends: tried at its last few possible ends."""
    head = raw[begin:open_end]
    for close in islice(_possible_ends(raw, open_end), _CLOSE_TRIES):
        tail = raw[close:]
        if _KEY in tail:  # a second traceEvents: the slow way reads the one JSON keeps
            return None
        try:
            document = DECODER.decode(head + tail)
        except (msgspec.DecodeError, RecursionError):
            continue
        if document.trace_events == []:
            return document, close
    return None


def _possible_ends(raw: bytes | mmap.mmap, open_end: int) -> Iterator[int]:
    """Each ``]`` just after an event's ``}`` (or the array's ``[``), from the file's end back.

    The file's end is searched first, then a part of it sixteen times larger, and so on: what
    follows the array is usually small.
    """
    seen, window = len(raw), _TAIL_BYTES
    while True:
        begin = max(open_end - 1, len(raw) - window)
        ends = [found.end() - 1 for found in _END.finditer(raw, begin)]
        yield from reversed([end for end in ends if end < seen])
        if begin == open_end - 1:
            return
        seen, window = begin, window * 16


def _ranges(raw: bytes | mmap.mmap, begin: int, close: int, batch_bytes: int) -> list[tuple[int, int]]:
    """Where each batch lies: from `begin` to `close`, cut at an event's end about `batch_bytes` on."""
    ranges = []
    while begin + batch_bytes < close:
        between = _BETWEEN.search(raw, begin + batch_bytes, close)
        if between is None:
            break
        ranges.append((begin, between.start() + 1))
        begin = between.end() - 1
    ranges.append((begin, close))
    return ranges


@dataclass
class RangeBatches:
    """The batches of a trace cut by `cut_events`: each one's text as a JSON array, and its events decoded.

    A batch's number stands for its first event's: its errors are placed by the slow way, which
    reads the file again.
    """

    raw: bytes | mmap.mmap
    ranges: list[tuple[int, int]]
    source: str
    kineto_start: bool

    @property
    def firsts(self) -> range:
        """The number of each batch."""
        return range(len(self.ranges))

    def text(self, first: int) -> bytearray:
        """The batch's events as one JSON array, copied once from the file.

        A mapped file's pages read so far are let go of every `RELEASE_EVERY` batches (each
        time costs a walk of the whole map): the file is then resident a few MB at a time, not whole.
        """
        if first % RELEASE_EVERY == 0:
            release_pages(self.raw)
        begin, end = self.ranges[first]
        text = bytearray(end - begin + 2)
        text[0], text[-1] = ord("["), ord("]")
        with memoryview(self.raw) as whole, whole[begin:end] as events:
            text[1:-1] = events
        return text

    def decoded(self, decoder: msgspec.json.Decoder[list[Any]], first: int) -> list[Any]:
        """The events of batch number `first`."""
        return decode_batch(decoder, self.text(first), first, self.source, kineto_start=self.kineto_start)

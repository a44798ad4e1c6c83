"""A large trace's event batches decoded on several cores: each helper process builds the rows of a run of batches.

msgspec holds the interpreter's lock while it decodes, so threads would not help: helper
processes, started with "spawn" (a fork of a process that runs other threads is unsafe), are
each sent the text of a run of batches through a pipe. The reading process builds the first
run itself, then takes in the helpers' runs in file order, numbering their names as one
reader would (`KinetoTable.merge`): columns, names and errors are the serial reader's, and of
several bad events the first in the file is the one reported. A helper that cannot start or
dies leaves its run to the reading process; with no helper, this is the serial reader. A
helper words a bad event in the reading process's language (a fresh process would take the
environment's, not the one chosen with ``--lang`` or in the window).
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import threading
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from types import TracebackType

import numpy as np

from overlapviz.core.i18n import current_language, set_language
from overlapviz.core.system_memory import available_memory_bytes
from overlapviz.importers.kineto_batches import Batches, decode_batch
from overlapviz.importers.kineto_columns import KinetoTable, TablePart
from overlapviz.importers.kineto_errors import KinetoFormatError
from overlapviz.importers.kineto_schema import EVENTS_DECODER

# Below this a helper's start (a fresh interpreter importing numpy and msgspec) costs more than it saves.
PARALLEL_MIN_BYTES = 200 * 1024**2
_MAX_HELPERS = 7
# The reading process also sends the texts and joins the columns: it takes this share of a
# helper's batches, so that all end about together. With its events cut, not decoded, first
# (`kineto_ranges`), it reads a batch about as fast as a helper (one helper, two cores).
_OWN_SHARE = 0.9


@dataclass(frozen=True)
class _Setup:
    """What a helper needs to build rows as the reading process would."""

    source: str
    base_ns: int
    kineto_start: bool
    language: str  # the reading process's, which the helper's messages speak


def helper_count(size: int, min_bytes: int = PARALLEL_MIN_BYTES) -> int:
    """How many helpers to start for a trace of `size` bytes: one per other core this process may run on.

    None below `min_bytes`, with one core or none idle, where memory would not hold another copy of the
    text, or in a daemonic process (which may have no children).
    """
    if size < min_bytes or multiprocessing.current_process().daemon or _available_memory() < size:
        return 0
    return max(0, min(usable_cores() - 1 - _others_running(), _MAX_HELPERS))


def usable_cores() -> int:
    """The cores this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def _others_running() -> int:
    """Other threads of the machine that run or wait for a core now (Linux's procs_running); 0 where unknown.

    Where the other cores are busy a helper only waits for one, and its start and the texts
    it is sent are work added.
    """
    try:
        with open("/proc/stat", "rb") as stat:
            for line in stat:
                if line.startswith(b"procs_running "):
                    return max(0, int(line.split()[1]) - 1)
    except (OSError, ValueError, IndexError):
        pass
    return 0


def _available_memory() -> int:
    """The memory that can be taken without swapping; unbounded where the system does not say."""
    available = available_memory_bytes()
    return 2**62 if available is None else available


_Link = tuple[BaseProcess, Connection]
# Helpers started before the trace is read (`start_early`), waiting for the next `Helpers` to take them.
_EARLY: list[_Link] = []


def start_early(count: int) -> None:
    """Start `count` helpers now, for the next read to take, so that their start overlaps what comes before it."""
    _EARLY.extend(_started(count))


def end_early() -> None:
    """End the helpers `start_early` started that no read took."""
    while _EARLY:
        process, link = _EARLY.pop()
        process.kill()  # it has done nothing yet
        link.close()
        process.join()


def _started(count: int) -> list[_Link]:
    """`count` helper processes started, each with the end of its pipe; fewer where the system runs out."""
    links: list[_Link] = []
    context = multiprocessing.get_context("spawn")
    for _ in range(count):
        ours, theirs = context.Pipe()
        process = context.Process(target=_serve, args=(theirs,), daemon=True, name="kineto batches")
        try:
            process.start()
        except OSError:  # no more processes: those started do the work
            ours.close()
            break
        finally:
            theirs.close()
        links.append((process, ours))
    return links


class Helpers:
    """Helper processes, started before the batches are cut so that their start overlaps it; ended on leaving.

    Those `start_early` started are taken instead, however many: they were counted for this
    trace, and would now count among the others running (`helper_count`).
    """

    def __init__(self, count: int) -> None:
        self.links: list[_Link] = _EARLY[:] if _EARLY else _started(count)
        _EARLY.clear()
        self.sender: threading.Thread | None = None

    def send(self, setup: _Setup, runs: list[list[int]], batches: Batches) -> None:
        """Send each helper its run of batches, from a thread: the texts are copied while this process reads its own."""

        def send_all() -> None:
            for (_, link), run in zip(self.links, runs, strict=True):
                _send(link, setup, run, batches)

        self.sender = threading.Thread(target=send_all, name="kineto batches sender", daemon=True)
        self.sender.start()

    def received(self) -> list[TablePart | None]:
        """Each helper's rows, in file order; None for one that failed (`_received`)."""
        if self.sender is not None:
            self.sender.join()
        return [_received(link) for _, link in self.links]

    def __enter__(self) -> Helpers:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 where: TracebackType | None) -> None:  # fmt: skip
        for process, _ in self.links:
            if kind is not None:  # their work is no longer wanted; a send to them fails at once
                process.kill()
        if self.sender is not None:
            self.sender.join()
        for process, link in self.links:
            link.close()
            process.join()


def read_batches(table: KinetoTable, batches: Batches, helpers: Helpers) -> None:
    """Add every batch's rows to `table`, in file order, the helpers building all runs but the first."""
    runs = _runs(batches.firsts, len(helpers.links))
    if helpers.links:
        setup = _Setup(batches.source, table.base_ns, batches.kineto_start, current_language())
        helpers.send(setup, runs[1:], batches)
    for first in runs[0]:
        table.add(first, batches.decoded(EVENTS_DECODER, first))
    for run, part in zip(runs[1:], helpers.received(), strict=True):
        if part is not None:
            table.merge(part)
            continue
        for first in run:  # the helper failed: its run is read here
            table.add(first, batches.decoded(EVENTS_DECODER, first))


def _runs(firsts: range, helpers: int) -> list[list[int]]:
    """The batches split into contiguous runs, the first the reading process's, smaller by `_OWN_SHARE`."""
    shares = np.array([_OWN_SHARE] + [1.0] * helpers)
    ends = np.round(np.cumsum(shares) / shares.sum() * len(firsts)).astype(int)
    return [list(firsts[begin:end]) for begin, end in zip([0, *ends[:-1].tolist()], ends.tolist(), strict=True)]


def _send(link: Connection, setup: _Setup, run: list[int], batches: Batches) -> None:
    """Send a helper its run of batches; one that found a bad event, or died, stops taking them."""
    try:
        link.send((setup, len(run)))
        for first in run:
            link.send(first)
            link.send_bytes(batches.text(first))
    except OSError:  # what it has to say, `_received` hears
        return


def _received(link: Connection) -> TablePart | None:
    """A helper's rows; None where it failed other than on a bad event."""
    try:
        result = link.recv()
    except (EOFError, OSError):
        return None
    if isinstance(result, str):
        raise KinetoFormatError(result)
    return result if isinstance(result, TablePart) else None


def _serve(link: Connection) -> None:
    """A helper's work: build the rows of a run of batches as they come, send them back (or a bad event's message)."""
    try:
        with link:
            setup, count = link.recv()
            link.send(_built(setup, count, link))
    except (EOFError, OSError):  # the reading process has given up on this helper
        return


def _built(setup: _Setup, count: int, link: Connection) -> TablePart | str | None:
    set_language(setup.language)
    table = KinetoTable(setup.source, setup.base_ns)
    texts = _received_ahead(link, count)
    try:
        for _ in range(count):
            received = texts.get()
            if received is None:
                raise EOFError
            first, text = received
            events = decode_batch(EVENTS_DECODER, text, first, setup.source, kineto_start=setup.kineto_start)
            del text
            table.add(first, events)
    except KinetoFormatError as error:
        return str(error)
    except (MemoryError, RecursionError):  # the reading process reads the run itself
        return None
    return table.part()


def _received_ahead(link: Connection, count: int) -> queue.Queue[tuple[int, bytes] | None]:
    """The texts of a run, received by a thread a batch or two ahead of their decoding.

    The reading process sends them when its own decoding lets go of the interpreter's lock:
    taken as they come, they are ready when wanted.
    """
    texts: queue.Queue[tuple[int, bytes] | None] = queue.Queue(maxsize=2)  # a few batches held, not the run

    def receive() -> None:
        try:
            for _ in range(count):
                texts.put((link.recv(), link.recv_bytes()))
        except (EOFError, OSError):  # the reading process gave up on this helper
            texts.put(None)

    threading.Thread(target=receive, name="kineto batches receiver", daemon=True).start()
    return texts

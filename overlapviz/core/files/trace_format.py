"""Chrome trace JSON as overlapviz writes it: the format's version and its vocabulary.

Chrome trace JSON opens in Perfetto and chrome://tracing: one ``ph: "X"`` event per span and
lane, ``ts``/``dur`` in microseconds, ``pid`` 1, one ``tid`` per lane (host thread, each
stream, each hardware unit) named by ``thread_name`` metadata events; a lane whose spans overlap
(kernels side by side on the compute unit) is split into as many tracks as it needs, because
these viewers drop spans of one thread that overlap without nesting. A device op is drawn
in its stream lane and in its unit lane, so it appears twice; the first event carries the
row (``args.row`` and every column), the others point back at it with ``args.copy_of`` and
are skipped on import. ``otherData.overlapviz`` holds the format version, the trace
metadata and the span names, so `import_chrome` rebuilds exactly the trace that was written.
Times are written as ``ns / 1000`` floats, from which the nanoseconds come back exactly for
runs shorter than about three days; the integer nanoseconds also ride along in ``args``.
Format 2 added each span's ``device`` and ``thread``; a format 1 file, which has neither,
reads as what it recorded: one GPU (device 0) driven by one host thread (thread 0). Kinds and
units are written as words (`OpKind.label`, the unit's lower-case name); ``communication``
joined both in format 2, so an overlapviz from before it refuses such a span by name.

Writing is `core.files.trace_export`'s, reading `core.files.trace_import`'s; both take their words from here.
"""

from __future__ import annotations

import os
from typing import Any

from overlapviz.core.i18n import _
from overlapviz.core.trace.columns import PLACEMENT_COLUMNS
from overlapviz.core.trace.spans import MemoryKind, OpKind, Unit

FORMAT_VERSION = 2
PROCESS_ID = 1
KIND_WORDS = {kind.label: kind for kind in OpKind}
UNIT_WORDS = {unit.name.lower(): unit for unit in Unit}
MEMORY_WORDS = {memory.label: memory for memory in MemoryKind}
WORD_COLUMNS: dict[str, dict[str, Any]] = {"kind": KIND_WORDS, "unit": UNIT_WORDS, "memory": MEMORY_WORDS}
WORD_OF: dict[str, dict[int, str]] = {
    column: {int(value): word for word, value in vocabulary.items()} for column, vocabulary in WORD_COLUMNS.items()
}
INT_ARGS = ("stream", "chunk", "enqueue_ns", "ready_ns", "start_ns", "end_ns", "bytes", "op", *PLACEMENT_COLUMNS)


class TraceFormatError(ValueError):
    """A file is not a trace overlapviz can read; the message says what is wrong."""


def file_reason(source: str | os.PathLike[str], why: object) -> str:
    """``PATH: why``: the one line that names the file a reason is about, in the active language."""
    return _("{file}: {reason}").format(file=os.fspath(source), reason=why)

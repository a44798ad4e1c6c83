"""A time window of a trace: the metrics and findings of one part of a run.

A window keeps every span that overlaps it, cut to the window's edges, so the figures of a
window are those of the picture between its edges: a copy half inside counts half. Host
calls keep pointing at the device ops they issued when those are inside too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from overlapviz.core.i18n import _
from overlapviz.core.number_text import fixed
from overlapviz.core.trace.spans import UNKNOWN, Trace

NS_PER_MS = 1_000_000
_RANGE = re.compile(r"^\s*([0-9]+(?:\.[0-9]+)?)?\s*:\s*([0-9]+(?:\.[0-9]+)?)?\s*$", re.ASCII)
MAX_WINDOW_MS = 10**9  # about eleven days: far past any trace, and well inside int64 nanoseconds


class WindowError(ValueError):
    """A window that cannot be read or is empty; the message says why."""


@dataclass(frozen=True, slots=True)
class Window:
    """From `start_ns` to `end_ns`, in the trace's time (ns from its start)."""

    start_ns: int
    end_ns: int

    def describe(self) -> str:
        """``2.000 to 4.500 ms``."""
        start, end = fixed(self.start_ns / NS_PER_MS, 3), fixed(self.end_ns / NS_PER_MS, 3)
        return _("{start} to {end} ms").format(start=start, end=end)


def is_time_range(text: str) -> bool:
    """Whether `text` has the ``START:END`` form (either side may be left out), not a range's name."""
    return _RANGE.match(text) is not None and text.strip() != ":"


def parse_window(text: str, trace: Trace) -> Window:
    """Read ``START:END`` in milliseconds from the trace's start (either side may be left out).

    Raises
    ------
    WindowError
        The text is not a range, the range is empty, or it holds no span of the trace.
    """
    match = _RANGE.match(text)
    if not match or text.strip() == ":":
        message = _("{text} is not a window; write START:END in ms, e.g. 2:4.5 or 10:")
        raise WindowError(message.format(text=repr(text[:40])))
    first, last = (float(value) if value else None for value in match.groups())
    if any(value is not None and value > MAX_WINDOW_MS for value in (first, last)):
        raise WindowError(_("{text} is far past the end of any trace").format(text=repr(text[:40])))
    end_of_trace = int(trace["end_ns"].max()) if len(trace) else 0
    start = round(first * NS_PER_MS) if first is not None else 0
    end = round(last * NS_PER_MS) if last is not None else end_of_trace
    if end <= start:
        raise WindowError(_("the window {window} is empty: it must end after it starts").format(window=text.strip()))
    return Window(start, end)


def clip_to_window(trace: Trace, window: Window) -> Trace:
    """The spans of `trace` that overlap `window`, cut to its edges.

    Raises
    ------
    WindowError
        No span overlaps the window.
    """
    start, end = trace["start_ns"], trace["end_ns"]
    overlaps = (start < window.end_ns) & (end > window.start_ns)
    instant_inside = (start == end) & (start >= window.start_ns) & (start <= window.end_ns)
    keep = np.flatnonzero(overlaps | instant_inside)
    if keep.size == 0:
        raise WindowError(_("no span of the trace lies in the window {window}").format(window=window.describe()))
    new_row = np.full(len(trace), UNKNOWN, dtype=np.int64)
    new_row[keep] = np.arange(keep.size)
    columns = {name: values[keep].copy() for name, values in trace.columns.items()}
    whole = columns["end_ns"] - columns["start_ns"]
    columns["start_ns"] = np.maximum(columns["start_ns"], window.start_ns)
    columns["end_ns"] = np.minimum(columns["end_ns"], window.end_ns)
    cut = whole > 0  # a copy cut by an edge moved its bytes in proportion to its time inside
    columns["bytes"][cut] = columns["bytes"][cut] * (columns["end_ns"] - columns["start_ns"])[cut] // whole[cut]
    for name in ("enqueue_ns", "ready_ns"):  # a wait begun before the window shows from its edge
        known = columns[name] != UNKNOWN
        columns[name][known] = np.clip(columns[name][known], window.start_ns, columns["start_ns"][known])
    op = columns["op"]
    linked = op != UNKNOWN
    op[linked] = new_row[op[linked]]  # an op outside the window: the call issued nothing we show
    return Trace(columns, trace.names, trace.meta.replace(window=(window.start_ns, window.end_ns)))

"""The time window the figures are of: a named range of the trace, or a span of time.

A program marks the part it cares about with a range (NVTX, ``record_function``,
``ProfilerStep#N``; `core.analysis.time_window_names`); choosing one computes the metrics and findings of
that part alone, as ``overlapviz analyze --window`` does (`core.analysis.time_window`). The run on show is
then the trace cut to the window; the whole trace stays at hand to go back to. Pure: no Qt.
"""

from __future__ import annotations

from dataclasses import dataclass

from overlapviz.core.analysis.time_window import (
    NS_PER_MS,
    Window,
    WindowError,
    clip_to_window,
    is_time_range,
    parse_window,
)
from overlapviz.core.analysis.time_window_names import range_names, range_window
from overlapviz.core.cancel import CancelToken
from overlapviz.core.i18n import _
from overlapviz.core.trace.spans import Trace
from overlapviz.view.formatting import format_duration
from overlapviz.view.prepared import PreparedView, prepare_trace

MENU_RANGES = 40  # range names offered in the menu; a trace of thousands of ranges lists the first
SIDES = ("A", "B")


@dataclass(frozen=True)
class TimeWindow:
    """A window of the trace, and the range it is (empty: a span of time the user picked)."""

    window: Window
    name: str = ""

    def describe(self) -> str:
        """``ProfilerStep#2, 12.000 to 15.000 ms``, or the times alone."""
        times = self.window.describe()
        return f"{self.name}, {times}" if self.name else times


def window_choices(*traces: Trace) -> list[str]:
    """The names of ranges a window can be chosen by, in the order they first start (at most `MENU_RANGES`).

    Of several traces (the two sides of a comparison): the first's names, then the others' new ones.
    """
    names = dict.fromkeys(name for trace in traces for name in range_names(trace))
    return list(names)[:MENU_RANGES]


def named_window(trace: Trace, name: str) -> TimeWindow:
    """The window of the first range called `name` (or ``NAME#k``, the k-th).

    Raises
    ------
    WindowError
        No range has that name; the message names a few that the trace has.
    """
    return TimeWindow(range_window(trace, name), name)


def text_window(trace: Trace, text: str) -> TimeWindow:
    """The window `text` gives: ``START:END`` in ms from the trace's start (either end left out), else a range's name.

    As ``analyze --window`` and ``render --window`` take it; a name is read as `named_window` reads it.

    Raises
    ------
    WindowError
        The span is empty, or no range has that name (the message names a few that the trace has).
    """
    if is_time_range(text):
        return TimeWindow(parse_window(text, trace))
    try:
        return named_window(trace, text)
    except WindowError as error:
        if ":" not in text:
            raise
        message = _("{text} is not START:END in ms (e.g. 2:4.5 or 10:); as a name: {error}")
        raise WindowError(message.format(text=repr(text[:40]), error=error)) from None


def pair_range_windows(a: Trace, b: Trace, name: str) -> tuple[TimeWindow | None, TimeWindow | None]:
    """The window of the range `name` in A and in B (None for a side that has no such range).

    Raises
    ------
    WindowError
        Neither side has a range of that name.
    """
    windows = tuple(_range_or_none(trace, name) for trace in (a, b))
    if windows == (None, None):
        raise WindowError(_("neither A nor B has a range named {name}").format(name=repr(name[:80])))
    return windows[0], windows[1]


def _range_or_none(trace: Trace, name: str) -> TimeWindow | None:
    try:
        return named_window(trace, name)
    except WindowError:
        return None


def lacking_note(windows: tuple[TimeWindow | None, TimeWindow | None], name: str) -> str:
    """What to say when one side of a comparison has no range `name` (empty when both have it)."""
    lacking = [side for side, window in zip(SIDES, windows, strict=True) if window is None]
    if not lacking:
        return ""
    side = lacking[0]
    return _("{side} has no range named {name}: {side}'s figures are of its whole run").format(
        side=side, name=repr(name[:80])
    )


def span_window(t0_ms: float, t1_ms: float) -> TimeWindow:
    """The window from `t0_ms` to `t1_ms` (ms from the trace's start; the earlier first).

    Raises
    ------
    WindowError
        The span is empty.
    """
    start, end = sorted((max(round(t0_ms * NS_PER_MS), 0), max(round(t1_ms * NS_PER_MS), 0)))
    if end <= start:
        raise WindowError(_("the time span is empty: zoom the timeline to the part you want first"))
    return TimeWindow(Window(start, end))


def window_view(view: PreparedView, window: TimeWindow, cancel: CancelToken | None = None) -> PreparedView:
    """`view`'s trace cut to `window`, analysed and prepared for the timeline.

    Raises
    ------
    WindowError
        No span lies in the window.
    """
    return prepare_trace(cut_trace(view.trace, window), view.result.wall_s, cancel)


def cut_trace(trace: Trace, window: TimeWindow) -> Trace:
    """`trace` cut to `window`, which its metadata names (`trace_window` reads it back).

    Raises
    ------
    WindowError
        No span lies in the window.
    """
    cut = clip_to_window(trace, window.window)
    return cut.with_meta(window_name=window.name) if window.name else cut


def trace_window(trace: Trace) -> TimeWindow | None:
    """The window a trace was cut to (`window_view`, ``analyze --window``), if it was."""
    bounds = trace.meta.window
    if bounds is None:
        return None
    return TimeWindow(Window(*bounds), trace.meta.window_name or "")


def span_label(t0_ms: float, t1_ms: float) -> str:
    """``6.654 to 9.546 ms (2.89 ms)``: the span being dragged out, the earlier end first."""
    start, end = sorted((t0_ms, t1_ms))
    times = Window(round(start * NS_PER_MS), round(end * NS_PER_MS)).describe()
    return f"{times} ({format_duration((end - start) * NS_PER_MS)})"


def window_status(b: TimeWindow | None, a: TimeWindow | None = None, *, comparing: bool = False) -> str:
    """``Window: step 1, 6.654 to 9.546 ms`` for the status bar; a comparison names each side's.

    Empty when the figures are of the whole run (of both runs, when comparing).
    """
    if not comparing:
        return "" if b is None else _("Window: {window}").format(window=b.describe())
    if a is None and b is None:
        return ""
    if a == b and b is not None:
        return _("Window (A and B): {window}").format(window=b.describe())
    a_text, b_text = (window.describe() if window else _("whole run") for window in (a, b))
    return _("Window: A {a}; B {b}").format(a=a_text, b=b_text)

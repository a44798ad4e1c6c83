"""Where a timeline opens: on the GPU work of another tool's trace, else on the whole run.

A profiler records from the moment it is started: a PyTorch trace may spend 350 ms in Python
before a 14 ms burst of copies and kernels at its end, so drawn whole its GPU work is a
sliver. Such a trace opens on its device work, from the first device op's start to the last
one's end with `MARGIN` of that span on each side; the whole trace is one key away. A run of
overlapviz, or a trace it wrote, opens whole as it always has: its device work need not
fill it (a run that allocates its host memory per run spends most of its time before its
first copy, and that time is what it shows). A trace cut to a time window opens on its
window. Pure: no Qt here.
"""

from __future__ import annotations

from collections.abc import Iterable

from overlapviz.core.analysis.time_window import Window
from overlapviz.core.i18n import _
from overlapviz.core.trace.answer_cache import kept_per_trace
from overlapviz.core.trace.spans import Trace
from overlapviz.view.formatting import NS_PER_MS, format_duration

MARGIN = 0.03  # of the device work's length, on each side

Span = tuple[float, float]  # ms from the run's start


@kept_per_trace
def device_work_ns(trace: Trace) -> tuple[int, int] | None:
    """From the first device op's start to the last one's end (None: the trace has no device op).

    Kept with the trace: the timeline asks each time it shows it.
    """
    device = trace.device_mask
    if not device.any():
        return None
    return int(trace["start_ns"][device].min()), int(trace["end_ns"][device].max())


def device_work_ms(trace: Trace) -> Span | None:
    """The device work with its margin, inside the trace's own extent (None: no device op)."""
    work = device_work_ns(trace)
    if work is None:
        return None
    start, end = work[0] / NS_PER_MS, work[1] / NS_PER_MS
    pad = (end - start) * MARGIN
    return max(start - pad, 0.0), min(end + pad, _extent_ms(trace)[1])


def opens_on_device_work(trace: Trace) -> bool:
    """Whether the timeline opens on the device work: another tool's trace, whole (see the module docstring)."""
    meta = trace.meta
    return bool(meta.tool) and meta.window is None


def opening_ms(trace: Trace) -> Span | None:
    """The time a timeline of `trace` opens on (None: the whole run, as the timeline fits it)."""
    return device_work_ms(trace) if opens_on_device_work(trace) else None


def opening_note(trace: Trace) -> str:
    """``Showing the GPU work, 851.209 to 958.548 ms of a 1100.7 ms trace`` where the trace opens on it; else empty."""
    opening = opening_ms(trace)
    if opening is None:
        return ""
    shown = Window(round(opening[0] * NS_PER_MS), round(opening[1] * NS_PER_MS)).describe()
    return _("Showing the GPU work, {window} of a {duration} trace").format(
        window=shown, duration=format_duration(_extent_ms(trace)[1] * NS_PER_MS)
    )


def pair_opening_ms(traces: Iterable[Trace]) -> Span | None:
    """The time stacked timelines on one axis open on: every side's opening (a side that opens whole counts whole).

    None when no side opens on its device work.
    """
    openings = [(opening_ms(trace), trace) for trace in traces]
    if all(opening is None for opening, _trace in openings):
        return None
    return union_ms(opening or _extent_ms(trace) for opening, trace in openings)


def union_ms(spans: Iterable[Span | None]) -> Span | None:
    """The time from the earliest start to the latest end of `spans` (None where none is given)."""
    given = [span for span in spans if span is not None]
    if not given:
        return None
    return min(span[0] for span in given), max(span[1] for span in given)


def _extent_ms(trace: Trace) -> Span:
    """From the first span's start to the last one's end."""
    if len(trace) == 0:
        return 0.0, 0.0
    return float(trace["start_ns"].min()) / NS_PER_MS, float(trace["end_ns"].max()) / NS_PER_MS

"""A trace prepared for the timeline: everything the window shows of it, worked out once.

Preparing a trace reads it whole several times: its metrics and findings, its lanes and the
rows of each, the span arrays every (lane, kind) item draws, the host time blocked and the
bandwidth per row that the tooltips quote, the callouts, the hover index and the kernel rate
the controls label their slider with. `prepare_view` does all of that in one place, on the
run thread (a run, a file that was opened, both sides of a comparison), so that the GUI
thread only places the lanes for its theme and hands the arrays to its items. What needs
the trace alone (`draw_trace`) and what needs its metrics and findings too (`view_of`: the
callouts) are apart, so that `prepare_trace` can draw a big trace while it is analysed.
Nothing here depends on the theme or on whether the callouts are shown. Pure: no Qt here.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from overlapviz.core.analysis.metrics import Metrics, copy_bandwidth_gbps, host_blocked_per_row
from overlapviz.core.analysis.time_window_names import range_names
from overlapviz.core.cancel import CancelToken
from overlapviz.core.devices.figures import findings_per_device, metrics_per_device
from overlapviz.core.findings import Finding
from overlapviz.core.trace.lanes import gpus_of
from overlapviz.core.trace.spans import Trace
from overlapviz.session import RunResult, analyse
from overlapviz.view.callouts import Callout, callouts_for
from overlapviz.view.formatting import NS_PER_MS
from overlapviz.view.gpus_drawn import gpus_not_drawn, lanes_drawn
from overlapviz.view.hover_index import HoverIndex
from overlapviz.view.kernel_time import KernelRate, kernel_rate
from overlapviz.view.lane_rows import LaneRows, lanes_with_rows
from overlapviz.view.palette import LegendEntry, legend_for
from overlapviz.view.span_sets import BatchKey, SpanSet, build_span_sets, styles_present
from overlapviz.view.stream_filter import StreamFilter

DRAW_BESIDE_MIN_SPANS = 200_000  # below this a trace is drawn after its analysis, on one thread
EMPTY_RUN_MS = 1.0  # the extent of a trace with no spans, so that the axis has a width


@dataclass(frozen=True, eq=False)
class PreparedView:
    """One run (or file) with everything its timeline, tooltips and panels read."""

    result: RunResult
    lanes: tuple[LaneRows, ...]
    span_sets: Mapping[BatchKey, tuple[SpanSet, ...]]
    callouts: tuple[Callout, ...]
    hover: HoverIndex
    blocked_ns: npt.NDArray[np.int64]  # host time blocked per row
    kernel_rate: KernelRate | None  # the kernel's rate and where it ran, for the kernel slider's label
    end_ms: float  # the last end, ms from the run's start
    # Set on a view made from another for the stream lanes a filter keeps (`filtered_view`).
    stream_filter: StreamFilter | None = None
    unfiltered: PreparedView | None = None  # the view it was made from, every lane in it
    gpus_not_drawn: tuple[int, ...] = ()  # GPUs past those a picture has room for (`gpus_drawn`)

    @functools.cached_property
    def bandwidth_gbps(self) -> npt.NDArray[np.float64]:
        """Each row's copy bandwidth (NaN for others): worked out at the first tooltip, not at the open."""
        return copy_bandwidth_gbps(self.trace)

    @property
    def trace(self) -> Trace:
        """The spans."""
        return self.result.trace

    @property
    def metrics(self) -> Metrics:
        """The run's numbers."""
        return self.result.metrics

    @property
    def findings(self) -> list[Finding]:
        """The run's explanations."""
        return self.result.findings


@dataclass(frozen=True, eq=False)
class TraceDrawing:
    """What the window shows of a trace that needs neither its metrics nor its findings."""

    lanes: tuple[LaneRows, ...]
    span_sets: Mapping[BatchKey, tuple[SpanSet, ...]]
    hover: HoverIndex
    blocked_ns: npt.NDArray[np.int64]
    kernel_rate: KernelRate | None
    end_ms: float
    gpus_not_drawn: tuple[int, ...]


def prepare_view(result: RunResult, cancel: CancelToken | None = None) -> PreparedView:
    """Work out everything the window shows of `result` (see the module docstring).

    Raises
    ------
    RunCancelled
        `cancel` was set between two steps.
    """
    return view_of(result, draw_trace(result.trace, cancel))


def draw_trace(trace: Trace, cancel: CancelToken | None = None) -> TraceDrawing:
    """The part of `prepare_view` that reads the trace alone: lanes, span sets, hover index, extent.

    Raises
    ------
    RunCancelled
        `cancel` was set between two steps.
    """
    lanes = lanes_with_rows(trace, lanes_drawn(trace))
    _check(cancel)
    blocked = host_blocked_per_row(trace)
    span_sets = build_span_sets(trace, lanes, blocked)
    _check(cancel)
    hover = HoverIndex(trace, lanes, (s for sets in span_sets.values() for s in sets))
    range_names(trace)  # the time-window menu's, read on every show
    if len(gpus_of(trace)) > 1:  # each GPU's figures, worked out here and kept, not when a GPU is picked
        metrics_per_device(trace)
        findings_per_device(trace)
    _check(cancel)
    end_ms = float(trace["end_ns"].max()) / NS_PER_MS if len(trace) else EMPTY_RUN_MS
    return TraceDrawing(lanes, span_sets, hover, blocked, kernel_rate(trace), end_ms, gpus_not_drawn(trace))


def view_of(result: RunResult, drawing: TraceDrawing) -> PreparedView:
    """`result` with its `drawing` (made from `result.trace`) and the callouts, which need both."""
    callouts = callouts_for(result.trace, result.metrics, result.findings, drawing.lanes, drawing.blocked_ns)
    return PreparedView(
        result, drawing.lanes, drawing.span_sets, tuple(callouts), drawing.hover, drawing.blocked_ns,
        drawing.kernel_rate, drawing.end_ms, gpus_not_drawn=drawing.gpus_not_drawn,
    )  # fmt: skip


def prepare_trace(trace: Trace, wall_s: float = 0.0, cancel: CancelToken | None = None) -> PreparedView:
    """Analyse `trace` (metrics, findings) and prepare it; `wall_s` is how long making it took.

    On a big trace the drawing (`draw_trace`) is made on a second thread while this one
    analyses: numpy lets go of the GIL in its sorts, searches and ufuncs, so the two use two
    cores (where there are two). The thread is the call's own and ends before this returns,
    whatever happens, so no thread outlives an open (nor the app's worker thread, which
    quitting waits for). Either way the view is the same.

    Raises
    ------
    RunCancelled
        `cancel` was set between two steps.
    """
    if len(trace) < DRAW_BESIDE_MIN_SPANS or usable_cores() < 2:
        result = analyse(trace, wall_s)
        _check(cancel)
        return prepare_view(result, cancel)
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="overlapviz-draw") as pool:
        drawing = pool.submit(draw_trace, trace, cancel)
        try:
            result = analyse(trace, wall_s)
        except BaseException:
            drawing.cancel()
            raise
        made = drawing.result()
    _check(cancel)
    return view_of(result, made)


def usable_cores() -> int:
    """How many cores this process may run on (on one, a second thread only takes turns with the first)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on Linux
        return os.cpu_count() or 1


def legend_of(views: Iterable[PreparedView]) -> tuple[LegendEntry, ...]:
    """The legend of a picture of `views`: the usual key and every other kind they draw."""
    return legend_for(style for view in views for style in styles_present(view.span_sets))


def _check(cancel: CancelToken | None) -> None:
    if cancel is not None:
        cancel.check()

"""The run on show, on the window: the timeline, the legend, the metrics, the status line and the title.

Follows the model's run on show and pinned run (`app.model`); notes in the model the time
window the timeline shows.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QLabel

from overlapviz._qt.timeline.widget import TimelineWidget
from overlapviz._qt.widgets.controls import ControlsPanel
from overlapviz._qt.widgets.legend import LegendBar
from overlapviz._qt.widgets.metrics_panel import MetricsPanel
from overlapviz.app.main_window_title import window_title
from overlapviz.app.model import AppModel, Shown
from overlapviz.app.time_window import window_status
from overlapviz.view.palette import LEGEND
from overlapviz.view.prepared import legend_of
from overlapviz.view.status_text import status_line

STATUS_SEPARATOR = "  \u00b7  "  # as between the status line's own parts


class RunOnShow:
    """Shows the model's run on show; `drawn` is called each time a new timeline is on show."""

    def __init__(
        self, model: AppModel, timeline: TimelineWidget, legend: LegendBar, metrics: MetricsPanel,
        controls: ControlsPanel, status_label: QLabel, set_title: Callable[[str], None], drawn: Callable[[], None],
    ) -> None:  # fmt: skip
        self._model = model
        self._timeline, self._legend, self._metrics = timeline, legend, metrics
        self._controls, self._status_label = controls, status_label
        self._drawn = drawn
        model.shown_changed.connect(self._show_run)
        model.pinned_changed.connect(lambda _pinned: self._show_status())
        for changed in (model.shown_changed, model.pinned_changed):
            changed.connect(lambda _value: set_title(window_title(model.shown, model.pinned)))
        metrics.finding_selected.connect(timeline.highlight_rows)
        timeline.window_changed.connect(self._on_window_changed)

    def _show_run(self, shown: Shown | None) -> None:
        if shown is None:
            self._timeline.clear()
            self._legend.set_entries(LEGEND)
            self._metrics.clear()
            self._status_label.setText("")
            self._model.set_window_ms(None)
            return
        view = shown.view
        self._timeline.set_view(view)  # a view cut to a time window is fitted to the window
        self._legend.set_entries(legend_of([view]))
        self._metrics.show_results(view.metrics, view.findings, view.trace)
        self._show_status()
        self._controls.set_kernel_rate(view.kernel_rate)
        self._timeline.when_painted(self._drawn)

    def _show_status(self) -> None:
        """The run on show, and the time window its figures are of (both sides', when comparing)."""
        shown, pinned = self._model.shown, self._model.pinned
        if shown is None:
            return
        view = shown.view
        status = status_line(view.trace.meta, view.result.wall_s, shown.source)
        window = window_status(shown.window, pinned.window if pinned else None, comparing=pinned is not None)
        self._status_label.setText(status + (f"{STATUS_SEPARATOR}{window}" if window else ""))

    def _on_window_changed(self, t0_ms: float, t1_ms: float) -> None:
        self._model.set_window_ms((t0_ms, t1_ms) if self._model.shown is not None else None)

"""View ▸ Time window: the figures and findings of one part of the run on show.

Choosing a range (or the span the timeline shows) cuts the run on show to it off the GUI
thread and shows that part, with its own metrics and findings; "Whole trace" puts the whole
run back. A new run or file starts whole. A comparison keeps each side whole: its figures
are of two runs, and one window would not be the same part of both.
"""

from __future__ import annotations

import dataclasses

from overlapviz.app.model import Shown
from overlapviz.app.runs import Runs
from overlapviz.app.time_window import TimeWindow, named_window, span_window, window_view
from overlapviz.backends.base import CancelToken
from overlapviz.core.window import WindowError

NOTHING_ON_SHOW = "There is no run to cut to a time window yet: run the pipeline or open a trace first."
NOT_WHILE_COMPARING = "A time window is for one run: Stop comparing first, then choose the window."


class Windowing:
    """What View ▸ Time window does."""

    def __init__(self, runs: Runs) -> None:
        self._runs = runs
        self._model = runs.model

    def choose_range(self, name: str) -> bool:
        """The figures of the range `name` (its first occurrence; ``NAME#k`` the k-th)."""
        shown = self._shown_or_say()
        if shown is None:
            return False
        try:
            window = named_window((shown.whole or shown.view).trace, name)
        except WindowError as error:
            self._runs.messages.show_error(f"Time window: {error}")
            return False
        return self._cut(shown, window)

    def choose_span(self, t0_ms: float, t1_ms: float) -> bool:
        """The figures of the time from `t0_ms` to `t1_ms` (the span the timeline shows, say)."""
        shown = self._shown_or_say()
        if shown is None:
            return False
        try:
            window = span_window(t0_ms, t1_ms)
        except WindowError as error:
            self._runs.messages.show_error(f"Time window: {error}")
            return False
        return self._cut(shown, window)

    def whole_trace(self) -> None:
        """The figures of the whole run again."""
        shown = self._model.shown
        if shown is not None and shown.whole is not None:
            self._model.set_shown(dataclasses.replace(shown, view=shown.whole, window=None, whole=None))

    def _shown_or_say(self) -> Shown | None:
        shown = self._model.shown
        if shown is None:
            self._runs.messages.show_error(NOTHING_ON_SHOW)
        elif self._model.comparing:
            self._runs.messages.show_error(NOT_WHILE_COMPARING)
            return None
        return shown

    def _cut(self, shown: Shown, window: TimeWindow) -> bool:
        whole = shown.whole or shown.view

        def job(cancel: CancelToken) -> Shown | str:
            try:
                view = window_view(whole, window, cancel)
            except WindowError as error:  # no span in it: words, not a failed run
                return f"Time window: {error}"
            return dataclasses.replace(shown, view=view, window=window, whole=whole)

        self._runs.submit(job, self._on_cut)
        return True

    def _on_cut(self, cut: Shown | str) -> None:
        if isinstance(cut, str):
            self._runs.messages.show_error(cut)
        else:
            self._model.set_shown(cut)

"""View ▸ Time window, and a span dragged out on the time axis: the figures of one part of the run.

Choosing a range, the span the timeline shows or a span dragged on the axis cuts the run on
show to it off the GUI thread and shows that part, with its own metrics and findings; "Whole
trace" puts the whole run back. A new run or file starts whole. While comparing, a window is
of both sides: a span is the same span of the shared axis (where A and B are drawn lined up at
their first device ops), so each side is cut to the same drawn times; a named range is each
side's own range, and a side without it keeps its whole run (and the window says so). A window
is no change of the controls: undo leaves it alone, as it does a range chosen from the list.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from overlapviz.app.model import Pinned, Shown
from overlapviz.app.runs import Runs
from overlapviz.app.time_window import (
    SIDES,
    TimeWindow,
    lacking_note,
    named_window,
    pair_range_windows,
    span_window,
    window_view,
)
from overlapviz.core.analysis.time_window import WindowError
from overlapviz.core.cancel import CancelToken
from overlapviz.core.i18n import N_, _
from overlapviz.view.prepared import PreparedView

_Asked = tuple[int, Pinned | None, Shown | None]  # which window was asked for, and of what pair
NOTHING_ON_SHOW = N_("There is no run to cut to a time window yet: run the pipeline or open a trace first.")


@dataclass(frozen=True)
class _PairCut:
    """Both sides of a comparison cut to their windows (None: a side left whole)."""

    a: PreparedView | None
    b: PreparedView | None


class Windowing:
    """What View ▸ Time window and a drag on the time axis do."""

    def __init__(self, runs: Runs) -> None:
        self._runs = runs
        self._model = runs.model
        self._asked = 0  # windows asked for so far: only the newest one's cut goes on show

    def choose_range(self, name: str) -> bool:
        """The figures of the range `name` (its first occurrence; ``NAME#k`` the k-th), on each side that has it."""
        shown = self._shown_or_say()
        if shown is None:
            return False
        pinned = self._model.pinned
        try:
            if pinned is None:
                return self._cut(shown, named_window(_whole(shown).trace, name))
            windows = pair_range_windows(pinned.lined_up.trace, _whole(shown).trace, name)
        except WindowError as error:
            self._runs.messages.show_error(_("Time window: {error}").format(error=error))
            return False
        note = lacking_note(windows, name)
        if note:
            self._runs.messages.show_notice(note)
        return self._cut_pair(pinned, shown, windows)

    def choose_span(self, t0_ms: float, t1_ms: float) -> bool:
        """The figures of the time from `t0_ms` to `t1_ms` (dragged on the axis, or the span the timeline shows).

        While comparing, the times are those of the shared axis, and both sides are cut to them.
        """
        shown = self._shown_or_say()
        if shown is None:
            return False
        try:
            window = span_window(t0_ms, t1_ms)
        except WindowError as error:
            self._runs.messages.show_error(_("Time window: {error}").format(error=error))
            return False
        pinned = self._model.pinned
        if pinned is None:
            return self._cut(shown, window)
        return self._cut_pair(pinned, shown, (window, window))

    def whole_trace(self) -> None:
        """The figures of the whole run again (of both runs, when comparing); a cut still on its way is dropped."""
        self._asked += 1
        pinned, shown = self._model.pinned, self._model.shown
        if pinned is not None and pinned.window is not None:
            self._model.set_pinned(dataclasses.replace(pinned, window=None, cut=None))
        if shown is not None and shown.whole is not None:
            self._model.set_shown(dataclasses.replace(shown, view=shown.whole, window=None, whole=None))

    def _shown_or_say(self) -> Shown | None:
        shown = self._model.shown
        if shown is None:
            self._runs.messages.show_error(_(NOTHING_ON_SHOW))
        return shown

    def _cut(self, shown: Shown, window: TimeWindow) -> bool:
        whole = _whole(shown)
        asked = self._ask()

        def job(cancel: CancelToken) -> Shown | str:
            try:
                view = window_view(whole, window, cancel)
            except WindowError as error:  # no span in it: words, not a failed run
                return _("Time window: {error}").format(error=error)
            return dataclasses.replace(shown, view=view, window=window, whole=whole)

        self._runs.submit(job, lambda cut: self._on_cut(asked, cut))
        return True

    def _on_cut(self, asked: _Asked, cut: Shown | str) -> None:
        if not self._still(asked):
            return
        if isinstance(cut, str):
            self._runs.messages.show_error(cut)
        else:
            self._model.set_shown(cut)

    def _ask(self) -> _Asked:
        """A new window is asked for: what it is cut from, to check when its cut arrives."""
        self._asked += 1
        return self._asked, self._model.pinned, self._model.shown

    def _still(self, asked: _Asked) -> bool:
        """Whether nothing came between asking for a window and its cut (a newer window, Whole trace, a new run)."""
        return asked == (self._asked, self._model.pinned, self._model.shown)

    def _cut_pair(self, pinned: Pinned, shown: Shown, windows: tuple[TimeWindow | None, TimeWindow | None]) -> bool:
        """Cut A as drawn and B as drawn, each to its window (None: left whole), off the GUI thread."""
        wholes = (pinned.lined_up, _whole(shown))
        asked = self._ask()

        def job(cancel: CancelToken) -> _PairCut | str:
            cuts: list[PreparedView | None] = []
            for side, whole, window in zip(SIDES, wholes, windows, strict=True):
                try:
                    cuts.append(None if window is None else window_view(whole, window, cancel))
                except WindowError as error:  # the window holds nothing of this side
                    return _("Time window: {side}: {error}").format(side=side, error=error)
            return _PairCut(cuts[0], cuts[1])

        self._runs.submit(job, lambda cut: self._on_pair_cut(asked, windows, cut))
        return True

    def _on_pair_cut(
        self,
        asked: _Asked,
        windows: tuple[TimeWindow | None, TimeWindow | None],
        cut: _PairCut | str,
    ) -> None:
        _asked, pinned, shown = asked
        if not self._still(asked) or pinned is None or shown is None:
            return
        if isinstance(cut, str):
            self._runs.messages.show_error(cut)
            return
        whole = _whole(shown)
        # A first: B's timeline, drawn last, then fits the shared axis to both windows.
        self._model.set_pinned(dataclasses.replace(pinned, window=windows[0], cut=cut.a))
        if cut.b is None:  # B has no such range: whole, as it may already be
            if shown.whole is not None:
                self._model.set_shown(dataclasses.replace(shown, view=whole, window=None, whole=None))
        else:
            self._model.set_shown(dataclasses.replace(shown, view=cut.b, window=windows[1], whole=whole))


def _whole(shown: Shown) -> PreparedView:
    """The run on show, whole (as drawn: lined up with A where it was)."""
    return shown.whole or shown.view

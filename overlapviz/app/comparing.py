"""Compare A/B: pin the run on show as A, run both sides of a pair, stop comparing.

After a pair has run, A stays pinned and the controls hold B's settings, so any change runs
B again against the same A. A file opened while a run is pinned is B; a side from a file
is lined up with the other at their first device ops (`aligning`, through `Runs.show`).
Pinning, a pair of one's own and stopping all leave the lesson on show, so its words go
with it.
"""

from __future__ import annotations

from overlapviz.app.model import CompareAxis, Pinned, Shown
from overlapviz.app.pair_run import PairResult, SideRequest, pageable_vs_pinned, pair_job
from overlapviz.app.runs import NO_BACKEND, Controls, Runs
from overlapviz.core.i18n import N_, _

NOTHING_TO_PIN = N_("There is no run to pin yet: run the pipeline or open a trace first.")


class Comparing:
    """What the Compare menu does."""

    def __init__(self, runs: Runs) -> None:
        self._runs = runs
        self._model = runs.model

    def pin_current(self) -> bool:
        """Pin the run on show as A; the next runs are B."""
        shown = self._model.shown
        if shown is None:
            self._runs.messages.show_error(_(NOTHING_TO_PIN))
            return False
        self._model.set_lesson(None)
        self._model.set_pinned(Pinned(shown.as_side()))
        return True

    def put_back(self, pinned: Pinned | None) -> None:
        """Pin `pinned` again (None: none): what was pinned before an open that failed."""
        self._model.set_pinned(pinned)

    def unpin(self) -> None:
        """Stop comparing: one timeline again (and no lesson)."""
        self._model.set_lesson(None)
        self._model.set_pinned(None)

    def run_pair(self, sides: tuple[SideRequest, SideRequest], title: str = "") -> None:
        """Run A and B (off the GUI thread); the controls take B's settings and device."""
        self._runs.apply(Controls(sides[1].config, sides[1].target))
        self._runs.submit(pair_job(sides, self._runs.run_function(), title), self._on_pair)

    def pageable_vs_pinned(self) -> bool:
        """Run the controls' pipeline from pageable memory (A) and from pinned memory (B)."""
        target = self._model.target
        if target is None:
            self._runs.messages.show_error(_(NO_BACKEND))
            return False
        self._model.set_lesson(None)
        self.run_pair(pageable_vs_pinned(self._model.config, target), _("Pageable vs pinned"))
        return True

    def set_axis(self, axis: CompareAxis) -> None:
        """A and B on one time axis, or each on its own."""
        self._model.set_axis(axis)

    def _on_pair(self, pair: PairResult) -> None:
        self._model.set_pinned(Pinned(pair.a, pair.title))
        self._runs.show(Shown(pair.b.view, label=pair.b.label))

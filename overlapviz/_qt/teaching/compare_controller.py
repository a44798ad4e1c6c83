"""Compare A/B in the window: pin the run on show as A, run both sides of a pair, stop comparing.

After a pair has run, A stays pinned and the controls hold B's settings, so any change runs
B again against the same A.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from overlapviz._qt.worker import RunOutcome
from overlapviz.app.pair_run import PairResult, RunFunction, SideRequest, pageable_vs_pinned, pair_job

if TYPE_CHECKING:
    from overlapviz._qt.main_window import MainWindow


class CompareController(QObject):
    """What the Compare actions do; `changed` fires when comparing starts or stops."""

    changed = Signal(bool)

    def __init__(self, window: MainWindow, run_function: RunFunction) -> None:
        super().__init__(window)
        self._window = window
        self._run = run_function
        window.runner.finished.connect(self._on_finished)

    def pin_current(self) -> bool:
        """Pin the run on show as A; the next runs are B."""
        shown = self._window.shown()
        if shown is None:
            self._window.show_error("There is no run to pin yet: run the pipeline or open a trace first.")
            return False
        self._window.compare.pin(shown.view, "")
        self.changed.emit(True)
        return True

    def unpin(self) -> None:
        """Stop comparing: one timeline again."""
        if self._window.compare.is_comparing():
            self._window.compare.unpin()
            self.changed.emit(False)

    def run_pair(self, sides: tuple[SideRequest, SideRequest], title: str = "") -> None:
        """Run A and B (off the GUI thread); the controls take B's settings and device."""
        self._window.controls.set_config(sides[1].config)
        self._window.select_target(sides[1].target.backend, sides[1].target.device)
        self._window.runner.submit(pair_job(sides, self._run, title))

    def pageable_vs_pinned(self) -> bool:
        """Run the controls' pipeline from pageable memory (A) and from pinned memory (B)."""
        target = self._window.controls.target()
        if target is None:
            self._window.show_error("No backend can run here: see `overlapviz devices` for why.")
            return False
        self.run_pair(pageable_vs_pinned(self._window.controls.config(), target), "Pageable vs pinned")
        return True

    def _on_finished(self, outcome: RunOutcome) -> None:
        if isinstance(outcome.result, PairResult):
            pair = outcome.result
            self._window.banner.clear()
            self._window.compare.pin(pair.a.view, pair.a.label, pair.title)
            self._window.show_result(pair.b.view, label=pair.b.label)
            self.changed.emit(True)

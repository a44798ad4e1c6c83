"""Running the pipeline and putting runs on show: what every part of the controller shares.

One run (or pair of runs) at a time goes to the executor, the newest superseding the rest;
its outcome either goes on show or becomes words in the window. Changes of the controls go
through `apply`, which records them for undo. A run shown against a file pinned as A, or a
file against any A, is first lined up with A at the first device ops (`aligning`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from overlapviz.app.aligning import AlignedPair, align_pair, pair_shifts
from overlapviz.app.executor import Executor, Job, Outcome, RunFunction, run_job
from overlapviz.app.model import AppModel, Pinned, Shown
from overlapviz.app.ports import Messages
from overlapviz.app.run_targets import RunTarget
from overlapviz.app.undo import UndoHistory
from overlapviz.core.config import PipelineConfig
from overlapviz.core.i18n import N_, _
from overlapviz.view.prepared import PreparedView

T = TypeVar("T")
NO_BACKEND = N_("No backend can run here: see `overlapviz devices` for why.")  # said with `_` where shown


@dataclass(frozen=True)
class Controls:
    """What the controls hold: the pipeline and where it runs (one step of undo)."""

    config: PipelineConfig
    target: RunTarget | None


class Runs:
    """Runs on the executor, results on show, control changes recorded for undo."""

    def __init__(self, model: AppModel, executor: Executor, messages: Messages, run_function: RunFunction) -> None:
        self.model = model
        self.messages = messages
        self.history: UndoHistory[Controls] = UndoHistory()
        self._executor = executor
        self._run_function = run_function
        self._committed = self.controls()

    def controls(self) -> Controls:
        """What the controls hold now."""
        return Controls(self.model.config, self.model.target)

    def apply(self, controls: Controls, *, record: bool = True) -> None:
        """Put `controls` in the model; `record` the state it replaces for undo."""
        if record and controls != self._committed:
            self.history.record(self._committed)
        self._committed = controls
        self.model.set_config(controls.config)
        self.model.set_target(controls.target)

    def note_committed(self) -> None:
        """The controls as they are now are the state the next change leaves (restored settings, say)."""
        self._committed = self.controls()

    def run(self) -> bool:
        """Run the model's config on its target, superseding any run in flight; False: nothing can run."""
        target = self.model.target
        if target is None:
            self.messages.show_error(_(NO_BACKEND))
            return False
        self.submit(run_job(self._run_function, self.model.config, target.backend, target.device), self._on_run)
        return True

    def run_function(self) -> RunFunction:
        """What runs a pipeline (a backend through `session.run_pipeline`, or a test's)."""
        return self._run_function

    def submit(self, job: Job[T], done: Callable[[T], None]) -> None:
        """Run `job`; its result goes to `done`, an error to the window."""
        self._executor.submit(job, lambda outcome: self._finish(outcome, done))

    def cancel(self) -> None:
        """Drop every run asked for so far."""
        self._executor.cancel()

    def show(self, shown: Shown) -> None:
        """Put a run on show; a run that is not the comparison's own B ends the comparison's title.

        Against a pinned A, a side from a file is lined up with the other first (off the GUI
        thread when either must be drawn again); the two then go on show together, both whole
        (a new B ends the time window of the pair). A run of the pipeline on show is what the
        controls describe again.
        """
        if shown.source is None:
            self.model.set_controls_set_aside(False)
        pinned = self.model.pinned
        if pinned is not None and pinned.title and not shown.label:
            pinned = dataclasses.replace(pinned, title="")
            self.model.set_pinned(pinned)
        if pinned is None:
            self.model.set_shown(shown)
            return
        a, b = pinned.a.view, shown.own_view
        lined_up = pinned.a.source is not None or shown.source is not None
        if lined_up and any(pair_shifts(a.trace, b.trace)):
            self.submit(lambda cancel: align_pair(a, b, cancel), lambda pair: self._show_pair(pinned, shown, pair))
            return
        self.model.set_pinned(dataclasses.replace(pinned, drawn=None, shift_ns=0, window=None, cut=None))
        self.model.set_shown(
            dataclasses.replace(shown, view=b, shift_ns=0, unshifted=None) if shown.unshifted else shown
        )

    def _show_pair(self, pinned: Pinned, shown: Shown, pair: AlignedPair) -> None:
        now = self.model.pinned
        if now is None or now.a is not pinned.a:  # stopped or pinned anew meanwhile: B as it is
            self.show(shown)
            return
        drawn = None if pair.shift_a_ns == 0 else pair.a
        lined_up = dataclasses.replace(pinned, drawn=drawn, shift_ns=pair.shift_a_ns, window=None, cut=None)
        self.model.set_pinned(lined_up)
        unshifted = shown.own_view if pair.shift_b_ns else None
        self.model.set_shown(dataclasses.replace(shown, view=pair.b, shift_ns=pair.shift_b_ns, unshifted=unshifted))

    def clear_result(self) -> None:
        """Show no run (until the next one arrives)."""
        self.model.set_controls_set_aside(False)
        self.model.set_shown(None)

    def _on_run(self, view: PreparedView) -> None:
        self.show(Shown(view))

    def _finish(self, outcome: Outcome[T], done: Callable[[T], None]) -> None:
        if outcome.error is not None:
            self.messages.show_error(_("The run did not complete: {error}").format(error=outcome.error))
        elif outcome.result is not None:
            self.messages.clear_error()
            done(outcome.result)

"""What checking an exercise runs, as one job off the GUI thread, and the run(s) it measured.

A predict exercise runs its setup: one pipeline, both sides of a comparison (A, then B), or a
shipped trace opened as a file. A challenge runs the controls' pipeline, which the learner
changed. Each side runs where a lesson's would (`lesson_plan`): the device its preset names,
or the app's default. The job never raises: a refused run comes back as `RunFailed` with its
reason, so the panel can say so and let the learner try again.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from overlapviz.app.executor import Job, RunFunction, outcome_of
from overlapviz.app.lesson_plan import plan_lesson
from overlapviz.app.pair_run import SideRequest
from overlapviz.app.run_targets import RunTarget
from overlapviz.app.session_file import open_file
from overlapviz.core.cancel import CancelToken
from overlapviz.core.config import PipelineConfig
from overlapviz.core.i18n import _
from overlapviz.core.run_errors import RunCancelled
from overlapviz.exercises import Setup
from overlapviz.presets import Preset
from overlapviz.resources import asset_path
from overlapviz.run_report import json_run
from overlapviz.view.prepared import PreparedView, prepare_trace, prepare_view

SIDES = ("a", "b")


@dataclass(frozen=True)
class MeasuredSide:
    """One side as run (or opened): its view for the timeline, its settings, its name."""

    view: PreparedView
    config: PipelineConfig | None
    label: str = ""
    source: Path | None = None

    def report(self) -> dict[str, Any]:
        """The figures `overlapviz run --json` prints for it, which goals and predictions name."""
        return json_run(self.config, self.view.result)


@dataclass(frozen=True)
class ExerciseRuns:
    """The run(s) an exercise measured: side "a", and "b" for a comparison."""

    sides: dict[str, MeasuredSide]

    def reports(self) -> dict[str, dict[str, Any]]:
        """Each side's run report by side."""
        return {side: measured.report() for side, measured in self.sides.items()}

    @property
    def on_show(self) -> MeasuredSide:
        """The side the timeline shows alone, or as B against A."""
        return self.sides[SIDES[len(self.sides) - 1]]


@dataclass(frozen=True)
class RunFailed:
    """The run was refused or failed: why, in words."""

    reason: str


def setup_sides(setup: Setup, targets: list[RunTarget], default: RunTarget | None) -> tuple[SideRequest, ...]:
    """Each side of a preset setup with the target it runs on (`LessonUnavailableError` when one is not here)."""
    preset = Preset(setup.preset or "", "", "", setup.configs, setup.labels, device=setup.device, backend=setup.backend)
    return plan_lesson(preset, targets, default).sides


def sides_job(sides: tuple[SideRequest, ...], run: RunFunction) -> Job[ExerciseRuns | RunFailed]:
    """Run each side in turn and prepare it for the timeline."""

    def measure(cancel: CancelToken) -> ExerciseRuns:
        measured = {}
        for name, side in zip(SIDES, sides, strict=False):
            cancel.check()
            result = run(side.config, side.target.backend, side.target.device, cancel)
            measured[name] = MeasuredSide(prepare_view(result, cancel), side.config, side.label)
        return ExerciseRuns(measured)

    return _never_raising(measure)


def trace_job(file_name: str) -> Job[ExerciseRuns | RunFailed]:
    """Open the shipped trace `file_name` and prepare it for the timeline."""
    path = asset_path("traces", file_name)

    def measure(cancel: CancelToken) -> ExerciseRuns:
        data = open_file(path)
        if data.trace is None:
            raise OSError(_("{file} holds no trace").format(file=path.name))
        view = prepare_trace(data.trace, cancel=cancel)
        return ExerciseRuns({"a": MeasuredSide(view, data.config, "", path)})

    return _never_raising(measure)


def _never_raising(measure: Job[ExerciseRuns]) -> Job[ExerciseRuns | RunFailed]:
    def job(cancel: CancelToken) -> ExerciseRuns | RunFailed:
        outcome = outcome_of(measure, cancel)
        if outcome.cancelled:
            raise RunCancelled()
        if outcome.result is not None:
            return outcome.result
        return RunFailed(outcome.error or _("the run did not complete"))

    return job

"""Running an exercise's setup and reading off what a prediction asks about.

The runs go through `overlapviz.session` like ``overlapviz run``'s, and each is reported as
`overlapviz.run_report.json_run` reports it, so an exercise's figures are ``run --json``'s.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from overlapviz.core.config import PipelineConfig
from overlapviz.core.run_errors import BackendError
from overlapviz.exercises.fields import ExerciseError
from overlapviz.exercises.figures import figure_table, figure_value
from overlapviz.exercises.model import Exercise, Pick, Setup
from overlapviz.importers.read import read_trace_file
from overlapviz.resources import asset_path
from overlapviz.run_report import json_run
from overlapviz.session import RunResult, analyse, find_backend, run_on


@dataclass(frozen=True, slots=True)
class Measured:
    """The runs of a setup (one per side), their reports, or why the backend refused to run."""

    results: tuple[RunResult, ...]
    reports: tuple[dict[str, Any], ...]  # `json_run` of each result
    refused: str | None = None  # the backend's reason, when it refused the run (pinning too much)
    backend: str | None = None
    device: str | None = None

    def where(self) -> dict[str, Any]:
        """``{"backend", "device"}`` of the runs, for a grade's JSON."""
        return {"backend": self.backend, "device": self.device}


def measure(
    exercise: Exercise,
    backend: str | None = None,
    device: str | None = None,
    configs: tuple[PipelineConfig, ...] | None = None,
) -> Measured:
    """Run the exercise's setup (or `configs` in its place) on `backend` and `device`, or open its trace.

    `backend` and `device` default to the setup preset's, then to ``auto`` and the backend's
    default device, as ``overlapviz run --preset`` chooses them.

    Raises
    ------
    ExerciseError
        The exercise has nothing to run (a quiz).
    UnknownDeviceError, BackendError
        The backend or device cannot be used (a refused run is no error: see `Measured.refused`).
    """
    setup = exercise.setup
    if setup is None:
        raise ExerciseError(f"{exercise.name} has no setup to run")
    if setup.trace is not None:
        result = analyse(read_trace_file(asset_path("traces", setup.trace)))
        return Measured((result,), (json_run(None, result),), backend=result.trace.meta.backend)
    return _run_configs(setup, configs or setup.configs, backend, device)


def _run_configs(
    setup: Setup, configs: tuple[PipelineConfig, ...], backend: str | None, device: str | None
) -> Measured:
    device = device or setup.device
    chosen = find_backend(backend or setup.backend or "auto", device)
    try:
        results = tuple(run_on(chosen, config, device) for config in configs)
    except BackendError as error:
        return Measured((), (), refused=" ".join(str(error).split()), backend=chosen.name, device=device)
    reports = tuple(json_run(config, result) for config, result in zip(configs, results, strict=True))
    return Measured(results, reports, backend=chosen.name, device=reports[0].get("device") or device)


def predicted_answer(exercise: Exercise, measured: Measured) -> str | float | None:
    """The answer a prediction's measurement gives: a choice's key or a number; None where the run gives none."""
    prediction = exercise.prediction
    if prediction is None:
        raise ExerciseError(f"{exercise.name} is no prediction")
    if prediction.pick is Pick.OUTCOME:
        return "refused" if measured.refused is not None else "runs"
    if measured.refused is not None:
        return None
    report = measured.reports[_side_index(prediction.side, measured)]
    if prediction.pick is None:
        return figure_value(report, prediction.figure or "")
    if prediction.pick is Pick.FINDING:
        codes = {finding["code"] for finding in report.get("findings", [])}
        found = [choice.key for choice in exercise.choices if choice.key in codes]
        return found[0] if len(found) == 1 else None
    return _extreme_choice(exercise, measured, report)


def _extreme_choice(exercise: Exercise, measured: Measured, report: dict[str, Any]) -> str | None:
    """The choice with the lowest (or highest) figure: across the sides, or among a table figure's keys."""
    prediction = exercise.prediction
    assert prediction is not None and prediction.figure is not None  # a LOWEST/HIGHEST prediction has both
    if any(choice.side for choice in exercise.choices):
        values = {
            choice.key: figure_value(measured.reports[_side_index(choice.side, measured)], prediction.figure)
            for choice in exercise.choices
            if choice.side
        }
    else:
        table = figure_table(report, prediction.figure)
        values = {choice.key: table.get(choice.key) for choice in exercise.choices}
    known = {key: value for key, value in values.items() if value is not None}
    if not known:
        return None
    pick = min if prediction.pick is Pick.LOWEST else max
    return pick(known, key=lambda key: known[key])


def _side_index(side: str | None, measured: Measured) -> int:
    index = "ab".index(side or "a")
    if index >= len(measured.reports):
        raise ExerciseError(f"side {side!r}: the setup runs {len(measured.reports)} pipeline(s)")
    return index

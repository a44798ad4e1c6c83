"""Exercises for the tests beside the shipped ones: a number prediction, read from a file as the app reads any."""

from __future__ import annotations

from pathlib import Path

from overlapviz.exercises import Exercise, load_exercise, load_exercises

# The default pipeline's makespan on the H200 model is about 5.9 ms: 4 ms is more than 25 % off, 6 ms within.
NUMBER_PREDICTION = """
kind = "predict"
title = "How long does the default pipeline take?"
question = "256 MiB in 16 chunks on 4 streams, from pinned memory. How long, in ms, from the first copy to the last?"
hints = ["Each direction moves 256 MiB at about 50 GB/s.", "The copies overlap the kernels: count one direction."]
explanation = "The H2D copies take about 5.3 ms at about 50 GB/s; the kernels and the D2H copies hide behind them."
highlight = ["h2d"]
answer = 5.93

[setup]
preset = "default"

[measure]
figure = "makespan_ms"
tolerance_pct = 25
"""
WRONG_GUESS_MS, GOOD_GUESS_MS = 4.0, 6.0
# A run with three findings on the Tesla C2050 model (two copy queues, a false dependency), to step through.
OUTCOME_PREDICTION = """
kind = "predict"
title = "Does breadth-first issue run on a Fermi card?"
question = "The C2050 has one queue per copy engine. Will this pipeline run at all?"
explanation = "It runs, but the one queue per engine makes later copies wait behind earlier ones."
highlight = ["finding:false-dependency"]
answer = "runs"

[setup]
preset = "order-c2050"
side = "b"

[measure]
pick = "outcome"

[[choices]]
key = "runs"
text = "It runs"

[[choices]]
key = "refused"
text = "The backend refuses it"
"""


def number_prediction(folder: Path) -> Exercise:
    """The number prediction above, written to `folder` and read back."""
    path = folder / "default-makespan.toml"
    path.write_text(NUMBER_PREDICTION, encoding="utf-8")
    return load_exercise(path)


def outcome_prediction(folder: Path) -> Exercise:
    """The outcome prediction above (its run has three findings), written to `folder` and read back."""
    path = folder / "fermi-runs.toml"
    path.write_text(OUTCOME_PREDICTION, encoding="utf-8")
    return load_exercise(path)


def exercises_with_number(folder: Path) -> list[Exercise]:
    """The shipped exercises, then the number prediction and the outcome prediction."""
    return [*load_exercises().values(), number_prediction(folder), outcome_prediction(folder)]


def named(exercises: list[Exercise], name: str) -> int:
    """The place of exercise `name` in `exercises`."""
    return next(i for i, exercise in enumerate(exercises) if exercise.name == name)

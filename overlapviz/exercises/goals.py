"""Checking goals on a measured run and limits on the learner's settings, one result each.

A limit the settings break is a failed goal like any other, not bad input: the learner gave
valid settings, only not ones this exercise allows, and the grade lists what went wrong.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any

from overlapviz.core.config import PipelineConfig
from overlapviz.exercises.figures import figure_value
from overlapviz.exercises.model import Goal, Limit
from overlapviz.exercises.parts import SETTING_KEYS

_COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge, "==": operator.eq,
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class GoalResult:
    """One goal or limit, what was measured for it, and whether it held."""

    goal: str  # "copy_hidden_pct >= 50", "setting chunks <= 8"
    measured: float | int | str | None  # None: the run has no such figure (no copies: no copy time hidden)
    passed: bool

    def to_dict(self) -> dict[str, Any]:
        """``{"goal", "measured", "passed"}``, as ``--json`` prints it."""
        return {"goal": self.goal, "measured": self.measured, "passed": self.passed}


def compares(measured: Any, compare: str, value: Any) -> bool:
    """Whether ``measured COMPARE value`` holds; never for a missing measurement."""
    return measured is not None and _COMPARE[compare](measured, value)


def check_goal(goal: Goal, report: dict[str, Any]) -> GoalResult:
    """Check `goal` against one run's JSON report (`overlapviz.run_report.json_run`)."""
    measured = figure_value(report, goal.figure)
    return GoalResult(goal.describe(), measured, compares(measured, goal.compare, goal.value))


def check_limit(limit: Limit, config: PipelineConfig) -> GoalResult:
    """Check that the learner's `config` keeps within `limit`."""
    measured = setting_value(config, limit.setting)
    if isinstance(limit.value, str) or isinstance(measured, str):
        passed = limit.compare == "==" and str(measured) == str(limit.value)
    else:
        passed = compares(measured, limit.compare, limit.value)
    return GoalResult(f"setting {limit.describe()}", measured, passed)


def setting_value(config: PipelineConfig, key: str) -> int | str:
    """The value of the setting a preset file names `key`: a number, or a word for a choice or a switch."""
    value = getattr(config, SETTING_KEYS[key].name)
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, Enum):
        return str(value.value)
    return int(value)

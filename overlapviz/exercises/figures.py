"""The figures a goal or a prediction may name: those `overlapviz run --json` prints.

A figure is a key of `overlapviz.run_report.json_run`'s report holding a number, or a dotted
path into one of its tables (``busy_ms.h2d``, ``bandwidth_gbps.d2h``). The names come from that
report itself, made once from a tiny run of the model, so they never drift from what ``run``
prints; ``wall_s`` (how long the tool took) and ``config`` (the settings) are no figures of the run.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from overlapviz.core.config import PipelineConfig
from overlapviz.run_report import json_run
from overlapviz.session import run_pipeline

_NOT_FIGURES = frozenset({"wall_s", "config"})  # the tool's own time; the settings, not figures
# A run of the model small enough to cost nothing, with a kernel and both copies so every table has its keys
_PROBE = PipelineConfig(size_bytes=1024**2, chunks=1, streams=1)


@cache
def figure_names() -> tuple[str, ...]:
    """Every figure a goal may name, in the report's order."""
    report = json_run(_PROBE, run_pipeline(_PROBE, "sim"))
    return tuple(_numeric_paths(report))


@cache
def table_figure_names() -> tuple[str, ...]:
    """The figures that are tables of numbers (``busy_ms``), whose keys a prediction may pick among."""
    report = json_run(_PROBE, run_pipeline(_PROBE, "sim"))
    return tuple(key for key, value in report.items() if isinstance(value, dict) and _all_numbers(value))


def figure_value(report: dict[str, Any], name: str) -> float | None:
    """The number at `name` in a run report; None where the run has none (no copies: no copy time hidden)."""
    value: Any = report
    for part in name.split("."):
        value = value.get(part) if isinstance(value, dict) else None
    return float(value) if _is_number(value) else None


def figure_table(report: dict[str, Any], name: str) -> dict[str, float]:
    """The numbers of table figure `name` (``busy_ms``) by key; keys without a number left out."""
    table = report.get(name)
    if not isinstance(table, dict):
        return {}
    return {key: float(value) for key, value in table.items() if _is_number(value)}


def _numeric_paths(report: dict[str, Any], prefix: str = "") -> list[str]:
    names: list[str] = []
    for key, value in report.items():
        if f"{prefix}{key}" in _NOT_FIGURES:
            continue
        if isinstance(value, dict):
            names += _numeric_paths(value, f"{prefix}{key}.")
        elif _is_number(value) or (value is None and key.endswith(("_pct", "_ms", "_gbps"))):
            names.append(f"{prefix}{key}")
    return names


def _all_numbers(table: dict[str, Any]) -> bool:
    return bool(table) and all(_is_number(value) or value is None for value in table.values())


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)

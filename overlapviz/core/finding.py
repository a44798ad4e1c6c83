"""A finding, and the words every rule writes its numbers in."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import numpy.typing as npt

from overlapviz.core.number_text import fixed
from overlapviz.core.trace import Trace

_API_VERSION_SUFFIX = re.compile(r"_v\d+$")  # CUPTI names calls like cudaMemcpyAsync_v3020


@dataclass(frozen=True, slots=True)
class Finding:
    """One explanation: a stable code, a sentence with its numbers, the rows it points at."""

    code: str
    message: str
    rows: tuple[int, ...]


def api_name(trace: Trace, row: int) -> str:
    """The API call's name without CUPTI's version suffix."""
    return plain_api_name(trace.name_of(row))


def plain_api_name(name: str) -> str:
    """``cudaMemcpyAsync_v3020`` -> ``cudaMemcpyAsync``."""
    return _API_VERSION_SUFFIX.sub("", name)


def rows_of(*groups: npt.NDArray[Any]) -> tuple[int, ...]:
    """The rows of every group, once each, in order: what a finding points at."""
    return tuple(sorted({int(r) for group in groups for r in group}))


def ms_text(ns: float) -> str:
    """Milliseconds with two decimals, one from 10 ms up."""
    value = ns / 1_000_000
    return f"{fixed(value, 1 if abs(value) >= 10 else 2)} ms"


def pct_text(part: float, whole: float) -> str:
    """`part` as a whole percentage of `whole` (``0%`` of nothing)."""
    return f"{fixed(100 * part / whole, 0)}%" if whole > 0 else "0%"

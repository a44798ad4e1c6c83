"""Numbers in words for labels, tooltips, captions and the metrics panel."""

from __future__ import annotations

import math

from overlapviz.core.config import format_size

NS_PER_US = 1_000
NS_PER_MS = 1_000_000
NS_PER_S = 1_000_000_000
NO_COPIES = "no copies"  # the copy time hidden of a run without copies


def format_duration(ns: float) -> str:
    """``512 ns``, ``74.2 µs``, ``6.09 ms``, ``1.25 s``: three significant digits."""
    magnitude = abs(ns)
    for unit, scale in (("s", NS_PER_S), ("ms", NS_PER_MS), ("µs", NS_PER_US)):
        if magnitude >= scale:
            return f"{_three_digits(ns / scale)} {unit}"
    return f"{ns:.0f} ns"


def format_bandwidth(gbps: float | None) -> str:
    """``55.4 GB/s``; a dash when there is nothing to measure."""
    if gbps is None or (isinstance(gbps, float) and math.isnan(gbps)):
        return "\u2014"
    return f"{_three_digits(gbps)} GB/s"


def format_percent(value: float | None, missing: str = "\u2014") -> str:
    """``87 %``; `missing` (a dash unless told) when undefined."""
    return missing if value is None else f"{round(value):d} %"  # round(): no "-0 %"


def format_time_saved(saved_ns: int, speedup: float, *, short: bool = False) -> str:
    """``9.58 ms (2.62×)``, or ``none: 367 µs slower`` and on a second line ``than back to back``.

    A run slower than its ops back to back saved nothing: saying so in words keeps a learner
    from reading a minus sign as a saving. `short` keeps to one line without "than back to
    back", for tables.
    """
    if saved_ns > 0:
        return f"{format_duration(saved_ns)} ({speedup:.2f}\u00d7)"
    if saved_ns == 0:
        return "none" if short else "none: the same\nas back to back"
    slower = f"none: {format_duration(-saved_ns)} slower"
    return slower if short else f"{slower}\nthan back to back"


def format_bytes(n_bytes: int) -> str:
    """``4 MiB``, as the config shows sizes."""
    return format_size(int(n_bytes))


def _three_digits(value: float) -> str:
    magnitude = abs(value)
    if magnitude >= 100:
        return f"{value:.0f}"
    if magnitude >= 10:
        return f"{value:.1f}"
    return f"{value:.2f}"

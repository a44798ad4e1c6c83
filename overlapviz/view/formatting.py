"""Numbers in words for labels, tooltips, captions and the metrics panel.

Every duration is in milliseconds, the unit of the timeline's axis and of the findings, so
that a picture never says "7.96 s" beside an axis in ms and a callout of "7955.6 ms".
"""

from __future__ import annotations

import math

from overlapviz.core.analysis.metrics import Metrics
from overlapviz.core.analysis.migrations import NO_COPIES as NO_COPIES  # the copy time hidden of a run without copies
from overlapviz.core.analysis.migrations import no_copies_text
from overlapviz.core.config import format_size
from overlapviz.core.i18n import N_, _
from overlapviz.core.number_text import NS_PER_MS, duration_text, fixed, rate_text

__all__ = ["NS_PER_MS", "format_bandwidth", "format_bytes", "format_duration", "format_percent", "format_time_saved"]

NO_COMMUNICATION = N_("no communication")  # the communication hidden of a run without any
UNKNOWN_RATE = N_("unknown")  # the bandwidth of copies whose bytes the trace does not record


def format_duration(ns: float) -> str:
    """``7955.6 ms``, ``6.09 ms``, ``0.742 ms``, ``74.2 µs``: as the findings write it (`core.number_text`)."""
    return duration_text(ns)


def format_bandwidth(gbps: float | None) -> str:
    """``55.4 GB/s``; a dash when there is nothing to measure."""
    if gbps is None or (isinstance(gbps, float) and math.isnan(gbps)):
        return "\u2014"
    return rate_text(gbps)


def direction_bandwidth_text(metrics: Metrics, key: str) -> str:
    """A copy direction's rate (``h2d``, ``d2h``); ``unknown`` where it copied but the trace records no bytes."""
    rate = metrics.bandwidth_gbps.get(key)
    if rate is None and metrics.busy_ns.get(key, 0) > 0:
        return _(UNKNOWN_RATE)
    return format_bandwidth(rate)


def copy_hidden_text(metrics: Metrics) -> str:
    """``87 %``, or ``no copies`` and the run's unified-memory migrations where it had some."""
    return format_percent(metrics.copy_hidden_pct, no_copies_text(metrics.migrations))


def format_percent(value: float | None, missing: str = "\u2014") -> str:
    """``87 %``; `missing` when undefined: a dash unless told, else marked words (`N_`) said in the active language."""
    if value is None:
        return _(missing) if missing else missing  # gettext's "" is the catalogue's header
    return f"{round(value):d} %"  # round(): no "-0 %"


def format_time_saved(saved_ns: int, speedup: float, *, short: bool = False) -> str:
    """``9.58 ms (2.62×)``, or ``none: 367 µs slower`` and on a second line ``than back to back``.

    A run slower than its ops back to back saved nothing: saying so in words keeps a learner
    from reading a minus sign as a saving. `short` keeps to one line without "than back to
    back", for tables.
    """
    if saved_ns > 0:
        return f"{format_duration(saved_ns)} ({fixed(speedup, 2)}\u00d7)"
    if saved_ns == 0:
        return _("none") if short else _("none: the same\nas back to back")
    slower = _("none: {duration} slower") if short else _("none: {duration} slower\nthan back to back")
    return slower.format(duration=format_duration(-saved_ns))


def format_bytes(n_bytes: int) -> str:
    """``4 MiB``, as the config shows sizes."""
    return format_size(int(n_bytes))

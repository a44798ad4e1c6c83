"""The caption line of an exported picture: what ran, where, and how well it overlapped.

How well: the efficiency against the lower bound, and the share of copy time hidden under
kernels, both 0 to 100 %. A caption wraps on a slide or a narrow window: it may break
between two values, never inside one ("copy time hidden 50 %", "256 MiB"), so each value's
own spaces are non-breaking and the separator keeps its dot with the value before it.
"""

from __future__ import annotations

from overlapviz._qt.translation import translate
from overlapviz.app.time_window import trace_window
from overlapviz.core.analysis.metrics import Metrics
from overlapviz.core.analysis.migrations import migrations_text, no_copies_text
from overlapviz.core.analysis.trace_facts import pipeline_settings
from overlapviz.core.trace.spans import Trace
from overlapviz.run_report import recorded_by
from overlapviz.view.formatting import format_duration, format_percent

NBSP = "\u00a0"
SEPARATOR = f"{NBSP}{NBSP}\u00b7  "  # a line may break after the dot, not before it
LIST_SEPARATOR = ", "  # within one part: "256 MiB, 4 streams x 16 chunks, pinned"


def whole(value: str) -> str:
    """`value` with its spaces made non-breaking, so that no line break splits it."""
    return value.replace(" ", NBSP)


def join_values(parts: list[str]) -> str:
    """`parts` joined by `SEPARATOR`, each breakable only after its commas (between its values)."""
    return SEPARATOR.join(LIST_SEPARATOR.join(whole(value) for value in part.split(LIST_SEPARATOR)) for part in parts)


def caption_text(trace: Trace, metrics: Metrics) -> str:
    """Config, device, backend (and timing source), makespan, efficiency, copy time hidden; "simulated" if so."""
    meta = trace.meta
    parts = []
    config = pipeline_settings(trace)
    if config is not None:
        parts.append(config.describe())
    source = recorded_by(meta)
    if source is not None:  # another tool's trace: say which, when and where
        parts.append(translate("Caption", "recorded by {tool}").format(tool=source))
    else:
        unknown = translate("Caption", "unknown")
        parts.append(meta.device_name or meta.device or translate("Caption", "unknown device"))
        parts.append(
            translate("Caption", "{backend} backend, timing: {timing}").format(
                backend=meta.backend or unknown, timing=meta.timing or unknown
            )
        )
    window = trace_window(trace)
    if window is not None:  # the figures are of this part of the trace
        parts.append(translate("Caption", "window {window}").format(window=window.describe()))
    parts.append(translate("Caption", "makespan {duration}").format(duration=format_duration(metrics.makespan_ns)))
    parts.append(translate("Caption", "efficiency {percent}").format(percent=format_percent(metrics.efficiency_pct)))
    hidden = metrics.copy_hidden_pct
    if hidden is None:
        parts.append(no_copies_text(metrics.migrations))
    else:
        parts.append(translate("Caption", "copy time hidden {percent}").format(percent=format_percent(hidden)))
    migrated = migrations_text(metrics.migrations)
    if hidden is not None and migrated:
        parts.append(migrated)
    if metrics.comm_hidden_pct is not None:
        communication = format_percent(metrics.comm_hidden_pct)
        parts.append(translate("Caption", "communication hidden {percent}").format(percent=communication))
    if meta.simulated:
        parts.append(translate("Caption", "simulated"))
    return join_values(parts)

"""What `overlapviz run` prints about a run: the summary lines and the JSON report.

One module for both so that the text and the JSON always speak of the same figures; the
definitions themselves live in `overlapviz.core.analysis.metrics.METRIC_DEFINITIONS`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from overlapviz.core.analysis.metrics import METRIC_DEFINITIONS, Metrics
from overlapviz.core.analysis.migrations import no_copies_text
from overlapviz.core.analysis.time_window import Window
from overlapviz.core.config import PipelineConfig, format_size
from overlapviz.core.devices.names import shown_device_name
from overlapviz.core.findings.finding import Finding
from overlapviz.core.i18n import N_, _, grouped
from overlapviz.core.i18n.text_width import display_width, ljust
from overlapviz.core.number_text import counted, duration_text, fixed, rate_text
from overlapviz.core.trace.meta import TraceMeta
from overlapviz.session import RunResult

# The order and the words in which `overlapviz run --help` defines the headline figures.
_HELP_FIGURES = (
    (N_("copy time hidden"), "copy_hidden"),
    (N_("communication hidden"), "comm_hidden"),
    (N_("engines together"), "engines_together"),
    (N_("efficiency"), "efficiency"),
    (N_("lower bound"), "lower_bound"),
    (N_("saved"), "time_saved"),
    (N_("wall"), "wall"),
)


def figures_help() -> str:
    """The headline figures, one definition a line, for ``--help`` (the titles padded by display width)."""
    titles = [(_(title), key) for title, key in _HELP_FIGURES]
    width = max(display_width(title) for title, _key in titles)
    return "\n".join(f"  {ljust(title, width)}  {METRIC_DEFINITIONS[key]}" for title, key in titles)


def summary_lines(config: PipelineConfig | None, result: RunResult) -> list[str]:
    """Summarise one run in a few readable lines, then its findings one per line.

    `config` is None for a trace without pipeline settings (another program's, say).
    """
    meta, m = result.trace.meta, result.metrics
    window = meta.window
    source = recorded_by(meta)
    recorded = labelled(_("recorded"), _("by {tool}"), tool=source) if source is not None else None
    where = recorded or _device_line(meta, result.wall_s)
    figures = _figure_lines(m, _("   wall {ms}").format(ms=_ms(m.wall_ns)) + _alloc_text(m) + _pinned_text(m))
    pipeline = labelled(_("pipeline"), "{config}", config=config.describe()) if config is not None else None
    lines = [*([pipeline] if pipeline else []), where, *figures]
    if window is not None:
        shown = labelled(_("window"), _("{window} of the trace"), window=Window(*window).describe())
        lines.insert(lines.index(where) + 1, shown)
    not_shown = meta.not_shown
    if not_shown:
        counts = ", ".join(counted(count, what) for what, count in not_shown.items())
        lines.append(labelled(_("not drawn"), _("{counts} (counted, not yet shown)"), counts=counts))
    note = caveat_of(result.trace.meta)
    if note:
        lines.append(labelled(_("note"), "{note}", note=note))
    return lines + _finding_lines(result.findings)


def _device_line(meta: TraceMeta, wall_s: float) -> str:
    """``device     NVIDIA H200, sim backend, simulated (timing: model), run took 12.3 ms``."""
    device = shown_device_name(meta.device_name) if meta.device_name else meta.device or _("default device")
    text = _("{device}, {backend} backend, simulated (timing: {timing})") if meta.simulated else _(
        "{device}, {backend} backend, measured (timing: {timing})"
    )
    took = _(", run took {duration}").format(duration=duration_text(wall_s * 1e9)) if wall_s > 0 else ""
    return labelled(_("device"), text, device=device, backend=meta.backend or "?", timing=meta.timing or "?") + took


def labelled(label: str, text: str, **values: str) -> str:
    """``device     ...``: `text` filled in with `values`, after `label` in a column 11 characters wide.

    The column counts display width, so a label of wide (CJK) characters lines up with the rest.
    """
    return f"{label}{' ' * max(1, 11 - display_width(label))}{text.format(**values)}"


def gpu_lines(title: str, metrics: Metrics, findings: Sequence[Finding]) -> list[str]:
    """One GPU's block of a trace of several: its title, its figures, its findings.

    The wall time, the host's allocating and the RAM pinned are the whole program's, so
    the block leaves them to the whole trace's lines; its host blocked time is that of the
    calls that issued its ops.
    """
    return [title, *_figure_lines(metrics, ""), *_finding_lines(findings)]


def json_gpu(device: int, name: str | None, metrics: Metrics, findings: Sequence[Finding]) -> dict[str, Any]:
    """One GPU of a trace as a JSON object: its index and name, its metrics and findings."""
    report = {"device": device, "device_name": name, **metrics.to_dict(), "findings": _json_findings(findings)}
    finite: dict[str, Any] = finite_json(report)
    return finite


def _figure_lines(m: Metrics, host_more: str) -> list[str]:
    """The lines of the figures, from the makespan to the bandwidths; `host_more` ends the host line."""
    busy = "   ".join(
        f"{key} {_ms(ns)} ({fixed(m.utilisation.get(key, 0.0) * 100, 0)} %)" for key, ns in m.busy_ns.items()
    )
    bandwidth = "   ".join(
        f"{key} {_gbps(value, m.busy_ns.get(key, 0) > 0)}" for key, value in m.bandwidth_gbps.items()
    )
    overlap = _(
        "copy time hidden {copy_hidden}{comm_hidden}   engines together {together}"
        "   efficiency {efficiency} (lower bound {lower_bound})"
    )
    return [
        labelled(_("makespan"), _("{makespan}   serial {serial}   {saved}"), makespan=_ms(m.makespan_ns),
                 serial=_ms(m.serial_ns), saved=saved_text(m)),
        labelled(_("overlap"), overlap, copy_hidden=percent_text(m.copy_hidden_pct, no_copies_text(m.migrations)),
                 comm_hidden=_comm_hidden_text(m), together=percent_text(m.engines_together_pct),
                 efficiency=percent_text(m.efficiency_pct), lower_bound=_ms(m.lower_bound_ns)),
        labelled(_("host"), _("blocked {blocked}"), blocked=_ms(m.host_blocked_ns)) + host_more,
        labelled(_("busy"), "{busy}", busy=busy),
        labelled(_("bandwidth"), "{bandwidth}", bandwidth=bandwidth),
        *_migration_lines(m),
    ]


def _migration_lines(m: Metrics) -> list[str]:
    """``migrated   h2d 34 in 61.0 µs, 280.6 kB   d2h ...``: the unified-memory migrations, where there were some."""
    moved = [(key, each) for key, each in m.migrations.items() if each.count]
    if not moved:
        return []
    parts = "   ".join(
        _("{direction} {count} in {duration}, {size}").format(
            direction=key, count=grouped(each.count), duration=_ms(each.busy_ns), size=format_size(each.bytes)
        )
        for key, each in moved
    )
    return [labelled(_("migrated"), "{parts}", parts=parts)]


def _comm_hidden_text(m: Metrics) -> str:
    """The communication hidden, where the run has communication; nothing where it has none."""
    if m.comm_hidden_pct is None:
        return ""
    return _("   communication hidden {percent}").format(percent=percent_text(m.comm_hidden_pct))


def _finding_lines(findings: Sequence[Finding]) -> list[str]:
    return [_("findings") if findings else labelled(_("findings"), _("none"))] + [
        f"  - {' '.join(finding.message.split())}" for finding in findings
    ]


def _json_findings(findings: Sequence[Finding]) -> list[dict[str, str]]:
    return [{"code": f.code, "message": f.message} for f in findings]


def json_run(config: PipelineConfig | None, result: RunResult) -> dict[str, Any]:
    """One run as a JSON object: its metrics, where it ran, its config and findings."""
    meta = result.trace.meta
    report = {
        **result.metrics.to_dict(),
        "backend": meta.backend,
        "device": meta.device,
        "device_name": meta.device_name,
        "timing": meta.timing,
        "simulated": meta.simulated,
        "caveat": caveat_of(meta),
        "recorded_by": recorded_by(meta),
        "not_shown": dict(meta.not_shown),
        "config": None if config is None else config.to_dict(),
        "findings": _json_findings(result.findings),
        "wall_s": result.wall_s,
    }
    finite: dict[str, Any] = finite_json(report)
    return finite


def recorded_by(meta: TraceMeta) -> str | None:
    """``PyTorch profiler, 2026-12-01, NVIDIA H200`` for a trace another tool recorded; None for overlapviz's runs."""
    tool = meta.tool
    if not tool:
        return None
    version = meta.tool_version
    parts = [f"{tool} {version}" if version else tool]
    parts += [text for text in (meta.recorded, shown_device_name(meta.device_name or "")) if text]
    return ", ".join(parts)


def caveat_of(meta: TraceMeta) -> str | None:
    """The one sentence a backend adds where its figures need a word of caution, if any.

    The model says so for pageable runs, whose real times vary with the host's memory system.
    """
    return meta.caveat or None


def finite_json(value: Any) -> Any:
    """The same JSON data with NaN and infinities as null (JSON has no such numbers)."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {key: finite_json(item) for key, item in value.items()}
    if isinstance(value, list):
        return [finite_json(item) for item in value]
    return value


def saved_text(m: Metrics) -> str:
    """``saved 9.576 ms (2.62x)``, or how much slower than back to back the run was."""
    if m.time_saved_ns >= 0:
        return _("saved {saved} ({speedup}x)").format(saved=_ms(m.time_saved_ns), speedup=fixed(m.speedup, 2))
    return _("saved nothing: {slower} slower than back to back ({speedup}x)").format(
        slower=_ms(-m.time_saved_ns), speedup=fixed(m.speedup, 2)
    )


def percent_text(pct: float | None, missing: str = "-") -> str:
    """A share as ``86 %``; `missing` where it has no value."""
    return missing if pct is None else f"{fixed(pct, 0)} %"


def _alloc_text(m: Metrics) -> str:
    if not m.host_alloc_ns:  # only runs that allocate their host buffers wait beyond the pipeline
        return ""
    return _(" (first host call to last; allocating and freeing {duration})").format(duration=_ms(m.host_alloc_ns))


def _pinned_text(m: Metrics) -> str:
    return "" if m.pinned_bytes is None else _("   RAM pinned {size}").format(size=format_size(m.pinned_bytes))


def _ms(ns: int) -> str:
    return duration_text(ns)


def _gbps(value: float | None, copied: bool) -> str:
    """A direction's rate; ``unknown`` where it copied but the trace records no bytes, ``-`` where it copied nothing."""
    if value is None or not math.isfinite(value):
        return _("unknown") if copied else "-"
    return rate_text(value)

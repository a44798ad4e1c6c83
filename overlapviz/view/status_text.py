"""The status bar's words: where the picture came from, how it was timed, and any caveat."""

from __future__ import annotations

from pathlib import Path

from overlapviz.core.config import format_size
from overlapviz.core.trace.meta import TraceMeta
from overlapviz.run_report import caveat_of, recorded_by
from overlapviz.view.formatting import format_duration

SIMULATED = "simulated"


def status_parts(meta: TraceMeta, wall_s: float, source: Path | None = None) -> list[str]:
    """Backend, device, timing source, "simulated" when the model drew it, the run time, any caveat.

    `source` is the file the trace came from, if it was opened rather than run. The caveat is
    the one sentence the backend added where its figures need a word of caution (the model's
    pageable runs: real pageable times vary with the host).
    """
    recorder = recorded_by(meta)
    if recorder is not None:  # another tool's trace
        parts = [f"Recorded by {recorder}"]
    else:
        parts = [
            f"Backend: {meta.backend or 'unknown'}",
            f"Device: {meta.device_name or meta.device or 'unknown'}",
            f"Timing: {meta.timing or 'unknown'}",
        ]
    if meta.simulated:
        parts.append(SIMULATED)
    if source is not None:
        parts.append(f"Opened {source.name}")
    else:
        parts.append(f"Run took {format_duration(wall_s * 1e9)}")
    kept = meta.pinned_kept_bytes
    if kept is not None and kept > 0:
        parts.append(f"{format_size(kept)} pinned kept for the next run (Run \u25b8 Release buffers)")
    caveat = caveat_of(meta)
    if caveat is not None:
        parts.append(caveat)
    return parts


def status_line(meta: TraceMeta, wall_s: float, source: Path | None = None) -> str:
    """`status_parts` joined for one label."""
    return "  \u00b7  ".join(status_parts(meta, wall_s, source))

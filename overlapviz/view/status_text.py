"""The status bar's words: where the picture came from, how it was timed, and any caveat."""

from __future__ import annotations

from pathlib import Path

from overlapviz.core.config import format_size
from overlapviz.core.i18n import N_, _
from overlapviz.core.trace.meta import TraceMeta
from overlapviz.run_report import caveat_of, recorded_by
from overlapviz.view.formatting import format_duration

SIMULATED = N_("simulated")


def status_parts(meta: TraceMeta, wall_s: float, source: Path | None = None) -> list[str]:
    """Backend, device, timing source, "simulated" when the model drew it, the run time, any caveat.

    `source` is the file the trace came from, if it was opened rather than run. The caveat is
    the one sentence the backend added where its figures need a word of caution (the model's
    pageable runs: real pageable times vary with the host).
    """
    recorder = recorded_by(meta)
    if recorder is not None:  # another tool's trace
        parts = [_("Recorded by {tool}").format(tool=recorder)]
    else:
        unknown = _("unknown")
        parts = [
            _("Backend: {backend}").format(backend=meta.backend or unknown),
            _("Device: {device}").format(device=meta.device_name or meta.device or unknown),
            _("Timing: {timing}").format(timing=meta.timing or unknown),
        ]
    if meta.simulated:
        parts.append(_(SIMULATED))
    if source is not None:
        parts.append(_("Opened {file}").format(file=source.name))
    else:
        parts.append(_("Run took {duration}").format(duration=format_duration(wall_s * 1e9)))
    kept = meta.pinned_kept_bytes
    if kept is not None and kept > 0:
        # Translators: "Run ▸ Release buffers" is the menu item, as the window's menus name it
        parts.append(
            _("{size} pinned kept for the next run (Run \u25b8 Release buffers)").format(size=format_size(kept))
        )
    caveat = caveat_of(meta)
    if caveat is not None:
        parts.append(caveat)
    return parts


def status_line(meta: TraceMeta, wall_s: float, source: Path | None = None) -> str:
    """`status_parts` joined for one label."""
    return "  \u00b7  ".join(status_parts(meta, wall_s, source))

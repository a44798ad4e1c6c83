"""Headless pictures for scripts and CI: `overlapviz render` and `overlapviz run --png`.

Usable without a display: a QApplication is created on the offscreen platform when none is
running and there is no display. The picture is the app's own export (caption, colour key,
timeline), so a script and the window draw the same thing.
"""

from __future__ import annotations

import os
from pathlib import Path

from overlapviz._qt.export.export_view import ExportOptions
from overlapviz._qt.export.image_export import write_png, write_svg
from overlapviz._qt.qt_app import ensure_app
from overlapviz.core.trace import Trace


def render_trace_png(
    trace: Trace,
    path: str | os.PathLike[str],
    width: int = 1920,
    theme: str = "light",
    caption: bool = True,
    transparent: bool = False,
) -> Path:
    """Draw `trace` to a PNG file `width` pixels wide; returns the path written.

    Parameters
    ----------
    trace
        The trace to draw (from a run or `core.trace_io.import_chrome`).
    path
        The PNG to create or replace (written atomically).
    width
        Image width in pixels (320 to 16384); 1920 and 3840 suit slides.
    theme
        ``light`` or ``dark``.
    caption
        Whether to put the config, device, backend, makespan and overlap above the timeline.
    transparent
        Leave the background transparent instead of the theme's colour.

    Raises
    ------
    ValueError
        `width` is out of range or `theme` is unknown (the message says which).
    OSError
        The file cannot be written; nothing is left behind.
    """
    options = ExportOptions(width=width, theme=theme, transparent=transparent, caption=caption)
    ensure_app()
    write_png(trace, path, options)
    return Path(path)


def render_trace_svg(trace: Trace, path: str | os.PathLike[str], theme: str = "light", caption: bool = True) -> Path:
    """Draw `trace` to an SVG file (see `render_trace_png`); returns the path written."""
    options = ExportOptions(theme=theme, caption=caption)
    ensure_app()
    write_svg(trace, path, options)
    return Path(path)

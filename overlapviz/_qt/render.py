"""Headless pictures for scripts and CI: `overlapviz render` and `overlapviz run --png`.

Usable without a display: a QApplication is created on the offscreen platform when none is
running and there is no display. The picture is the app's own export (caption, colour key,
timeline, the findings as callouts), so a script and the window draw the same thing, over the
time the window opens on (another tool's trace: its GPU work, `view.opening`). Two runs
(a comparison preset) make one picture: A above B on one time axis, with the differences.
The picture's words are in the command line's language (``--lang``, else the environment's):
gettext's active one, whose Qt catalogue is installed before drawing.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from overlapviz._qt.app import ensure_app
from overlapviz._qt.app import quiet_platform_notes as quiet_platform_notes  # the commands call it from here
from overlapviz._qt.export.comparison_view import ComparisonPicture
from overlapviz._qt.export.export_view import ExportOptions
from overlapviz._qt.export.image_export import write_png, write_svg
from overlapviz._qt.translation import install_translators
from overlapviz.core.i18n import current_language
from overlapviz.core.trace.spans import Trace
from overlapviz.view.opening import opening_ms
from overlapviz.view.prepared import prepare_trace


def render_trace_png(
    trace: Trace,
    path: str | os.PathLike[str],
    width: int = 1920,
    theme: str = "light",
    caption: bool = True,
    transparent: bool = False,
) -> Path:
    """Draw `trace` to a PNG file `width` pixels wide, over the time the window opens it on; returns the path written.

    Parameters
    ----------
    trace
        The trace to draw (from a run or `core.files.trace_import.import_chrome`).
    path
        The PNG to create or replace (written atomically; a symbolic link is written
        through, see ``docs/files.md``).
    width
        Image width in pixels (320 to 16384); 1920 and 3840 suit slides.
    theme
        ``light``, ``dark`` or ``projector``.
    caption
        Whether to put the config, device, backend, makespan and overlap above the timeline.
    transparent
        Leave the background transparent instead of the theme's colour.

    Raises
    ------
    ValueError
        `width` is out of range or `theme` is unknown (the message says which).
    OSError
        The file cannot be written (`core.files.write_destination.DestinationError` when something other
        than a regular file is there); nothing is left behind.
    """
    options = ExportOptions(
        width=width, theme=theme, transparent=transparent, caption=caption, window_ms=opening_ms(trace)
    )
    _speaking_app()
    write_png(prepare_trace(trace), path, options)
    return Path(path)


def render_trace_svg(trace: Trace, path: str | os.PathLike[str], theme: str = "light", caption: bool = True) -> Path:
    """Draw `trace` to an SVG file (see `render_trace_png`); returns the path written."""
    options = ExportOptions(theme=theme, caption=caption, window_ms=opening_ms(trace))
    _speaking_app()
    write_svg(prepare_trace(trace), path, options)
    return Path(path)


def check_options(width: int = 1920, theme: str = "light") -> None:
    """Raise `ValueError` (saying which) when `width` or `theme` would not make a picture."""
    ExportOptions(width=width, theme=theme)


def render_comparison_png(
    traces: Sequence[Trace],
    labels: Sequence[str],
    path: str | os.PathLike[str],
    width: int = 1920,
    theme: str = "light",
    title: str = "",
    transparent: bool = False,
) -> Path:
    """Draw two runs, A above B on one time axis, to one PNG; returns the path written.

    Parameters
    ----------
    traces
        A's trace and B's.
    labels
        A name for each side (``"pageable"``, ``"pinned"``), put before its caption.
    path
        The PNG to create or replace (written atomically; a symbolic link is written
        through, see ``docs/files.md``).
    width
        Image width in pixels (320 to 16384).
    theme
        ``light``, ``dark`` or ``projector``.
    title
        A line above both (a lesson's title, say); empty for none.
    transparent
        Leave the background transparent instead of the theme's colour.

    Raises
    ------
    ValueError
        Not two traces and two labels, `width` out of range or `theme` unknown.
    OSError
        The file cannot be written (`core.files.write_destination.DestinationError` when something other
        than a regular file is there); nothing is left behind.
    """
    picture = _comparison(traces, labels, title)
    options = ExportOptions(width=width, theme=theme, transparent=transparent)
    _speaking_app()
    write_png(picture, path, options)
    return Path(path)


def render_comparison_svg(
    traces: Sequence[Trace], labels: Sequence[str], path: str | os.PathLike[str], theme: str = "light", title: str = ""
) -> Path:
    """Draw two runs to one SVG (see `render_comparison_png`); returns the path written."""
    picture = _comparison(traces, labels, title)
    _speaking_app()
    write_svg(picture, path, ExportOptions(theme=theme))
    return Path(path)


def _speaking_app() -> None:
    """The application, with the Qt catalogue of the language the rest of the picture speaks."""
    ensure_app()
    install_translators(current_language())


def _comparison(traces: Sequence[Trace], labels: Sequence[str], title: str) -> ComparisonPicture:
    """Both sides prepared for their timelines (the picture checks that there are two)."""
    views = tuple(prepare_trace(trace) for trace in traces)
    return ComparisonPicture(views, tuple(labels), title)  # type: ignore[arg-type]  # checked

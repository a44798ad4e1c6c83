"""Pictures of traces (``run --png``, ``render``, ``profile --png``), drawn by the app's own code, offscreen.

The drawing code is Qt's, imported only when a picture is asked for, so that every other
command runs without Qt.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from overlapviz.commands.errors import UsageError
from overlapviz.commands.outputs import check_writable
from overlapviz.core.config.cli_flags import count_argument as count
from overlapviz.core.i18n import N_, _
from overlapviz.core.trace.spans import Trace

PICTURE_SUFFIXES = (".png", ".svg")  # the formats a picture is written in, told by the name's ending
PICTURE_FORMATS_HELP = N_("The name must end in .png (PNG) or .svg (SVG); any other ending is refused.")


def add_picture_options(group: Any) -> None:
    """Add ``--width`` and ``--theme`` to a command's parser (or group) that draws a picture."""
    group.add_argument(
        "--width", type=count, default=1920, metavar="W", help=_("picture width in pixels (default 1920)")
    )
    group.add_argument("--theme", default="light", metavar="THEME", help=_("light, dark or projector (default light)"))


def check_picture(path: Path, width: int, theme: str, flag: str) -> None:
    """Fail before any work when the picture could not be drawn or written, or not in the format its name says."""
    render = render_module()
    try:
        render.check_options(width, theme)
    except ValueError as error:
        raise UsageError(f"--width/--theme: {error}") from None
    check_writable(path)
    if path.suffix.lower() not in PICTURE_SUFFIXES:
        if path.suffix:
            message = _("{flag} {path}: a picture is written as .png or .svg, not {suffix}")
        else:
            message = _("{flag} {path}: a picture is written as .png or .svg, not a name without one")
        raise UsageError(message.format(flag=flag, path=path, suffix=path.suffix))


def draw(traces: list[Trace], labels: list[str], path: Path, width: int, theme: str, title: str = "") -> Path:
    """One trace as its timeline, two as a comparison (A above B); SVG when `path` ends in .svg."""
    render = render_module()
    svg = path.suffix.lower() == ".svg"
    try:
        if len(traces) == 1 and svg:
            return Path(render.render_trace_svg(traces[0], path, theme=theme))
        if len(traces) == 1:
            return Path(render.render_trace_png(traces[0], path, width=width, theme=theme))
        if svg:
            return Path(render.render_comparison_svg(traces, labels, path, theme=theme, title=title))
        return Path(render.render_comparison_png(traces, labels, path, width=width, theme=theme, title=title))
    except OSError as error:
        raise UsageError(_("cannot write {path}: {error}").format(path=path, error=error.strerror or error)) from None


def render_module() -> Any:
    """The app's headless drawing code, imported only when a picture is asked for."""
    try:
        from overlapviz._qt import render
    except ImportError as error:
        message = _("pictures need the desktop app's libraries, which this build lacks ({error})")
        raise UsageError(message.format(error=error)) from None
    render.quiet_platform_notes()
    return render

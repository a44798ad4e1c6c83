"""``overlapviz render TRACE -o OUT.png``: a trace file drawn as the app exports it, no display needed."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from overlapviz.app.time_window import cut_trace, text_window
from overlapviz.commands.errors import UsageError
from overlapviz.commands.pictures import PICTURE_FORMATS_HELP, add_picture_options, check_picture, draw
from overlapviz.core.analysis.time_window import WindowError
from overlapviz.core.files.trace_format import TraceFormatError
from overlapviz.core.i18n import N_, _
from overlapviz.core.trace.spans import Trace
from overlapviz.importers.kineto_early import kineto_helpers_started_for
from overlapviz.importers.read import read_trace_file
from overlapviz.run_report import labelled

_RENDER_HELP = N_("""\
Draw a trace file as the app exports it: caption, colour key, timeline and the findings as
callouts. No display needed. The trace is one overlapviz wrote (run --trace, the app's Export
Chrome trace, profile --out), a PyTorch profiler trace or an Nsight Systems SQLite export,
gzipped or not.

The picture shows the time the app's window opens on: a trace recorded by another tool
(PyTorch, Nsight Systems) its GPU work, from the first copy or kernel to the last, with a
small margin; a run of overlapviz all of it. --window picks the part yourself, as the app's
View > Time window does: the picture, its caption and its callouts are then of that part
alone.

{formats}
""")


def add_render(commands: Any) -> None:
    """Add ``overlapviz render``."""
    render = commands.add_parser(
        "render",
        help=_("draw a trace file (overlapviz, PyTorch profiler or Nsight Systems) to a PNG or SVG"),
        description=_(_RENDER_HELP).format(formats=_(PICTURE_FORMATS_HELP)),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    render.set_defaults(command=render_command)
    render.add_argument(
        "trace", type=Path, metavar="TRACE", help=_("the trace to draw (.json, .ovz, .sqlite, gzipped or not)")
    )
    render.add_argument("-o", "--output", type=Path, required=True, metavar="OUT.png",
                        help=_("the picture to write: OUT.png or OUT.svg"))
    render.add_argument(
        "--window", metavar="START:END|NAME",
        help=_("draw only this part: ms from the trace's start as the app's time axis shows them (e.g. 2:4.5, or 10:"
        " to the end), or the NVTX / record_function range of that name (e.g. ProfilerStep#3; NAME#k its k-th)"),
    )  # fmt: skip
    add_picture_options(render)


def render_command(args: argparse.Namespace) -> int:
    """Read a trace file and draw it (the part --window names, if given)."""
    with kineto_helpers_started_for(args.trace):  # a large PyTorch trace's: they start while the checks import Qt
        check_picture(args.output, args.width, args.theme, "-o")
        trace = _read(args.trace)
    if args.window is not None:
        trace = _windowed(trace, args.window)
    print(labelled(_("wrote"), "{path}", path=str(draw([trace], [""], args.output, args.width, args.theme))))
    return 0


def _read(path: Path) -> Trace:
    try:
        return read_trace_file(path)
    except TraceFormatError as error:
        raise UsageError(str(error)) from None
    except OSError as error:
        raise UsageError(_("cannot read {path}: {error}").format(path=path, error=error.strerror or error)) from None


def _windowed(trace: Trace, text: str) -> Trace:
    """`trace` cut to the window `text` gives, as the app cuts it."""
    try:
        return cut_trace(trace, text_window(trace, text))
    except WindowError as error:
        raise UsageError(_("--window: {error}").format(error=error)) from None

"""The command line: ``overlapviz`` starts the app; ``run``, ``bandwidth``, ``devices`` and ``presets`` work without it.

``render``, ``run --png`` and ``profile --png`` draw pictures with the app's own drawing code,
offscreen; Qt is imported only when one is asked for, so everything else runs without it.

Every subcommand is one ``add_*`` function that builds its parser and one ``*_command``
function that runs it. Bad input is one line on stderr starting ``overlapviz: error:`` and
exit code 2; a backend that fails is the same line with exit code 1; never a traceback.
"""

from __future__ import annotations

import argparse
import functools
import io
import json
import math
import os
import sys
import textwrap
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn

from overlapviz import __version__
from overlapviz.analyze_command import add_analyze
from overlapviz.app.time_window import cut_trace, text_window
from overlapviz.backends import registry
from overlapviz.backends.base import DeviceInfo
from overlapviz.calibrate_command import add_calibrate
from overlapviz.core.atomic import written_together
from overlapviz.core.config import (
    DEFAULT_CHUNKS,
    DEFAULT_ITERS,
    DEFAULT_RING_SLOTS,
    DEFAULT_SIZE_BYTES,
    DEFAULT_STREAMS,
    ConfigError,
    GpuLayout,
    HostAlloc,
    HostMemory,
    IssueOrder,
    KernelKind,
    PipelineConfig,
    StreamKind,
    format_size,
    parse_count,
    parse_size,
)
from overlapviz.core.destination import DestinationError, check_destination
from overlapviz.core.number_text import count_text, rate_text, significant
from overlapviz.core.run_errors import BackendError
from overlapviz.core.trace import Trace
from overlapviz.core.trace_io import TraceFormatError, export_chrome, export_csv
from overlapviz.core.window import WindowError
from overlapviz.desktop_entry import install_desktop_entry
from overlapviz.importers.read import read_trace_file
from overlapviz.presets import Preset, PresetError, get_preset, lessons, load_presets
from overlapviz.profile_command import add_profile
from overlapviz.run_report import figures_help, finite_json, json_run, summary_lines
from overlapviz.session import (
    RunResult,
    SweepUnsupportedError,
    UnknownDeviceError,
    find_backend,
    run_on,
    sweep_bandwidth,
)

PROG = "overlapviz"
EXIT_FAILED = 1  # the input was fine, the run was not
EXIT_USAGE = 2  # the input was wrong
OPENED_SUFFIXES = (".json", ".gz", ".sqlite", ".db")  # the files the app's File > Open offers

Command = Callable[[argparse.Namespace], int]


class UsageError(Exception):
    """The command line is wrong; the message says how."""


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (argparse prints the usage too)."""

    def error(self, message: str) -> NoReturn:
        """Raise instead of printing usage and exiting."""
        raise UsageError(message)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code.

    Parameters
    ----------
    argv
        The arguments after the program name; None for ``sys.argv[1:]``.

    Returns
    -------
    int
        0 on success, 1 when a run failed, 2 for bad arguments.
    """
    never_fail_to_print()
    try:
        args = _parse(argv)
        command: Command = args.command
        return command(args)
    except SystemExit as done:  # --help and --version
        return done.code if isinstance(done.code, int) else 0
    except (UsageError, ConfigError, PresetError, UnknownDeviceError) as error:
        return _fail(str(error), EXIT_USAGE)
    except BackendError as error:
        return _fail(str(error), EXIT_FAILED)
    except KeyboardInterrupt:
        return _fail("interrupted", 130)
    except BrokenPipeError:  # the reader went away (`overlapviz run | head`): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_FAILED


def never_fail_to_print() -> None:
    r"""Write what the terminal's encoding cannot hold escaped (``\ud800``), never stopping on it.

    Text from a file (a device, kernel or file name) may hold a lone surrogate, which no
    encoding writes, and any name may hold letters that an ASCII terminal (``LANG=C``) lacks.
    """
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="backslashreplace")


def _fail(message: str, code: int) -> int:
    print(f"{PROG}: error: {' '.join(message.split())}", file=sys.stderr)
    return code


class _InstallDesktop(argparse.Action):
    """``--install-desktop``: write the desktop entry (`desktop_entry`), say where, and stop, as --version does."""

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> NoReturn:
        try:
            path = install_desktop_entry()
        except OSError as error:
            raise UsageError(f"--install-desktop: {error}") from None
        print(f"wrote      {path}")
        raise SystemExit(0)


def build_parser() -> argparse.ArgumentParser:
    """Build the parser with every subcommand."""
    parser = _Parser(
        prog=PROG,
        description="See where asynchronous GPU copies and kernels overlap. With no command, start the app;"
        " with a file (overlapviz FILE), start it on that file.",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    parser.add_argument("--install-desktop", action=_InstallDesktop, nargs=0,
                        help="add the app to the desktop's menu and to its 'Open with' for traces, then exit")
    parser.set_defaults(command=app_command)
    commands = parser.add_subparsers(title="commands", metavar="COMMAND")
    add_profile_drawing = functools.partial(add_profile, pictures=_render_module, open_app=_open_in_app)
    for add in (add_run, add_analyze, add_profile_drawing, add_render, add_bandwidth, add_devices, add_presets,
                add_calibrate):
        add(commands)
    return parser


# --- the app ---------------------------------------------------------------------------


def _parse(argv: Sequence[str] | None) -> argparse.Namespace:
    """The arguments; ``overlapviz FILE``, as a desktop launcher gives it, is the app opening FILE."""
    try:
        return build_parser().parse_args(argv)
    except UsageError:
        path = file_to_open(sys.argv[1:] if argv is None else argv)
        if path is None:
            raise
        return argparse.Namespace(command=lambda _args: _open_in_app(path, f"{path} cannot be opened"))


def file_to_open(argv: Sequence[str]) -> Path | None:
    """The file of ``overlapviz FILE``: one argument, no command's name, an existing file or a trace's name."""
    if len(argv) != 1 or argv[0].startswith("-"):
        return None
    path = Path(argv[0])
    return path if os.path.isfile(path) or path.name.lower().endswith(OPENED_SUFFIXES) else None


def _open_in_app(path: Path, otherwise: str | None = None) -> int:
    """The app on `path` until its window closes (``profile --open``); 2 where no window can be shown."""
    try:
        from overlapviz._qt.app import main as app_main
    except ImportError as error:
        why = f"the desktop app is not available in this build ({error})"
        return _fail(f"{why}; {otherwise}" if otherwise else f"--open: {why}; {path} is written", EXIT_USAGE)
    return int(app_main(path) or 0)


def app_command(args: argparse.Namespace) -> int:
    """Start the desktop app (imported only here, so nothing else on the command line loads Qt)."""
    try:
        from overlapviz._qt.app import main as app_main
    except ImportError as error:
        print(
            f"{PROG}: the desktop app is not available in this build ({error});"
            f" 'overlapviz run' works without it",
            file=sys.stderr,
        )
        return EXIT_FAILED
    return int(app_main() or 0)


# --- run -------------------------------------------------------------------------------

_RUN_HELP = f"""\
Run the pipeline once and print its metrics and findings.

Settings not given take the preset's values with --preset, else the defaults:
{format_size(DEFAULT_SIZE_BYTES)}, {DEFAULT_CHUNKS} chunks, {DEFAULT_STREAMS} streams, pinned, depth, nonblocking,
fma kernel with {DEFAULT_ITERS} iterations, backend auto (the real GPU if usable, else the model).
Flags given next to --preset override the preset's values.

A preset that compares two pipelines runs both (each on its own device when the preset
names one per side; --device runs both on the one given): the summary shows both, --json
prints {{"preset": NAME, "runs": [A, B]}} (each run with its "label"), and --trace/--csv
write one file per run, named FILE-a.json and FILE-b.json (likewise for CSV); --png draws
both in one picture, A above B on one time axis.

The figures, each 0-100 % where it is a share:
{figures_help()}
"""


def add_run(commands: Any) -> None:
    """Add ``overlapviz run``."""
    run = commands.add_parser(
        "run",
        help="run the pipeline once and print its metrics and findings",
        description=_RUN_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    run.set_defaults(command=run_command)
    where = run.add_argument_group("where to run")
    where.add_argument("--backend", choices=("auto", *registry.BACKEND_NAMES), help="default: auto")
    where.add_argument("--device", metavar="PROFILE", help="a simulated profile or a GPU (see 'overlapviz devices')")
    where.add_argument("--preset", metavar="NAME", help="start from a preset (see 'overlapviz presets')")
    pipeline = run.add_argument_group("the pipeline (default: the preset's value, else the default)")
    pipeline.add_argument("--size", type=_size, metavar="SIZE", help="total size, e.g. 256MiB, 1GiB")
    pipeline.add_argument("--chunks", type=_count, metavar="N", help=f"chunks (default {DEFAULT_CHUNKS})")
    pipeline.add_argument("--streams", type=_count, metavar="N", help=f"streams (default {DEFAULT_STREAMS})")
    pipeline.add_argument("--memory", choices=[m.value for m in HostMemory], help="host memory (default pinned)")
    pipeline.add_argument("--order", choices=[o.value for o in IssueOrder], help="issue order (default depth)")
    pipeline.add_argument(
        "--stream-kind",
        choices=[k.value for k in StreamKind],
        help="non-blocking streams, or every op on the legacy default stream (default nonblocking)",
    )
    pipeline.add_argument(
        "--kernel",
        choices=[k.value for k in KernelKind],
        help="an FMA chain, or the sin/cos kernel of Harris 2012 (default fma)",
    )
    pipeline.add_argument(
        "--kernel-iters", type=_count, metavar="N", help=f"FMA iterations per element (default {DEFAULT_ITERS})"
    )
    pipeline.add_argument(
        "--fresh-output",
        action=argparse.BooleanOptionalAction,
        help="copy back into a never-touched buffer each run; needs --memory pageable (default off)",
    )
    pipeline.add_argument(
        "--host-alloc",
        choices=[a.value for a in HostAlloc],
        help="allocate the host buffers once before timing (reuse), or inside every run (per-run);"
        " default reuse",
    )
    pipeline.add_argument(
        "--ring-slots", type=_count, metavar="N",
        help=f"pinned slots of the staging ring; needs --memory staged (default {DEFAULT_RING_SLOTS})",
    )  # fmt: skip
    pipeline.add_argument(
        "--graph", action=argparse.BooleanOptionalAction, help="issue the pipeline as one CUDA Graph (default off)"
    )
    pipeline.add_argument(
        "--gpus", type=_count, metavar="N",
        help="1, or 2 GPUs of one host, shared as --gpu-layout says"
        " (default 1; two GPUs need a profile with a peer link: h200x2-nvlink, h200x2-pcie, h200x2-pcie-switch)",
    )  # fmt: skip
    pipeline.add_argument(
        "--gpu-layout", choices=[layout.value for layout in GpuLayout],
        help="with --gpus 2: chain sends each chunk H2D to GPU 0, its kernel, a peer copy to GPU 1, its kernel,"
        " D2H from GPU 1; split runs chunk c H2D, kernel, D2H on GPU c %% 2, both GPUs on one portable pinned"
        " buffer (default chain)",
    )  # fmt: skip
    pipeline.add_argument(
        "--peer-access", action=argparse.BooleanOptionalAction,
        help="with --gpus 2 in a chain: peer copies GPU to GPU over NVLink or PCIe (on), or staged by the driver"
        " through the host (off);"
        " default on",
    )  # fmt: skip
    output = run.add_argument_group("output")
    output.add_argument("--json", action="store_true", help="print one JSON object instead of the summary")
    output.add_argument("--trace", type=Path, metavar="FILE.json", help="write the trace as Chrome trace JSON")
    output.add_argument("--csv", type=Path, metavar="FILE", help="write the spans as CSV")
    output.add_argument("--png", type=Path, metavar="FILE.png",
                        help="draw the timeline (both, for a comparison preset) as the app exports it, to FILE.png"
                        " or FILE.svg (any other ending is refused)")
    _add_picture_options(output)


def _add_picture_options(group: Any) -> None:
    group.add_argument("--width", type=_count, default=1920, metavar="W", help="picture width in pixels (default 1920)")
    group.add_argument("--theme", default="light", metavar="THEME", help="light, dark or projector (default light)")


def _count(text: str) -> int:
    """A whole number in ASCII digits (argparse's int() also takes other scripts' digits)."""
    try:
        return parse_count(text, "value")
    except ConfigError as error:
        raise argparse.ArgumentTypeError(_reason(error)) from None


def _size(text: str) -> int:
    try:
        return parse_size(text)
    except ConfigError as error:
        raise argparse.ArgumentTypeError(_reason(error)) from None


def _reason(error: ConfigError) -> str:
    """The message without the field name it starts with."""
    return str(error).removeprefix(f"{error.field}: ")


_FLAG_FIELDS = {
    "size": "size_bytes",
    "chunks": "chunks",
    "streams": "streams",
    "memory": "memory",
    "order": "order",
    "stream_kind": "stream_kind",
    "kernel": "kernel",
    "kernel_iters": "iters",
    "fresh_output": "fresh_output",
    "host_alloc": "host_alloc",
    "ring_slots": "ring_slots",
    "graph": "graph",
    "gpus": "gpus",
    "gpu_layout": "gpu_layout",
    "peer_access": "peer_access",
}


def run_command(args: argparse.Namespace) -> int:
    """Run the pipeline (or both of a comparison preset) and report."""
    preset = get_preset(args.preset) if args.preset else None
    configs, labels = _configs(args, preset)
    backend_name = args.backend or (preset.backend if preset else None) or "auto"
    devices = [args.device or (preset.devices[side] if preset else None) for side in range(len(configs))]
    outputs = {kind: _output_paths(getattr(args, kind), len(configs)) for kind in ("trace", "csv")}
    if args.png is not None:
        _check_picture(args.png, args.width, args.theme, "--png")
    backends = [find_backend(backend_name, device) for device in devices]
    results = [
        run_on(backend, config, device) for config, backend, device in zip(configs, backends, devices, strict=True)
    ]
    with _outputs_together():
        written = _write_outputs(results, outputs)
        if args.png is not None:
            title = "" if preset is None else f"{preset.lesson}. {preset.title}" if preset.lesson else preset.title
            written.append(_draw([r.trace for r in results], labels, args.png, args.width, args.theme, title))
    if args.json:
        print(json.dumps(_json_report(preset, configs, labels, results), indent=2, allow_nan=False))
    else:
        print(_text_report(preset, configs, labels, results, written))
    return 0


def _configs(args: argparse.Namespace, preset: Preset | None) -> tuple[list[PipelineConfig], list[str]]:
    """The preset's configs (or the default one) with the flags given on the command line applied."""
    given = {field: getattr(args, flag) for flag, field in _FLAG_FIELDS.items() if getattr(args, flag) is not None}
    try:
        if preset is None:
            return [PipelineConfig(**given)], [""]
        return [config.replace(**given) for config in preset.configs], list(preset.labels)
    except ConfigError as error:
        if error.field not in given:
            raise
        flag = next(flag for flag, field in _FLAG_FIELDS.items() if field == error.field)
        raise UsageError(f"--{flag.replace('_', '-')}: {_reason(error)}") from None


def _output_paths(path: Path | None, runs: int) -> list[Path]:
    """One path per run (FILE-a.json, FILE-b.json for two), each checked to be writable."""
    if path is None:
        return []
    if not path.name:  # "/" or ".": no file name to derive FILE-a from
        raise UsageError(f"cannot write {path}: it is a folder")
    paths = [path] if runs == 1 else [path.with_name(f"{path.stem}-{k}{path.suffix}") for k in "ab"[:runs]]
    for each in paths:
        _check_writable(each)
    return paths


def _check_writable(path: Path) -> None:
    """Fail before a long run, not after it, when an output file cannot be written."""
    try:
        check_destination(path)
    except DestinationError as error:
        raise UsageError(str(error)) from None


def _write_outputs(results: list[RunResult], outputs: dict[str, list[Path]]) -> list[Path]:
    writers = {"trace": export_chrome, "csv": export_csv}
    written = []
    for kind, paths in outputs.items():
        for result, path in zip(results, paths, strict=False):
            try:
                writers[kind](result.trace, path)
            except OSError as error:
                raise UsageError(str(error)) from None
            written.append(path)
    return written


@contextmanager
def _outputs_together() -> Iterator[None]:
    """Rename every output of the run into place at the end, together (docs/files.md says what holds)."""
    try:
        with written_together():
            yield
    except OSError as error:  # a rename at the end failed; the message names the file
        raise UsageError(str(error)) from None


# --- pictures: run --png and render ---------------------------------------------------------

PICTURE_SUFFIXES = (".png", ".svg")  # the formats a picture is written in, told by the name's ending
PICTURE_FORMATS_HELP = "The name must end in .png (PNG) or .svg (SVG); any other ending is refused."


_RENDER_HELP = f"""\
Draw a trace file as the app exports it: caption, colour key, timeline and the findings as
callouts. No display needed. The trace is one overlapviz wrote (run --trace, the app's Export
Chrome trace, profile --out), a PyTorch profiler trace or an Nsight Systems SQLite export,
gzipped or not.

The picture shows the time the app's window opens on: a trace recorded by another tool
(PyTorch, Nsight Systems) its GPU work, from the first copy or kernel to the last, with a
small margin; a run of overlapviz all of it. --window picks the part yourself, as the app's
View > Time window does: the picture, its caption and its callouts are then of that part
alone.

{PICTURE_FORMATS_HELP}
"""


def add_render(commands: Any) -> None:
    """Add ``overlapviz render``."""
    render = commands.add_parser(
        "render",
        help="draw a trace file (overlapviz, PyTorch profiler or Nsight Systems) to a PNG or SVG",
        description=_RENDER_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    render.set_defaults(command=render_command)
    render.add_argument("trace", type=Path, metavar="TRACE", help="the trace to draw (.json, .sqlite, gzipped or not)")
    render.add_argument("-o", "--output", type=Path, required=True, metavar="OUT.png",
                        help="the picture to write: OUT.png or OUT.svg")
    render.add_argument(
        "--window", metavar="START:END|NAME",
        help="draw only this part: ms from the trace's start as the app's time axis shows them (e.g. 2:4.5, or 10:"
        " to the end), or the NVTX / record_function range of that name (e.g. ProfilerStep#3; NAME#k its k-th)",
    )  # fmt: skip
    _add_picture_options(render)


def render_command(args: argparse.Namespace) -> int:
    """Read a trace file and draw it (the part --window names, if given)."""
    _check_picture(args.output, args.width, args.theme, "-o")
    try:
        trace = read_trace_file(args.trace)
    except TraceFormatError as error:
        raise UsageError(str(error)) from None
    except OSError as error:
        raise UsageError(f"cannot read {args.trace}: {error.strerror or error}") from None
    if args.window is not None:
        trace = _windowed(trace, args.window)
    print(f"wrote      {_draw([trace], [''], args.output, args.width, args.theme)}")
    return 0


def _windowed(trace: Trace, text: str) -> Trace:
    """`trace` cut to the window `text` gives, as the app cuts it."""
    try:
        return cut_trace(trace, text_window(trace, text))
    except WindowError as error:
        raise UsageError(f"--window: {error}") from None


def _check_picture(path: Path, width: int, theme: str, flag: str) -> None:
    """Fail before any work when the picture could not be drawn or written, or not in the format its name says."""
    render = _render_module()
    try:
        render.check_options(width, theme)
    except ValueError as error:
        raise UsageError(f"--width/--theme: {error}") from None
    _check_writable(path)
    if path.suffix.lower() not in PICTURE_SUFFIXES:
        ending = f"not {path.suffix}" if path.suffix else "not a name without one"
        raise UsageError(f"{flag} {path}: a picture is written as .png or .svg, {ending}")


def _draw(traces: list[Trace], labels: list[str], path: Path, width: int, theme: str, title: str = "") -> Path:
    """One trace as its timeline, two as a comparison (A above B); SVG when `path` ends in .svg."""
    render = _render_module()
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
        raise UsageError(f"cannot write {path}: {error.strerror or error}") from None


def _render_module() -> Any:
    """The app's headless drawing code, imported only when a picture is asked for."""
    try:
        from overlapviz._qt import render
    except ImportError as error:
        raise UsageError(f"pictures need the desktop app's libraries, which this build lacks ({error})") from None
    render.quiet_platform_notes()
    return render


# --- run: the reports ------------------------------------------------------------------


def _json_report(
    preset: Preset | None, configs: list[PipelineConfig], labels: list[str], results: list[RunResult]
) -> dict[str, Any]:
    runs = [json_run(config, result) for config, result in zip(configs, results, strict=True)]
    if preset is None:
        return runs[0]
    for run, label in zip(runs, labels, strict=True):
        run["label"] = label
    return {"preset": preset.name, **runs[0]} if len(runs) == 1 else {"preset": preset.name, "runs": runs}


def _text_report(
    preset: Preset | None,
    configs: list[PipelineConfig],
    labels: list[str],
    results: list[RunResult],
    written: list[Path],
) -> str:
    lines: list[str] = []
    if preset is not None:
        lines += [f"preset     {preset.name}: {preset.title}", *textwrap.wrap(preset.text, 88), ""]
    for index, (config, label, result) in enumerate(zip(configs, labels, results, strict=True)):
        if len(configs) > 1:
            lines += [""] * (index > 0) + [f"== {'AB'[index]}: {label} =="]
        lines += summary_lines(config, result)
    lines += [f"wrote      {path}" for path in written]
    return "\n".join(lines)


# --- bandwidth -------------------------------------------------------------------------


def add_bandwidth(commands: Any) -> None:
    """Add ``overlapviz bandwidth``."""
    bandwidth = commands.add_parser(
        "bandwidth",
        help="copy bandwidth by transfer size: H2D and D2H, pinned, pageable and write-combined",
        description="Copy bandwidth by transfer size (64 KiB to 1 GiB), H2D and D2H, from pinned, pageable"
        " and write-combined host memory (on a model, where its profile has write-combined rates): one"
        " copy at a time, on the real GPU or from the model. Prints a table"
        " in GB/s (1e9 bytes/s) with the link's theoretical limit, or JSON.",
    )
    bandwidth.set_defaults(command=bandwidth_command)
    bandwidth.add_argument("--backend", choices=("auto", *registry.BACKEND_NAMES), default="auto",
                           help="default: auto (the real GPU if usable, else the model)")
    bandwidth.add_argument("--device", metavar="D", help="a simulated profile or a GPU (see 'overlapviz devices')")
    bandwidth.add_argument("--json", action="store_true", help="print one JSON object instead of the table")


def bandwidth_command(args: argparse.Namespace) -> int:
    """Sweep copy sizes on the chosen backend and print the bandwidth table (or JSON)."""
    try:
        report = sweep_bandwidth(args.backend, args.device).to_dict()
    except SweepUnsupportedError as error:
        return _fail(
            f"the {error.backend} backend cannot sweep copy bandwidth in this version;"
            " 'overlapviz bandwidth --backend sim' gives the model's",
            EXIT_FAILED,
        )
    if args.json:
        print(json.dumps(finite_json(report), indent=2, allow_nan=False))
    else:
        print("\n".join(bandwidth_lines(report)))
    return 0


def bandwidth_lines(report: dict[str, Any]) -> list[str]:
    """The bandwidth report as a table: one row per size, one column per memory kind and direction."""
    truth = "simulated" if report["simulated"] else "measured"
    name = report.get("device_name") or report.get("device") or "default device"
    lines = [f"device  {name}, {report['backend']} backend, {truth}"]
    peak = report.get("link_peak_gbps")
    if peak:
        link = report.get("link") or "the link"
        lines.append(f"link    {link}: theoretical limit {rate_text(peak)} per direction")
    points = report["points"]
    columns = list(dict.fromkeys((p["memory"], p["direction"]) for p in points))
    sizes = sorted({int(p["size"]) for p in points})
    value = {(int(p["size"]), p["memory"], p["direction"]): p["gbps"] for p in points}
    titles = [f"{memory} {direction.upper()}" for memory, direction in columns]
    widths = [max(len(title), 8) for title in titles]
    lines.append("  ".join([f"{'size':>8}", *(f"{t:>{w}}" for t, w in zip(titles, widths, strict=True))]) + "  (GB/s)")
    for size in sizes:
        cells = [_gbps_cell(value.get((size, *column))) for column in columns]
        lines.append("  ".join([f"{format_size(size):>8}", *(f"{c:>{w}}" for c, w in zip(cells, widths, strict=True))]))
    return lines


def _gbps_cell(value: float | None) -> str:
    return "-" if value is None or not math.isfinite(value) else significant(value)


# --- devices ---------------------------------------------------------------------------


def add_devices(commands: Any) -> None:
    """Add ``overlapviz devices``."""
    devices = commands.add_parser("devices", help="list the backends usable here, the GPU and the models")
    devices.set_defaults(command=devices_command)


def devices_command(args: argparse.Namespace) -> int:
    """Print the backends (with why one is not usable), the GPUs, and the simulated profiles."""
    statuses = registry.probe_backends()
    backends = [[s.name, "usable" if s.usable else "not usable", s.reason] for s in statuses]
    backends.append(["auto", f"picks {_auto_choice()}"])
    gpus: list[list[str]] = []
    for status in statuses:
        if status.usable:
            for info in registry.load_backend(status.name).devices():
                if not info.simulated:
                    gpus.append([info.key, f"{_device_line(info)} ({status.name} backend)"])
                    gpus += [["", timing] for timing in _timing_lines(info)]
    lines = ["backends", *aligned(backends), "GPUs", *(aligned(gpus) if gpus else ["  none found"])]
    lines += ["simulated profiles", *_profile_lines()]
    print("\n".join(lines))
    return 0


def aligned(rows: list[list[str]], indent: str = "  ") -> list[str]:
    """`rows` as lines whose columns line up, each as wide as its longest cell (the last one unpadded)."""
    widths = [max(len(row[k]) for row in rows if k < len(row)) for k in range(max(map(len, rows), default=0))]
    return [
        indent + "  ".join([*(f"{cell:<{widths[k]}}" for k, cell in enumerate(row[:-1])), row[-1]]).rstrip()
        for row in rows
    ]


def _auto_choice() -> str:
    try:
        return registry.resolve_backend("auto").name
    except BackendError as error:
        return f"nothing: {error}"


def _profile_lines() -> list[str]:
    try:
        profiles = registry.load_backend("sim").devices()
    except BackendError as error:
        return [f"  not available: {error}"]
    return aligned([[info.key, _device_line(info)] for info in profiles])


def _timing_lines(info: DeviceInfo) -> list[str]:
    """Which timing source a GPU's runs will use, and why not CUPTI when it is not."""
    timing = info.facts.get("timing")
    if not timing:
        return []
    reason = info.facts.get("timing_reason")
    return [f"timing: {timing}" + (f" ({reason})" if reason else "")]


def _device_line(info: DeviceInfo) -> str:
    engines = info.facts.get("copy_engines")
    if engines is None:
        return info.name
    each = " per GPU" if "nvlink_links" in info.facts else ""  # a profile of two GPUs: its [peer] link's facts
    return f"{info.name}, {count_text(engines, 'copy engine')}{each}"


# --- presets ---------------------------------------------------------------------------


def add_presets(commands: Any) -> None:
    """Add ``overlapviz presets``."""
    presets = commands.add_parser("presets", help="list the presets, one per line: name, then title")
    presets.set_defaults(command=presets_command)
    presets.add_argument("--lessons", action="store_true",
                         help="list only the lessons, in their order: number, name, title")


def presets_command(args: argparse.Namespace) -> int:
    """Print one preset per line: its name, then its title (or the lessons, numbered, in order)."""
    if args.lessons:
        ordered = lessons()
        width = max((len(preset.name) for preset in ordered), default=0)
        for preset in ordered:
            print(f"{preset.lesson:>2}  {preset.name:<{width}}  {preset.title}")
        return 0
    presets = load_presets()
    width = max((len(name) for name in presets), default=0)
    for name, preset in presets.items():
        print(f"{name:<{width}}  {preset.title}")
    return 0

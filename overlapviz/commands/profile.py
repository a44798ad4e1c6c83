"""``overlapviz profile -- script.py [args]``: run your own Python script, recording its GPU work with CUPTI.

The script runs in this process, as ``python script.py args`` would run it (``__main__``,
its own ``sys.argv``, its folder first on ``sys.path``), inside `overlapviz.record_block`. Then the
recording is summarised as ``overlapviz analyze`` summarises a trace file; with ``--open``
the app then shows the trace it wrote. When the script
exits with an error or raises, what it recorded up to then is still shown, and one line
after the summary says how it ended.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import runpy
import sys
import tempfile
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NoReturn

from overlapviz.backends.cupy.cupti_recording import RecordingUnavailable
from overlapviz.commands.app import open_in_app
from overlapviz.commands.pictures import render_module
from overlapviz.core.analysis.time_window import WindowError, clip_to_window, parse_window
from overlapviz.core.files.atomic_write import written_together
from overlapviz.core.files.trace_export import export_chrome
from overlapviz.core.files.write_destination import DestinationError, check_destination
from overlapviz.core.i18n import _
from overlapviz.core.trace.spans import Trace
from overlapviz.importers.to_trace import EmptyTraceError
from overlapviz.record_block import Recorder
from overlapviz.run_report import finite_json, json_run, labelled, summary_lines
from overlapviz.session import RunResult, analyse

UsageFailure = Callable[[str], NoReturn]
EXIT_SCRIPT_FAILED = 1
OPEN_NAME = "overlapviz-profile-{stem}.json"  # where --open writes the recording when --out names no file


def add_profile(commands: Any) -> None:
    """Add ``overlapviz profile`` (its parser's `error` is how the command reports bad input)."""
    profile = commands.add_parser(
        "profile",
        help=_("run a Python script, recording its GPU copies, kernels and API calls, and analyse them"),
        description=_("Run a Python script in this process (as 'python SCRIPT ARGS' would), record the CUDA"
        " copies, kernels and API calls it makes with CUPTI, and print their figures and findings as"
        " 'overlapviz analyze' prints a trace file's. Needs CuPy, cupti-python and an NVIDIA GPU; the"
        " script may use CuPy or PyTorch. Memsets and NVTX ranges are not recorded. Put '--' before the"
        " script when its arguments look like options."),
    )
    profile.set_defaults(command=profile_command, usage_error=profile.error)
    profile.add_argument("--out", type=Path, metavar="TRACE.json", help=_("write the recording as a Chrome trace"))
    profile.add_argument("--png", type=Path, metavar="OUT.png", help=_("draw the recording (.svg: as SVG)"))
    profile.add_argument(
        "--window", metavar="START:END",
        help=_("only this part of the recording, in ms from its start (e.g. 2:4.5, or 10: to the end)"),
    )  # fmt: skip
    profile.add_argument(
        "--open",
        action="store_true",
        help=_("then show the recording in the app (the file --out names, else one in the temporary folder)"),
    )
    profile.add_argument(
        "--json",
        action="store_true",
        help=_("print one JSON object instead of the summary (the script's own output goes to stderr)"),
    )
    profile.add_argument("script", type=Path, metavar="SCRIPT.py", help=_("the Python script to run"))
    profile.add_argument("script_args", nargs=argparse.REMAINDER, metavar="ARGS", help=_("the script's arguments"))


def profile_command(args: argparse.Namespace) -> int:
    """Check the paths, run the script while recording, then report and write what was asked for."""
    fail: UsageFailure = args.usage_error
    script: Path = args.script
    _check_inputs(script, args, fail)
    result, ending = _recorded(script, args.script_args, args.json, fail)
    if result is None:
        _say_ending(ending)
        return EXIT_SCRIPT_FAILED
    if args.window is not None:
        try:
            result = analyse(clip_to_window(result.trace, parse_window(args.window, result.trace)))
        except WindowError as error:
            fail(_("--window: {error}").format(error=error))
    out: Path | None = args.out
    if args.open and out is None:
        out = Path(tempfile.gettempdir()) / OPEN_NAME.format(stem=script.stem)
    written = _write(result.trace, out, args.png, fail)
    _report(args, result, ending, written)
    if args.open and out is not None:
        sys.stdout.flush()  # the report comes before anything the app prints
        opened = open_in_app(out, language=getattr(args, "lang", None))
        if opened != 0:
            return opened
    return EXIT_SCRIPT_FAILED if ending else 0


def _recorded(script: Path, script_args: list[str], quiet: bool, fail: UsageFailure) -> tuple[RunResult | None, str]:
    """Run `script` while recording: what it recorded (None where nothing is to be shown), and how it ended.

    Where nothing is shown, one line on stderr has said why.
    """
    recorder = Recorder(source=str(script))
    try:
        recorder.__enter__()
    except RecordingUnavailable as error:
        fail(str(error))
    ending = run_script(script, script_args, quiet=quiet)
    try:
        recorder.__exit__(None, None, None)
    except Exception as error:  # the final synchronize: a GPU the script left broken says so here
        why = _("the recording could not be finished: {error}").format(error=_one_line(str(error)))
        print(_("{program}: error: {message}").format(program="overlapviz", message=why), file=sys.stderr)
        return None, ending
    try:
        return recorder.result, ending
    except EmptyTraceError:
        print(_("overlapviz: {script} issued no host-device copy and no kernel: nothing to show").format(script=script),
              file=sys.stderr)
        return None, ending


def _report(args: argparse.Namespace, result: RunResult, ending: str, written: list[Path]) -> None:
    """Print the summary (then how the script ended, if badly) or, with ``--json``, the JSON alone."""
    script: Path = args.script
    script_args: list[str] = args.script_args
    if args.json:
        report = {"script": str(script), "script_args": script_args, "script_ending": ending or None}
        print(json.dumps(finite_json({**report, **json_run(None, result)}), indent=2))
        return
    command = " ".join([str(script), *script_args])
    lines = [labelled(_("script"), "{command}", command=command), *summary_lines(None, result)]
    print("\n".join([*lines, *(labelled(_("wrote"), "{path}", path=str(path)) for path in written)]))
    _say_ending(ending)


def run_script(script: Path, script_args: list[str], quiet: bool = False) -> str:
    """Run `script` as ``__main__`` with `script_args`; "" when it ended well, else how it ended.

    ``sys.argv`` and ``sys.path`` are the script's while it runs and ours again after.
    `quiet` sends what it prints to stderr (so that stdout holds only the report).
    """
    saved_argv, saved_path = sys.argv[:], sys.path[:]
    sys.argv = [str(script), *script_args]
    sys.path.insert(0, str(script.resolve().parent))
    try:
        with contextlib.redirect_stdout(sys.stderr) if quiet else contextlib.nullcontext():
            runpy.run_path(str(script), run_name="__main__")
    except SystemExit as done:
        return _exit_text(done.code)
    except (Exception, KeyboardInterrupt) as error:
        return _("the script stopped with {error}: {message}{where}").format(
            error=type(error).__name__, message=_one_line(str(error)), where=_where(error, script)
        )
    finally:
        sys.argv, sys.path[:] = saved_argv, saved_path
    return ""


def _exit_text(code: object) -> str:
    if code is None or code == 0:
        return ""
    if isinstance(code, int):
        return _("the script exited with code {code}").format(code=code)
    return _("the script exited: {message}").format(message=_one_line(str(code)))


def _where(error: BaseException, script: Path) -> str:
    """`` (at script.py:12)``: the last line of the script's own code the error passed through."""
    inside = [frame for frame in traceback.extract_tb(error.__traceback__) if Path(frame.filename) == script]
    return _(" (at {script}:{line})").format(script=script, line=inside[-1].lineno) if inside else ""


def _one_line(text: str) -> str:
    return " ".join(text.split())[:300]


def _say_ending(ending: str) -> None:
    if ending:
        print(_("overlapviz: {ending}").format(ending=ending), file=sys.stderr)


def _check_inputs(script: Path, args: argparse.Namespace, fail: UsageFailure) -> None:
    """Fail before the script runs when it cannot be run or an output cannot be written."""
    if not script.exists():
        fail(_("{script}: no such script").format(script=script))
    if not script.is_file():
        fail(_("{script}: not a file").format(script=script))
    for path in (args.out, args.png):
        if path is not None:
            try:
                check_destination(path)
            except DestinationError as error:
                fail(str(error))
    if args.png is not None:
        render_module()


def _write(trace: Trace, out: Path | None, png: Path | None, fail: UsageFailure) -> list[Path]:
    written: list[Path] = []
    with _together(fail):
        if out is not None:
            export_chrome(trace, out)
            written.append(out)
        if png is not None:
            written.append(_draw(trace, png, render_module()))
    return written


@contextlib.contextmanager
def _together(fail: UsageFailure) -> Iterator[None]:
    """Every output appears at the end, together, or none does."""
    try:
        with written_together():
            yield
    except OSError as error:
        fail(_("cannot write: {error}").format(error=error))


def _draw(trace: Trace, path: Path, render: Any) -> Path:
    if path.suffix.lower() == ".svg":
        return Path(render.render_trace_svg(trace, path))
    return Path(render.render_trace_png(trace, path))

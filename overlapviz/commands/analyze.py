"""``overlapviz analyze TRACE``: the metrics and findings of a trace file, as text or JSON.

A folder, or several files, is a distributed job: `overlapviz.commands.analyze_ranks`.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

from overlapviz.app.time_window import text_window
from overlapviz.commands.analyze_ranks import analyze_ranks
from overlapviz.core.analysis.time_window import WindowError, clip_to_window
from overlapviz.core.analysis.trace_facts import pipeline_settings
from overlapviz.core.devices.figures import findings_per_device, gpu_title, metrics_per_device
from overlapviz.core.files.trace_format import TraceFormatError
from overlapviz.core.i18n import _
from overlapviz.core.trace.lanes import gpus_of
from overlapviz.core.trace.spans import Trace
from overlapviz.importers.read import read_trace_file
from overlapviz.job.rank_report import trace_report
from overlapviz.run_report import figures_help, gpu_lines, labelled, summary_lines
from overlapviz.session import analyse

UsageFailure = Callable[[str], NoReturn]  # the parser's `error`: one line on stderr, exit 2


def add_analyze(commands: Any) -> None:
    """Add ``overlapviz analyze`` (its parser's `error` is how the command reports bad input)."""
    analyze = commands.add_parser(
        "analyze",
        help=_("print the metrics and findings of a trace file"),
        description=_(
            "Print the metrics and findings of a trace file, as 'overlapviz run' prints them for a run: a PyTorch"
            " profiler trace (prof.export_chrome_trace, tensorboard_trace_handler), an Nsight Systems SQLite export"
            " (nsys export --type sqlite), or one overlapviz wrote (run --trace, the app's Export); gzipped or not,"
            " told apart by content.\n\nThe figures, each 0-100 % where it is a share:\n{figures}"
        ).format(figures=figures_help()),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    analyze.set_defaults(command=analyze_command, usage_error=analyze.error)
    analyze.add_argument(
        "trace",
        type=Path,
        metavar="TRACE",
        nargs="+",
        help=_("the trace file (.json, .ovz, .sqlite, gzipped or not); a folder of per-rank traces, or several"
        " files, for a distributed job: one row per rank, then the job's findings"),
    )
    analyze.add_argument(
        "--workers",
        type=int,
        metavar="N",
        help=_("with several ranks: worker processes that read them (default: as the cores and the memory allow)"),
    )
    analyze.add_argument(
        "--dask", metavar="ADDRESS",
        help=_("with several ranks: read them on the Dask cluster whose scheduler is at ADDRESS (tcp://host:8786;"
        " default: $DASK_SCHEDULER_ADDRESS where set), or 'local' for one of this machine's processes; the workers"
        " need the traces on a file system they share (pip install 'overlapviz[cluster]')"),
    )  # fmt: skip
    analyze.add_argument("--json", action="store_true", help=_("print one JSON object instead of the summary"))
    analyze.add_argument(
        "--window", metavar="START:END|NAME",
        help=_("only this part of the trace: in ms from its start (e.g. 2:4.5, or 10: to the end), or the time of"
        " the NVTX / record_function range of that name (e.g. ProfilerStep#2; NAME#k for its k-th occurrence)"),
    )  # fmt: skip


def analyze_command(args: argparse.Namespace) -> int:
    """Read the trace, cut it to the window, print its figures and findings."""
    fail: UsageFailure = args.usage_error
    if len(args.trace) > 1 or args.trace[0].is_dir():
        return analyze_ranks(args.trace, args)
    if args.dask is not None:
        fail(_("--dask: give a folder or several files (one trace is read in this process)"))
    path = args.trace[0]
    trace = _read(path, fail)
    if args.window is not None:
        try:
            trace = clip_to_window(trace, text_window(trace, args.window).window)
        except WindowError as error:
            fail(_("--window: {error}").format(error=error))
    result = analyse(trace)
    if args.json:
        print(json.dumps(trace_report(str(path), result), indent=2))
    else:
        config = pipeline_settings(trace)
        first = labelled(_("trace"), "{path}", path=str(path))
        print("\n".join([first, *summary_lines(config, result), *_gpu_blocks(trace)]))
    return 0


def _gpu_blocks(trace: Trace) -> list[str]:
    """A block per GPU after the whole trace's, where it has two or more."""
    if len(gpus_of(trace)) < 2:
        return []
    metrics, findings = metrics_per_device(trace), findings_per_device(trace)
    lines: list[str] = []
    for device, figures in metrics.items():
        lines += ["", *gpu_lines(gpu_title(trace.meta, device), figures, findings[device])]
    return lines


def _read(path: Path, fail: UsageFailure) -> Trace:
    try:
        return read_trace_file(path)
    except TraceFormatError as error:
        fail(str(error))
    except OSError as error:
        fail(_("cannot read {path}: {error}").format(path=path, error=error.strerror or error))

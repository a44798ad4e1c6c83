"""``overlapviz analyze TRACE``: the metrics and findings of a trace file, as text or JSON."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

from overlapviz.app.time_window import text_window
from overlapviz.core.analysis.time_window import WindowError, clip_to_window
from overlapviz.core.analysis.trace_facts import pipeline_settings
from overlapviz.core.devices.figures import findings_per_device, gpu_names, gpu_title, metrics_per_device
from overlapviz.core.files.trace_format import TraceFormatError
from overlapviz.core.trace.lanes import gpus_of
from overlapviz.core.trace.spans import Trace
from overlapviz.importers.read import read_trace_file
from overlapviz.run_report import figures_help, finite_json, gpu_lines, json_gpu, json_run, summary_lines
from overlapviz.session import RunResult, analyse

UsageFailure = Callable[[str], NoReturn]


def add_analyze(commands: Any) -> None:
    """Add ``overlapviz analyze`` (its parser's `error` is how the command reports bad input)."""
    analyze = commands.add_parser(
        "analyze",
        help="print the metrics and findings of a trace file",
        description="Print the metrics and findings of a trace file, as 'overlapviz run' prints them for a"
        " run: a PyTorch profiler trace (prof.export_chrome_trace, tensorboard_trace_handler), an Nsight"
        " Systems SQLite export (nsys export --type sqlite), or one overlapviz wrote (run --trace, the app's"
        " Export); gzipped or not, told apart by content.\n\nThe figures, each 0-100 %"
        f" where it is a share:\n{figures_help()}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    analyze.set_defaults(command=analyze_command, usage_error=analyze.error)
    analyze.add_argument(
        "trace", type=Path, metavar="TRACE", help="the trace file (.json, .ovz, .sqlite, gzipped or not)"
    )
    analyze.add_argument("--json", action="store_true", help="print one JSON object instead of the summary")
    analyze.add_argument(
        "--window", metavar="START:END|NAME",
        help="only this part of the trace: in ms from its start (e.g. 2:4.5, or 10: to the end), or the time of"
        " the NVTX / record_function range of that name (e.g. ProfilerStep#2; NAME#k for its k-th occurrence)",
    )  # fmt: skip


def analyze_command(args: argparse.Namespace) -> int:
    """Read the trace, cut it to the window, print its figures and findings."""
    fail: UsageFailure = args.usage_error
    trace = _read(args.trace, fail)
    if args.window is not None:
        try:
            trace = clip_to_window(trace, text_window(trace, args.window).window)
        except WindowError as error:
            fail(f"--window: {error}")
    result = analyse(trace)
    config = pipeline_settings(trace)
    if args.json:
        report = {"trace": str(args.trace), **json_run(config, result), "per_device": _json_gpus(result)}
        print(json.dumps(finite_json(report), indent=2))
    else:
        print("\n".join([f"trace      {args.trace}", *summary_lines(config, result), *_gpu_blocks(trace)]))
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


def _json_gpus(result: RunResult) -> list[dict[str, Any]]:
    """Each GPU's figures and findings, one entry per GPU (one for a trace of one GPU)."""
    trace = result.trace
    names, gpus = gpu_names(trace.meta), gpus_of(trace)
    if len(gpus) == 1:  # its part is the whole trace: the figures already worked out are its own
        return [json_gpu(gpus[0], names.get(gpus[0]), result.metrics, result.findings)]
    metrics, findings = metrics_per_device(trace), findings_per_device(trace)
    return [json_gpu(device, names.get(device), figures, findings[device]) for device, figures in metrics.items()]


def _read(path: Path, fail: UsageFailure) -> Trace:
    try:
        return read_trace_file(path)
    except TraceFormatError as error:
        fail(str(error))
    except OSError as error:
        fail(f"cannot read {path}: {error.strerror or error}")

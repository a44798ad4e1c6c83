"""``overlapviz run``: run the pipeline once (or both of a comparison preset) and report.

`add_run` builds the parser and its help; `run_command` turns the flags and the preset into
configurations, runs them, writes the files asked for and prints the summary or the JSON.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from overlapviz.backends import registry
from overlapviz.commands.errors import UsageError
from overlapviz.commands.outputs import output_paths, outputs_together, write_outputs
from overlapviz.commands.pictures import add_picture_options as _add_picture_options
from overlapviz.commands.pictures import check_picture, draw
from overlapviz.commands.run_remote import add_server_options, remote_json, run_remote
from overlapviz.core.config import (
    DEFAULT_CHUNKS,
    DEFAULT_ITERS,
    DEFAULT_SIZE_BYTES,
    DEFAULT_STREAMS,
    ConfigError,
    PipelineConfig,
    format_size,
)
from overlapviz.core.config.cli_flags import FLAG_FIELDS, add_pipeline_flags, reason
from overlapviz.core.i18n import N_, _
from overlapviz.core.i18n.text_width import wrap
from overlapviz.presets import Preset, get_preset
from overlapviz.run_report import figures_help, json_run, labelled, summary_lines
from overlapviz.session import RunResult, find_backend, run_on

# Formatted as every translated text is, so its literal braces are doubled.
_RUN_HELP = N_("""\
Run the pipeline once and print its metrics and findings.

Settings not given take the preset's values with --preset, else the defaults:
{size}, {chunks} chunks, {streams} streams, pinned, depth, nonblocking,
fma kernel with {iters} iterations, backend auto (the real GPU if usable, else the model).
Flags given next to --preset override the preset's values.

A preset that compares two pipelines runs both (each on its own device when the preset
names one per side; --device runs both on the one given): the summary shows both, --json
prints {{"preset": NAME, "runs": [A, B]}} (each run with its "label"), and --trace/--csv
write one file per run, named FILE-a.json and FILE-b.json (likewise for CSV); --png draws
both in one picture, A above B on one time axis.

The figures, each 0-100 % where it is a share:
{figures}
""")


def _run_help() -> str:
    """The run command's description in the active language, the defaults and the figures filled in."""
    return _(_RUN_HELP).format(
        size=format_size(DEFAULT_SIZE_BYTES), chunks=DEFAULT_CHUNKS, streams=DEFAULT_STREAMS, iters=DEFAULT_ITERS,
        figures=figures_help(),
    )  # fmt: skip


def add_run(commands: Any) -> None:
    """Add ``overlapviz run``."""
    run = commands.add_parser(
        "run",
        help=_("run the pipeline once and print its metrics and findings"),
        description=_run_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    run.set_defaults(command=run_command)
    where = run.add_argument_group(_("where to run"))
    where.add_argument("--backend", choices=("auto", *registry.BACKEND_NAMES), help=_("default: auto"))
    where.add_argument("--device", metavar="PROFILE", help=_("a simulated profile or a GPU (see 'overlapviz devices')"))
    where.add_argument("--preset", metavar="NAME", help=_("start from a preset (see 'overlapviz presets')"))
    add_server_options(where)
    add_pipeline_flags(run)
    output = run.add_argument_group(_("output"))
    output.add_argument("--json", action="store_true", help=_("print one JSON object instead of the summary"))
    output.add_argument("--trace", type=Path, metavar="FILE.json",
                        help=_("write the trace as Chrome trace JSON (for Perfetto), or as columns, which open"
                               " in a fraction of the time, when FILE ends in .ovz"))
    output.add_argument("--csv", type=Path, metavar="FILE", help=_("write the spans as CSV"))
    output.add_argument("--png", type=Path, metavar="FILE.png",
                        help=_("draw the timeline (both, for a comparison preset) as the app exports it, to FILE.png"
                               " or FILE.svg (any other ending is refused)"))
    _add_picture_options(output)


def run_command(args: argparse.Namespace) -> int:
    """Run the pipeline (or both of a comparison preset) and report."""
    preset = get_preset(args.preset) if args.preset else None
    configs, labels = _configs(args, preset)
    backend_name = args.backend or (preset.backend if preset else None) or "auto"
    devices = [args.device or (preset.devices[side] if preset else None) for side in range(len(configs))]
    outputs = {kind: output_paths(getattr(args, kind), len(configs)) for kind in ("trace", "csv")}
    if args.png is not None:
        check_picture(args.png, args.width, args.theme, "--png")
    remote = run_remote(args, configs, devices) if args.server is not None else None
    results = [run.result for run in remote] if remote is not None else _run_here(backend_name, configs, devices)
    with outputs_together():
        written = write_outputs(results, outputs)
        if args.png is not None:
            title = "" if preset is None else f"{preset.lesson}. {preset.title}" if preset.lesson else preset.title
            written.append(draw([r.trace for r in results], labels, args.png, args.width, args.theme, title))
    if args.json:
        report = remote_json(preset, labels, remote) if remote else _json_report(preset, configs, labels, results)
        print(json.dumps(report, indent=2, allow_nan=False))
    else:
        print(_text_report(preset, configs, labels, results, written))
    return 0


def _run_here(backend_name: str, configs: list[PipelineConfig], devices: list[str | None]) -> list[RunResult]:
    backends = [find_backend(backend_name, device) for device in devices]
    return [run_on(backend, config, device) for config, backend, device in zip(configs, backends, devices, strict=True)]


def _configs(args: argparse.Namespace, preset: Preset | None) -> tuple[list[PipelineConfig], list[str]]:
    """The preset's configs (or the default one) with the flags given on the command line applied."""
    given = {field: getattr(args, flag) for flag, field in FLAG_FIELDS.items() if getattr(args, flag) is not None}
    try:
        if preset is None:
            return [PipelineConfig(**given)], [""]
        return [config.replace(**given) for config in preset.configs], list(preset.labels)
    except ConfigError as error:
        if error.field not in given:
            raise
        flag = next(flag for flag, field in FLAG_FIELDS.items() if field == error.field)
        raise UsageError(f"--{flag.replace('_', '-')}: {reason(error)}") from None


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
        preset_line = labelled(_("preset"), "{name}: {title}", name=preset.name, title=preset.title)
        lines += [preset_line, *wrap(preset.text, 88), ""]
    for index, (config, label, result) in enumerate(zip(configs, labels, results, strict=True)):
        if len(configs) > 1:
            lines += [""] * (index > 0) + [f"== {'AB'[index]}: {label} =="]
        lines += summary_lines(config, result)
    lines += [labelled(_("wrote"), "{path}", path=str(path)) for path in written]
    return "\n".join(lines)

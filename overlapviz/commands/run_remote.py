"""``overlapviz run --server URL``: the same run, made on the class's lab GPU instead of here.

The settings go to the lab server as they would run here (the flags over the preset's
``[config]``, both configs of a comparison); each answer comes back with its trace and is
made a run again (`lab.client_result`), so the summary, ``--trace``, ``--csv`` and ``--png``
are what a local run gives. ``--json`` prints the server's own answers.
"""

from __future__ import annotations

import argparse
import os
from typing import Any

from overlapviz.commands.errors import UsageError
from overlapviz.core.config import PipelineConfig
from overlapviz.core.i18n import _
from overlapviz.lab.client import CA_FILE_ENV, LabClient, LabError, LabRunFailed, new_client_id
from overlapviz.lab.client_result import LabRun, lab_run
from overlapviz.presets import Preset

TOKEN_ENV = "OVERLAPVIZ_TOKEN"


def add_server_options(group: Any) -> None:
    """``--server``, ``--token`` and ``--ca-file``, in the run command's "where to run" group."""
    group.add_argument(
        "--server", metavar="URL", help=_("run on the class's lab GPU server at URL (http://HOST:PORT) instead of here")
    )
    group.add_argument(
        "--token",
        metavar="T",
        help=_("the class's join code or token for --server (default: ${variable})").format(variable=TOKEN_ENV),
    )
    group.add_argument(
        "--ca-file",
        metavar="CERT.pem",
        help=_("trust this certificate for an https --server, besides the system's (default: ${variable})").format(
            variable=CA_FILE_ENV
        ),
    )


def run_remote(args: argparse.Namespace, configs: list[PipelineConfig], devices: list[str | None]) -> list[LabRun]:
    """Run each config on the lab server at ``args.server``; the runs as local runs would be.

    Raises
    ------
    UsageError
        No credential, a flag the server decides, or the server refused or could not be reached.
    LabRunFailed
        The run itself failed on the server (a failed run, not bad input).
    """
    if args.backend is not None:
        raise UsageError(_("--backend cannot go with --server: the lab server runs on its own GPU"))
    credential = args.token or os.environ.get(TOKEN_ENV, "")
    if not credential.strip():
        message = _("--server needs the class's join code: give --token T or set {variable}")
        raise UsageError(message.format(variable=TOKEN_ENV))
    try:
        client = LabClient(args.server, credential, new_client_id(), ca_file=args.ca_file)
        return [_run_one(client, config, device) for config, device in zip(configs, devices, strict=True)]
    except LabRunFailed:
        raise
    except LabError as error:
        raise UsageError(str(error)) from None


def _run_one(client: LabClient, config: PipelineConfig, device: str | None) -> LabRun:
    return lab_run(client.run(config.to_dict(), trace=True, device=device), client.url)


def remote_json(preset: Preset | None, labels: list[str], runs: list[LabRun]) -> dict[str, Any]:
    """What ``--json`` prints: the server's answer (without the trace), or a preset's as a local run nests it."""
    answers = [dict(run.answer) for run in runs]
    if preset is None:
        return answers[0]
    for answer, label in zip(answers, labels, strict=True):
        answer["label"] = label
    return {"preset": preset.name, **answers[0]} if len(answers) == 1 else {"preset": preset.name, "runs": answers}

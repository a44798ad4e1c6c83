"""``overlapviz bandwidth``: copy bandwidth by transfer size, as a table or JSON."""

from __future__ import annotations

import argparse
import json
import math
from typing import Any

from overlapviz.backends import registry
from overlapviz.commands.errors import EXIT_FAILED, fail
from overlapviz.core.config import format_size
from overlapviz.core.i18n import _
from overlapviz.core.i18n.text_width import ljust, rjust
from overlapviz.core.number_text import rate_text, significant
from overlapviz.run_report import finite_json
from overlapviz.session import SweepUnsupportedError, sweep_bandwidth


def add_bandwidth(commands: Any) -> None:
    """Add ``overlapviz bandwidth``."""
    bandwidth = commands.add_parser(
        "bandwidth",
        help=_("copy bandwidth by transfer size: H2D and D2H, pinned, pageable and write-combined"),
        description=_("Copy bandwidth by transfer size (64 KiB to 1 GiB), H2D and D2H, from pinned, pageable"
        " and write-combined host memory (on a model, where its profile has write-combined rates): one"
        " copy at a time, on the real GPU or from the model. Prints a table"
        " in GB/s (1e9 bytes/s) with the link's theoretical limit, or JSON."),
    )
    bandwidth.set_defaults(command=bandwidth_command)
    bandwidth.add_argument("--backend", choices=("auto", *registry.BACKEND_NAMES), default="auto",
                           help=_("default: auto (the real GPU if usable, else the model)"))
    bandwidth.add_argument("--device", metavar="D", help=_("a simulated profile or a GPU (see 'overlapviz devices')"))
    bandwidth.add_argument("--json", action="store_true", help=_("print one JSON object instead of the table"))


def bandwidth_command(args: argparse.Namespace) -> int:
    """Sweep copy sizes on the chosen backend and print the bandwidth table (or JSON)."""
    try:
        report = sweep_bandwidth(args.backend, args.device).to_dict()
    except SweepUnsupportedError as error:
        return fail(
            _(
                "the {backend} backend cannot sweep copy bandwidth in this version;"
                " 'overlapviz bandwidth --backend sim' gives the model's"
            ).format(backend=error.backend),
            EXIT_FAILED,
        )
    if args.json:
        print(json.dumps(finite_json(report), indent=2, allow_nan=False))
    else:
        print("\n".join(bandwidth_lines(report)))
    return 0


def bandwidth_lines(report: dict[str, Any]) -> list[str]:
    """The bandwidth report as a table: one row per size, one column per memory kind and direction."""
    simulated, measured = _("{device}, {backend} backend, simulated"), _("{device}, {backend} backend, measured")
    where = simulated if report["simulated"] else measured
    name = report.get("device_name") or report.get("device") or _("default device")
    lines = [ljust(_("device"), 8) + where.format(device=name, backend=report["backend"])]
    peak = report.get("link_peak_gbps")
    if peak:
        link = report.get("link") or _("the link")
        limit = _("{link}: theoretical limit {rate} per direction").format(link=link, rate=rate_text(peak))
        lines.append(ljust(_("link"), 8) + limit)
    points = report["points"]
    columns = list(dict.fromkeys((p["memory"], p["direction"]) for p in points))
    sizes = sorted({int(p["size"]) for p in points})
    value = {(int(p["size"]), p["memory"], p["direction"]): p["gbps"] for p in points}
    titles = [f"{memory} {direction.upper()}" for memory, direction in columns]
    widths = [max(len(title), 8) for title in titles]
    header = [rjust(_("size"), 8), *(f"{t:>{w}}" for t, w in zip(titles, widths, strict=True))]
    lines.append("  ".join(header) + "  (GB/s)")
    for size in sizes:
        cells = [_gbps_cell(value.get((size, *column))) for column in columns]
        lines.append("  ".join([f"{format_size(size):>8}", *(f"{c:>{w}}" for c, w in zip(cells, widths, strict=True))]))
    return lines


def _gbps_cell(value: float | None) -> str:
    return "-" if value is None or not math.isfinite(value) else significant(value)

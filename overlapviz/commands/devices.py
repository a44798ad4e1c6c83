"""``overlapviz devices``: the backends usable here, the GPUs, and the simulated profiles."""

from __future__ import annotations

import argparse
from typing import Any

from overlapviz.backends import registry
from overlapviz.backends.base import DeviceInfo
from overlapviz.core.i18n import _, ncount
from overlapviz.core.i18n.text_width import display_width, ljust
from overlapviz.core.run_errors import BackendError


def add_devices(commands: Any) -> None:
    """Add ``overlapviz devices``."""
    devices = commands.add_parser("devices", help=_("list the backends usable here, the GPU and the models"))
    devices.set_defaults(command=devices_command)


def devices_command(args: argparse.Namespace) -> int:
    """Print the backends (with why one is not usable), the GPUs, and the simulated profiles."""
    statuses = registry.probe_backends()
    backends = [[s.name, _("usable") if s.usable else _("not usable"), s.reason] for s in statuses]
    backends.append(["auto", _("picks {backend}").format(backend=_auto_choice())])
    gpus: list[list[str]] = []
    for status in statuses:
        if status.usable:
            for info in registry.load_backend(status.name).devices():
                if not info.simulated:
                    gpus.append([info.key, _("{device} ({backend} backend)").format(device=_device_line(info),
                                                                                     backend=status.name)])
                    gpus += [["", timing] for timing in _timing_lines(info)]
    lines = [_("backends"), *aligned(backends), _("GPUs"), *(aligned(gpus) if gpus else ["  " + _("none found")])]
    lines += [_("simulated profiles"), *_profile_lines()]
    print("\n".join(lines))
    return 0


def aligned(rows: list[list[str]], indent: str = "  ") -> list[str]:
    """`rows` as lines whose columns line up, each as wide as its longest cell (the last one unpadded)."""
    widths = [max(display_width(row[k]) for row in rows if k < len(row)) for k in range(max(map(len, rows), default=0))]
    return [
        indent + "  ".join([*(ljust(cell, widths[k]) for k, cell in enumerate(row[:-1])), row[-1]]).rstrip()
        for row in rows
    ]


def _auto_choice() -> str:
    try:
        return registry.resolve_backend("auto").name
    except BackendError as error:
        return _("nothing: {error}").format(error=error)


def _profile_lines() -> list[str]:
    try:
        profiles = registry.load_backend("sim").devices()
    except BackendError as error:
        return ["  " + _("not available: {error}").format(error=error)]
    return aligned([[info.key, _device_line(info)] for info in profiles])


def _timing_lines(info: DeviceInfo) -> list[str]:
    """Which timing source a GPU's runs will use, and why not CUPTI when it is not."""
    timing = info.facts.get("timing")
    if not timing:
        return []
    reason = info.facts.get("timing_reason")
    said = _("timing: {timing} ({reason})") if reason else _("timing: {timing}")
    return [said.format(timing=timing, reason=reason)]


def _device_line(info: DeviceInfo) -> str:
    engines = info.facts.get("copy_engines")
    if engines is None:
        return info.name
    engines = int(engines)
    if "nvlink_links" in info.facts:  # a profile of two GPUs: its [peer] link's facts
        return ncount(
            "{name}, {count} copy engine per GPU", "{name}, {count} copy engines per GPU", engines, name=info.name
        )
    return ncount("{name}, {count} copy engine", "{name}, {count} copy engines", engines, name=info.name)

"""``overlapviz devices``: the backends usable here, the GPUs, and the simulated profiles."""

from __future__ import annotations

import argparse
from typing import Any

from overlapviz.backends import registry
from overlapviz.backends.base import DeviceInfo
from overlapviz.core.number_text import count_text
from overlapviz.core.run_errors import BackendError


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

"""What machine a benchmark ran on, and one way to write its result."""

from __future__ import annotations

import datetime
import json
import os
import platform
from pathlib import Path
from typing import Any

from benchmarks.steady import LoadWatch
from overlapviz.core.files.atomic_write import atomic_write_text

RESULTS = Path(__file__).resolve().parent / "results"


def machine() -> dict[str, Any]:
    """CPU, cores, OS and Python of this machine."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"cpu": cpu, "cores": os.cpu_count(), "os": platform.platform(), "python": platform.python_version()}


def write_result(
    name: str, result: dict[str, Any], directory: Path = RESULTS, announce: bool = True, load: LoadWatch | None = None
) -> Path:
    """Write <directory>/<name>.json (results/ by default) with the machine, its load and today's date; its path.

    `load` is the watch started with the benchmark; without one, the load is the one at the end.

    The file is replaced atomically, so a benchmark that rewrites it as it goes and is then
    stopped leaves the last whole version.
    """
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{name}.json"
    record = {"date": datetime.date.today().isoformat(), "machine": machine(),
              "load": (load or LoadWatch()).record(), **result}  # fmt: skip
    atomic_write_text(path, json.dumps(record, indent=1) + "\n")
    if announce:
        print(f"wrote {path}")
    return path

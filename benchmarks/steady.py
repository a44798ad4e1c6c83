"""Timings a benchmark can stand behind: repeated until they agree, with the machine's load beside them.

The machine a benchmark runs on is often shared, so one timing says little. `repeat_until_steady`
takes samples until every timing it watches has a spread, ``(max - min) / median``, under
`SPREAD_GOAL`, or until `max_repeats`; a result that never settled says so (``spread_ok:
false``) rather than passing its median off as the truth. `LoadWatch` notes the load average
when a benchmark starts and when it writes its result, and the CPU time the machine's
hypervisor gave to other machines meanwhile (a virtual machine's "steal"), and
`benchmarks.machine.write_result` puts them in every result file. `add_options` gives every
CPU benchmark the same ``--out``, ``--tiny`` and ``--max-repeats``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SPREAD_GOAL = 0.10  # (max - min) / median of the samples
MIN_REPEATS = 3
MAX_REPEATS = 10
TINY_REPEATS = 2  # --tiny checks that the benchmark runs, not what it measures
BUSY_SHARE = 0.75  # a load average over this share of the cores: the timings wait for other work
BUSY_STOLEN_SHARE = 0.01  # this share of the cores' time taken by the hypervisor: the timings wait for it


def spread(values: list[float]) -> float:
    """``(max - min) / median`` of `values`; 0 for fewer than two, inf when the median is 0 but they differ."""
    if len(values) < 2:
        return 0.0
    middle = statistics.median(values)
    width = max(values) - min(values)
    if middle == 0:
        return 0.0 if width == 0 else float("inf")
    return width / abs(middle)


@dataclass
class Steady:
    """The samples of one timing and whether they agree."""

    values: list[float] = field(default_factory=list)
    goal: float = SPREAD_GOAL

    @property
    def median(self) -> float:
        """The median sample."""
        return statistics.median(self.values)

    @property
    def spread(self) -> float:
        """``(max - min) / median``."""
        return spread(self.values)

    @property
    def ok(self) -> bool:
        """Whether the spread is under the goal."""
        return self.spread < self.goal

    def summary(self, digits: int = 4) -> dict[str, Any]:
        """Median, best, worst, every sample, the spread and whether it is under the goal."""
        width = self.spread
        return {
            "median": round(self.median, digits),
            "best": round(min(self.values), digits),
            "worst": round(max(self.values), digits),
            "samples": [round(v, digits) for v in self.values],
            "repeats": len(self.values),
            "spread": round(width, 3) if width != float("inf") else "inf",
            "spread_goal": self.goal,
            "spread_ok": self.ok,
        }


def repeat_until_steady(
    sample: Callable[[], Mapping[str, float]],
    min_repeats: int = MIN_REPEATS,
    max_repeats: int = MAX_REPEATS,
    goal: float = SPREAD_GOAL,
) -> dict[str, Steady]:
    """Call `sample` until each timing it returns is steady (or `max_repeats` times); each timing's samples.

    `sample` returns the same names every call; a benchmark that keeps more than the timings
    (sizes, counts) keeps it itself, in a closure.
    """
    found: dict[str, Steady] = {}
    for done in range(1, max(1, max_repeats) + 1):
        for name, value in sample().items():
            found.setdefault(name, Steady(goal=goal)).values.append(float(value))
        if done >= min(min_repeats, max_repeats) and all(steady.ok for steady in found.values()):
            break
    return found


def all_steady(found: Mapping[str, Steady]) -> dict[str, Any]:
    """Whether every timing settled, and the widest spread: the fields every result file carries."""
    widest = max((steady.spread for steady in found.values()), default=0.0)
    return {
        "spread_ok": all(steady.ok for steady in found.values()),
        "widest_spread": round(widest, 3) if widest != float("inf") else "inf",
        "spread_goal": next(iter(found.values())).goal if found else SPREAD_GOAL,
    }


def verdict(found: Mapping[str, Steady]) -> str:
    """A line saying whether the repeats agreed, for the benchmark's printout."""
    loose = {name: steady.spread for name, steady in found.items() if not steady.ok}
    repeats = max((len(steady.values) for steady in found.values()), default=0)
    if not loose:
        return f"steady: every timing within a {SPREAD_GOAL:.0%} spread after {repeats} repeats"
    widest = ", ".join(f"{name} {width:.0%}" for name, width in loose.items())
    return f"NOT steady after {repeats} repeats (spread over {SPREAD_GOAL:.0%}): {widest}"


class Stolen:
    """The CPU time the hypervisor took from this machine since this was made (None where Linux does not say)."""

    def __init__(self) -> None:
        self._at_start = stolen_cpu_s()
        self._began = time.monotonic()

    def seconds(self) -> float | None:
        """CPU seconds taken, all cores together."""
        now = stolen_cpu_s()
        return None if now is None or self._at_start is None else now - self._at_start

    def share(self) -> float | None:
        """The share of the cores' time taken: above `BUSY_STOLEN_SHARE`, the timings meanwhile waited for it."""
        taken = self.seconds()
        return None if taken is None else taken / max(1e-9, (time.monotonic() - self._began) * (os.cpu_count() or 1))


class LoadWatch:
    """The load average and the stolen CPU time when a benchmark started; `record` adds those at its end."""

    def __init__(self) -> None:
        self.at_start = os.getloadavg()
        self._stolen = Stolen()

    def record(self) -> dict[str, Any]:
        """Cores, the load averages at the start and now, the CPU time stolen meanwhile, and whether it was busy.

        The load averages are the 1, 5 and 15 minutes'. On a virtual machine the host may run
        other machines on this one's cores: that time is "stolen" (Linux counts it,
        `stolen_cpu_s`), and a timing that spans it is stretched as by a load the load average
        does not show.
        """
        at_end = os.getloadavg()
        cores = os.cpu_count() or 1
        stolen, stolen_share = self._stolen.seconds(), self._stolen.share()
        return {
            "cpus": cores,
            "load_average_1_5_15_min": {"at_start": [round(x, 2) for x in self.at_start],
                                        "at_end": [round(x, 2) for x in at_end]},
            "stolen_cpu_s": None if stolen is None else round(stolen, 2),
            "stolen_share": None if stolen_share is None else round(stolen_share, 4),
            "busy": max(self.at_start[0], at_end[0]) > BUSY_SHARE * cores
                    or (stolen_share is not None and stolen_share > BUSY_STOLEN_SHARE),
        }  # fmt: skip


def stolen_cpu_s() -> float | None:
    """CPU seconds, all cores together, that the hypervisor has given to others since boot (None: not Linux)."""
    try:
        with open("/proc/stat", encoding="ascii") as stat:
            fields = stat.readline().split()  # "cpu" user nice system idle iowait irq softirq steal ...
        return int(fields[8]) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


def add_options(parser: argparse.ArgumentParser, results: Path) -> None:
    """``--out`` (default `results`), ``--tiny`` and ``--max-repeats``, the same in every CPU benchmark."""
    parser.add_argument("--out", type=Path, default=results, help=f"the folder to write the result into ({results})")
    parser.add_argument("--tiny", action="store_true", help="a tiny size and few repeats: checks that it runs")
    parser.add_argument("--max-repeats", type=int, help=f"repeat at most this often (default {MAX_REPEATS})")


def max_repeats(args: argparse.Namespace, default: int = MAX_REPEATS) -> int:
    """The cap on repeats: ``--max-repeats``, else `TINY_REPEATS` with ``--tiny``, else `default`."""
    if args.max_repeats is not None:
        return max(1, int(args.max_repeats))
    return TINY_REPEATS if args.tiny else default

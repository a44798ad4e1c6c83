"""How long the GUI thread goes without handling an event while the window opens a file (goal: 200 ms at most).

The heartbeat of `benchmarks.gui_heartbeat` (a 10 ms QTimer on the GUI thread) ticks while
the window, offscreen, opens each of three files through File > Open, from the request until
the file is on show plus a repaint. The files, made in a temporary folder before the clock
starts, are the kinds that froze the window:

- an Nsight Systems export whose kernel, thread and NVTX names are 1 MB strings (a real
  export of tests/data/nsys with its names lengthened);
- overlapviz's own trace of 10^6 ops (three simulated runs back to back, as gui_heartbeat's);
- an export of 3 x 10^6 rows shaped like a PyTorch profile (`benchmarks.open_profile`).

Each file opens in a new window, and whole passes repeat until each file's longest gap agrees
(`benchmarks.steady`). Prints the longest gap per file and its ratio to the goal, and writes
benchmarks/results/open_heartbeat.json (or into ``--out``) with the machine and its load.
`--profile` prints where the GUI thread spent each open; `--locks` names the calls off the GUI
thread that held Python's lock longest (the hook slows those threads).

    python -m benchmarks.open_heartbeat [--only KIND ...] [--profile] [--locks] [--tiny] [--out DIR]
"""

from __future__ import annotations

import argparse
import cProfile
import gzip
import io
import os
import pstats
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.gui_heartbeat import BIG_CHUNKS, TINY_CHUNKS, Heartbeat, StepTimes, run_loop_until, write_big_trace
from benchmarks.heartbeat_locks import LongCalls
from benchmarks.machine import RESULTS, write_result
from benchmarks.steady import LoadWatch, add_options, all_steady, max_repeats, repeat_until_steady, verdict

GOAL_MS = 200.0
NSYS_EXPORT = Path(__file__).resolve().parents[1] / "tests" / "data" / "nsys" / "nvfuser-2024.6-nvtx.sqlite.gz"
LONG_NAME_BYTES = 1_000_000
TINY_NAME_BYTES = 10_000
EXPORT_ROWS = 3_000_000
TINY_ROWS = 3_000
# the names made long: every kernel's, every thread's and every NVTX range's
LONG_NAMES = """
UPDATE StringIds SET value = value || substr(hex(zeroblob(:half)), 1, :length)
 WHERE id IN (SELECT demangledName FROM CUPTI_ACTIVITY_KIND_KERNEL
              UNION SELECT shortName FROM CUPTI_ACTIVITY_KIND_KERNEL
              UNION SELECT nameId FROM ThreadNames UNION SELECT textId FROM NVTX_EVENTS WHERE textId IS NOT NULL)
"""


def nsys_with_long_names(path: Path, length: int) -> Path:
    """A real Nsight Systems export whose names are `length` characters long, written to `path`."""
    connection = sqlite3.connect(":memory:")
    try:
        connection.deserialize(gzip.decompress(NSYS_EXPORT.read_bytes()))
        connection.execute(LONG_NAMES, {"half": (length + 1) // 2, "length": length})
        connection.commit()
        path.write_bytes(connection.serialize())
    finally:
        connection.close()
    return path


def pytorch_like_export(path: Path, rows: int) -> int:
    """A trace of about `rows` rows shaped like a PyTorch profile, written to `path`; its row count."""
    from benchmarks.open_profile import pytorch_like_trace
    from overlapviz.core.files.trace_export import export_chrome

    trace = pytorch_like_trace(rows)
    export_chrome(trace, path)
    return len(trace)


FILE_NAMES = {
    "nsys_1mb_names": "long-names.sqlite",
    "own_trace_1e6_ops": "million-ops.json",
    "export_3e6_rows": "three-million-rows.json",
}


def make_files(folder: Path, tiny: bool, kinds: list[str]) -> dict[str, Path]:
    """The files of `kinds`, each written by a process of its own so that this one starts as small as the app."""
    files = {kind: folder / FILE_NAMES[kind] for kind in kinds}
    for kind, path in files.items():
        command = [sys.executable, "-m", "benchmarks.open_heartbeat", "--make", kind, str(path)]
        subprocess.run([*command, *(["--tiny"] if tiny else [])], check=True, capture_output=True, text=True)
    return files


def _make(kind: str, path: Path, tiny: bool) -> None:
    if kind == "nsys_1mb_names":
        nsys_with_long_names(path, TINY_NAME_BYTES if tiny else LONG_NAME_BYTES)
    elif kind == "own_trace_1e6_ops":
        write_big_trace(path, TINY_CHUNKS if tiny else BIG_CHUNKS, 0)
    else:
        pytorch_like_export(path, TINY_ROWS if tiny else EXPORT_ROWS)


def open_in_new_window(
    path: Path, steps: StepTimes, profile: bool = False, long_calls: LongCalls | None = None
) -> dict[str, Any]:
    """The gaps while a new window opens `path`, its longest GUI handler, the spans it showed, and what held the lock.

    With `long_calls` (installed), the calls off the GUI thread that held Python's lock longest.
    """
    from PySide6.QtCore import QSettings

    from overlapviz._qt.main_window import MainWindow
    from overlapviz.app.garbage_collection import settle_heap

    settings = QSettings(str(path.parent / "bench.ini"), QSettings.Format.IniFormat)
    window = MainWindow(settings, live=False)
    window.resize(1600, 900)
    window.show()
    settle_heap()
    window.request_run()
    run_loop_until(window.timeline_drawn, "the first run")
    heartbeat = Heartbeat()
    profiler = cProfile.Profile() if profile else None
    steps.take()
    began = time.perf_counter()
    if profiler is not None:
        profiler.enable()
    window.files.open(path)
    opened = run_loop_until(window.files.open_finished, f"opening {path.name}")
    if profiler is not None:
        profiler.disable()
        _print_profile(profiler, path.name)
    gaps = heartbeat.gaps_ms(began, time.perf_counter())
    heartbeat.stop()
    held = [] if long_calls is None else long_calls.take(heartbeat.ticks)
    if opened != [True]:
        raise RuntimeError(f"{path.name} did not open: {window.banner.message()}")
    trace = window.current_trace()
    window.close()
    step_ms, step = steps.take()
    return {
        "gaps": gaps,
        "handler_ms": step_ms,
        "handler": step,
        "spans": 0 if trace is None else len(trace),
        "held_the_lock": held,
    }


def _print_profile(profiler: cProfile.Profile, name: str) -> None:
    text = io.StringIO()
    pstats.Stats(profiler, stream=text).sort_stats("cumulative").print_stats(30)
    print(f"--- where the GUI thread spent opening {name} ---\n{text.getvalue()}")


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--profile", action="store_true", help="print where the GUI thread spent each open")
    parser.add_argument("--only", nargs="+", choices=list(FILE_NAMES), default=list(FILE_NAMES),
                        help="open only these kinds of file")  # fmt: skip
    parser.add_argument("--locks", action="store_true", help="name what held the lock off the GUI thread")
    parser.add_argument("--make", nargs=2, metavar=("KIND", "PATH"), help=argparse.SUPPRESS)  # the file-making child
    add_options(parser, RESULTS)
    return parser.parse_args()


def main() -> None:
    load = LoadWatch()  # other work on the machine stretches every gap
    args = _arguments()
    if args.make is not None:
        _make(args.make[0], Path(args.make[1]), args.tiny)
        return
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from overlapviz._qt.app import ensure_app

    print("making the files ...", flush=True)
    files = make_files(Path(tempfile.mkdtemp(prefix="overlapviz-open-heartbeat-")), args.tiny, args.only)
    ensure_app()
    steps = StepTimes()
    long_calls = LongCalls() if args.locks else None
    if long_calls is not None:
        long_calls.install()
    records: dict[str, dict[str, Any]] = {}

    def one_pass() -> dict[str, float]:
        for kind, path in files.items():
            one = open_in_new_window(path, steps, args.profile, long_calls)
            record = records.setdefault(kind, {"max_gap_ms": 0.0, "handler_ms": 0.0, "handler": "", "spans": 0})
            record["max_gap_ms"] = round(max(record["max_gap_ms"], max(one["gaps"])), 1)
            if one["handler_ms"] > record["handler_ms"]:
                record["handler_ms"], record["handler"] = round(one["handler_ms"], 1), one["handler"]
            record["spans"] = one["spans"]
            if long_calls is not None:
                record["held_the_lock_off_the_gui_thread"] = one["held_the_lock"]
            record["bytes"] = path.stat().st_size
        return {kind: record["max_gap_ms"] for kind, record in records.items()}

    found = repeat_until_steady(one_pass, max_repeats=max_repeats(args, 3))
    for kind, record in records.items():
        record["max_gap_per_pass_ms"] = found[kind].summary(1)
        word = "within" if record["max_gap_ms"] <= GOAL_MS else "OVER"
        print(f"{kind:20} {record['spans']:>9,} spans, {record['bytes'] / 1e6:7.1f} MB: max gap"
              f" {record['max_gap_ms']:7.1f} ms ({record['max_gap_ms'] / GOAL_MS:.2f}x the goal, {word});"
              f" longest GUI handler {record['handler_ms']:.1f} ms ({record['handler']})")  # fmt: skip
        for spent, what in record.get("held_the_lock_off_the_gui_thread", []):
            print(f"{'':22}{spent:.0f} ms {what}")
    print(verdict(found))
    write_result("open_heartbeat", {
        "what": "the longest gap between the ticks of a 10 ms QTimer on the GUI thread while a new window"
                " (offscreen, sim backend) opens each file through File > Open, until it is on show",
        "goal_ms": GOAL_MS,
        **all_steady(found),
        "files": records,
    }, args.out, load=load)  # fmt: skip


if __name__ == "__main__":
    main()

"""How long the GUI thread goes without handling an event while the app works (goal: 50 ms at most).

A 10 ms QTimer on the GUI thread notes when it fires. Between two ticks the GUI thread was
busy, or waited for Python's lock while another thread held it: either way the window could
not repaint or answer the mouse. The app runs offscreen on the simulated H200, through the
window's own paths (Run, File > Open, File > Export PNG), in four scenarios:

- 30 runs of 4096 chunks, one after another, each waited for until it is drawn;
- one run of 65,536 chunks;
- opening a trace file of more than 10^6 spans (three 65,536-chunk model runs back to back,
  written with `core.files.trace_export.export_chrome` before the clock starts);
- a 1920-px PNG export of that trace.

Each scenario runs from the request until its result is on show (or written), plus
`SETTLE_S` for the repaint that follows. Whole passes, each in a new window, repeat until
each scenario's longest gap agrees from pass to pass (`benchmarks.steady`). Prints the
longest gap and the 99th percentile per scenario with their ratio to the goal, and writes
benchmarks/results/gui_heartbeat.json (or into ``--out``) with the machine, its load and the
date, and the CPU time the hypervisor took during each pass (a virtual machine's steal
stretches that pass's gaps). Each scenario also gets the longest time the GUI thread spent
in one of the app's own handlers (showing a result, a step of a picture, a repaint): a gap
much longer than that was another thread holding Python's lock, or the host's other work.
`--locks` names those holders: calls into C of 20 ms or more on the run and file threads
(the hook slows those threads). `--profile` prints, per scenario, where the GUI thread spent
its time (cProfile on the GUI thread only).

    python -m benchmarks.gui_heartbeat [--runs 30] [--locks] [--profile] [--trace-file PATH] [--tiny] [--out DIR]
"""

from __future__ import annotations

import argparse
import cProfile
import functools
import io
import itertools
import os
import pstats
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.heartbeat_locks import LongCalls
from benchmarks.machine import RESULTS, write_result
from benchmarks.steady import (
    LoadWatch,
    Stolen,
    add_options,
    all_steady,
    max_repeats,
    repeat_until_steady,
    verdict,
)

GOAL_MS = 50.0
TICK_MS = 10
SETTLE_S = 0.3  # after the result is on show: the repaint of the new picture
TIMEOUT_S = 600.0
SPANS_WANTED = 1_000_000
BIG_CHUNKS = 65_536
TINY_CHUNKS = 256  # --tiny: the big run and each of the file's three runs


class Heartbeat:
    """A 10 ms timer on the GUI thread and the times it fired."""

    def __init__(self) -> None:
        from PySide6.QtCore import Qt, QTimer

        self.ticks: list[float] = []
        self._timer = QTimer()
        self._timer.setTimerType(Qt.TimerType.PreciseTimer)
        self._timer.setInterval(TICK_MS)
        self._timer.timeout.connect(lambda: self.ticks.append(time.perf_counter()))
        self._timer.start()

    def gaps_ms(self, start: float, end: float) -> list[float]:
        """The gaps between ticks from `start` to `end`, the edges of the window included."""
        inside = [start, *(t for t in self.ticks if start < t < end), end]
        return [(b - a) * 1e3 for a, b in itertools.pairwise(inside)]

    def stop(self) -> None:
        """Stop the timer."""
        self._timer.stop()


def run_loop_until(signal: Any, what: str) -> list[Any]:
    """Run the event loop (as the app's own) until `signal` fires, then `SETTLE_S` more; its arguments."""
    from PySide6.QtCore import QEventLoop, QTimer

    loop, fired = QEventLoop(), []

    def on_signal(*args: Any) -> None:
        if not fired:
            fired.append(args)
            QTimer.singleShot(round(SETTLE_S * 1e3), loop.quit)

    signal.connect(on_signal)
    guard = QTimer(singleShot=True, interval=round(TIMEOUT_S * 1e3))
    guard.timeout.connect(loop.quit)
    guard.start()
    loop.exec()
    guard.stop()
    signal.disconnect(on_signal)
    if not fired:
        raise TimeoutError(f"{what} did not finish within {TIMEOUT_S:.0f} s")
    return list(fired[0])


def big_trace_file(folder: Path, chunks: int = BIG_CHUNKS) -> Path:
    """Three 65,536-chunk model runs back to back as one trace file; its path.

    Made by a process of its own, so that this one starts as small as the app does.
    """
    path = folder / "million-spans.json"
    subprocess.run(
        [sys.executable, "-m", "benchmarks.gui_heartbeat", "--make-trace", str(path), "--chunks", str(chunks)],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    return path


def write_big_trace(path: Path, chunks: int = BIG_CHUNKS, spans_wanted: int = SPANS_WANTED) -> int:
    """Write the trace of `big_trace_file` to `path`; returns its row count."""
    from overlapviz.core.config import PipelineConfig
    from overlapviz.core.files.trace_export import export_chrome
    from overlapviz.core.trace.columns import COLUMNS
    from overlapviz.core.trace.spans import Trace
    from overlapviz.session import run_pipeline

    runs = [run_pipeline(PipelineConfig(chunks=chunks), "sim", "h200").trace for _ in range(3)]
    names = runs[0].names
    if any(run.names != names for run in runs):
        raise RuntimeError("the runs name their spans differently; cannot join them")
    columns: dict[str, list[Any]] = {name: [] for name in COLUMNS}
    offset_ns, offset_rows, offset_chunks = 0, 0, 0
    for run in runs:
        for name in COLUMNS:
            values = np.array(run[name])
            if name.endswith("_ns"):
                values[values >= 0] += offset_ns
            elif name == "op":
                values[values >= 0] += offset_rows
            elif name == "chunk":
                values[values >= 0] += offset_chunks
            columns[name].append(values)
        offset_ns += int(run["end_ns"].max()) + 1_000_000
        offset_rows += len(run)
        offset_chunks += chunks
    trace = Trace({name: np.concatenate(parts) for name, parts in columns.items()}, names, runs[0].meta)
    if len(trace) < spans_wanted:
        raise RuntimeError(f"the joined trace has {len(trace)} spans, fewer than {spans_wanted}")
    export_chrome(trace, path)
    return len(trace)


class StepTimes:
    """The longest stretch the GUI thread spent in one of the app's own handlers, per scenario.

    The handlers are wrapped before the window exists (signal connections take the wrapper,
    which must keep the handler's name, or Qt would call it on the emitting thread):
    a run or file result being shown, a step of a picture, a new window onto the timeline,
    a repaint of a plot. A gap much longer than the longest handler was another thread
    holding Python's lock.
    """

    def __init__(self) -> None:
        import pyqtgraph as pg

        from overlapviz._qt.files.background import BackgroundTasks
        from overlapviz._qt.files.stepwise import Stepwise
        from overlapviz._qt.timeline.widget import TimelineWidget
        from overlapviz._qt.worker import RunController

        self.longest: tuple[float, str] = (0.0, "")
        self.off_gui_thread: set[str] = set()  # handlers called elsewhere: the measurement is not the app's
        self._depth = 0
        handlers = [
            (RunController, "_on_done", "a run's result shown"),
            (BackgroundTasks, "_on_done", "a file task's outcome shown"),
            (Stepwise, "_step", "a step of a picture"),
            (TimelineWidget, "_apply_window", "the timeline culled for its window"),
            (pg.GraphicsView, "paintEvent", "a plot repainted"),
        ]
        for owner, name, what in handlers:
            setattr(owner, name, self._timed(getattr(owner, name), what))

    def take(self) -> tuple[float, str]:
        """The longest handler since the last call, in ms, and what it was."""
        longest, self.longest = self.longest, (0.0, "")
        return longest

    def _timed(self, handler: Callable[..., Any], what: str) -> Callable[..., Any]:
        # Qt calls a wrapper that keeps the slot's name on its object's thread; a nameless
        # function connected in its place would be called on the thread that emits
        @functools.wraps(handler)
        def timed(*args: Any) -> Any:
            if threading.current_thread() is not threading.main_thread():
                self.off_gui_thread.add(what)
            self._depth += 1
            began = time.perf_counter()
            try:
                return handler(*args)
            finally:
                self._depth -= 1
                spent = (time.perf_counter() - began) * 1e3
                if self._depth == 0 and spent > self.longest[0]:
                    self.longest = (spent, what)

        return timed


def measure(
    trace_path: Path,
    runs: int,
    steps: StepTimes,
    long_calls: LongCalls | None = None,
    profile: bool = False,
    big_chunks: int = BIG_CHUNKS,
) -> dict[str, dict[str, Any]]:
    """Every scenario's gaps, longest GUI handler (and with `long_calls`, what held the lock), in a new window."""
    from PySide6.QtCore import QSettings

    from overlapviz._qt.export.export_view import ExportOptions
    from overlapviz._qt.main_window import MainWindow
    from overlapviz.app.garbage_collection import settle_heap
    from overlapviz.core.config import PipelineConfig
    from overlapviz.session import run_pipeline

    folder = trace_path.parent
    run_function = run_pipeline if long_calls is None else long_calls.install()
    settings = QSettings(str(folder / "bench.ini"), QSettings.Format.IniFormat)
    window = MainWindow(settings, live=False, run_function=run_function)
    window.resize(1600, 900)
    window.show()
    settle_heap()  # as the app does once its window is up
    window.request_run()
    run_loop_until(window.timeline_drawn, "the first run")
    heartbeat = Heartbeat()
    found: dict[str, dict[str, Any]] = {}

    def scenario(name: str, start: Callable[[], object], signal: Any) -> list[Any]:
        profiler = cProfile.Profile() if profile else None
        steps.take()
        if long_calls is not None:
            long_calls.take([])
        began = time.perf_counter()
        if profiler is not None:
            profiler.enable()
        start()
        fired = run_loop_until(signal, name)
        if profiler is not None:
            profiler.disable()
            text = io.StringIO()
            pstats.Stats(profiler, stream=text).sort_stats("cumulative").print_stats(25)
            print(f"--- where the GUI thread spent {name} ---\n{text.getvalue()}")
        record = found.setdefault(
            name, {"gaps": [], "longest_gui_step": (0.0, ""), "long_calls": [], "worst_at": (0.0, 0.0, 0.0)}
        )
        ended = time.perf_counter()
        gaps = heartbeat.gaps_ms(began, ended)
        record["gaps"].extend(gaps)
        worst = max(range(len(gaps)), key=gaps.__getitem__)
        record["worst_at"] = max(record["worst_at"], (gaps[worst], sum(gaps[:worst]) / 1e3, ended - began))
        record["longest_gui_step"] = max(record["longest_gui_step"], steps.take())
        if long_calls is not None:
            record["long_calls"] = sorted([*record["long_calls"], *long_calls.take(heartbeat.ticks)], reverse=True)[:5]
        return fired

    for i in range(runs):
        config = PipelineConfig(chunks=4096, streams=4 if i % 2 == 0 else 3)
        scenario("runs_4096", lambda c=config: _run(window, c), window.timeline_drawn)
    scenario("run_65536", lambda: _run(window, PipelineConfig(chunks=big_chunks)), window.timeline_drawn)
    if scenario("open_1e6_spans", lambda: window.files.open(trace_path), window.files.open_finished) != [True]:
        raise RuntimeError(f"the trace file did not open: {window.banner.message()}")
    opened = window.current_trace()
    found["open_1e6_spans"]["spans"] = 0 if opened is None else len(opened)
    png = folder / "export.png"
    export = lambda: window.files.export_png(png, ExportOptions(width=1920))  # noqa: E731
    if scenario("export_png_1e6_spans", export, window.files.write_finished) != [True]:
        raise RuntimeError(f"the export failed: {window.banner.message()}")
    heartbeat.stop()
    window.close()
    return found


def _run(window: Any, config: Any) -> None:
    window.model.set_config(config)
    window.request_run()


def summary(record: dict[str, Any]) -> dict[str, Any]:
    """Longest gap, 99th percentile and median in ms; the GUI thread's longest handler; long calls elsewhere."""
    gaps = record["gaps"]
    p99 = statistics.quantiles(gaps, n=100, method="inclusive")[-1] if len(gaps) >= 2 else max(gaps)
    worst = max(gaps)
    step_ms, step = record["longest_gui_step"]
    _gap, worst_at_s, lasted_s = record["worst_at"]
    return {
        "max_gap_ms": round(worst, 1),
        "p99_gap_ms": round(p99, 1),
        "median_gap_ms": round(statistics.median(gaps), 1),
        "ticks": len(gaps),
        "max_ratio_to_goal": round(worst / GOAL_MS, 2),
        "p99_ratio_to_goal": round(p99 / GOAL_MS, 2),
        "max_gap_began_s": round(worst_at_s, 3),  # after the scenario's start ...
        "scenario_s": round(lasted_s, 3),  # ... of the one it was in, which lasted this long
        "longest_gui_handler_ms": round(step_ms, 1),
        "longest_gui_handler": step,
    }


def merged(records: list[dict[str, dict[str, Any]]]) -> dict[str, dict[str, Any]]:
    """Each scenario's record over several measurements: every gap, the longest handler, the worst gap."""
    together: dict[str, dict[str, Any]] = {}
    for record in records:
        for name, one in record.items():
            into = together.setdefault(name, {**one, "gaps": []})
            into["gaps"] = [*into["gaps"], *one["gaps"]]
            into["longest_gui_step"] = max(into["longest_gui_step"], one["longest_gui_step"])
            into["worst_at"] = max(into["worst_at"], one["worst_at"])
    return together


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=30, help="runs of 4096 chunks (default 30)")
    parser.add_argument("--profile", action="store_true", help="print where the GUI thread spent each scenario")
    parser.add_argument(
        "--locks", action="store_true", help="also name what held the lock off the GUI thread, in a watched pass"
    )
    parser.add_argument("--trace-file", type=Path, help="open this trace file of 10^6 spans (default: make one)")
    parser.add_argument("--make-trace", type=Path, help=argparse.SUPPRESS)  # the child that writes the big trace
    parser.add_argument("--chunks", type=int, default=BIG_CHUNKS, help=argparse.SUPPRESS)  # the child's runs
    add_options(parser, RESULTS)
    return parser.parse_args()


def main() -> None:
    load = LoadWatch()  # other work on the machine stretches every gap
    args = _arguments()
    if args.make_trace is not None:
        print(write_big_trace(args.make_trace, args.chunks, 0 if args.chunks < BIG_CHUNKS else SPANS_WANTED))
        return
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from overlapviz._qt.app import ensure_app

    runs, big_chunks = (1, TINY_CHUNKS) if args.tiny else (args.runs, BIG_CHUNKS)
    spans_wanted = 0 if args.tiny else SPANS_WANTED
    folder = Path(tempfile.mkdtemp(prefix="overlapviz-heartbeat-"))
    if args.trace_file is not None:
        trace_path = args.trace_file
    else:
        print(f"making the trace file of three {big_chunks}-chunk runs ...", flush=True)
        trace_path = big_trace_file(folder, big_chunks)
    ensure_app()
    steps = StepTimes()
    records: list[dict[str, dict[str, Any]]] = []
    stolen_per_pass: list[float | None] = []  # a pass the hypervisor took CPU from is stretched by it

    def one_pass() -> dict[str, float]:
        taken = Stolen()
        records.append(measure(trace_path, runs, steps, None, args.profile, big_chunks))
        seconds = taken.seconds()
        stolen = None if seconds is None else round(seconds, 2)
        stolen_per_pass.append(stolen)
        gaps = {name: max(record["gaps"]) for name, record in records[-1].items()}
        print(f"pass {len(records)}: " + ", ".join(f"{name} {gap:.1f} ms" for name, gap in gaps.items())
              + f"; CPU taken by the hypervisor {stolen} s", flush=True)  # fmt: skip
        return gaps

    found = repeat_until_steady(one_pass, max_repeats=max_repeats(args, 3))
    spans = records[-1]["open_1e6_spans"]["spans"]
    if spans < spans_wanted:
        raise RuntimeError(f"{trace_path} holds {spans} spans, fewer than {spans_wanted}")
    results = {name: summary(record) for name, record in merged(records).items()}
    for name, numbers in results.items():
        numbers["max_gap_per_pass_ms"] = found[name].summary(1)
    if steps.off_gui_thread:
        raise RuntimeError(f"called off the GUI thread: {', '.join(sorted(steps.off_gui_thread))}")
    if args.locks:
        _name_the_holders(trace_path, results, steps)
    _print(results)
    print(verdict(found))
    write_result("gui_heartbeat", {
        "what": "gaps between the ticks of a 10 ms QTimer on the GUI thread while the window (offscreen, sim"
                " backend, h200 model) runs, opens a trace file and exports a PNG; whole passes, each in a new"
                " window, repeated until each scenario's longest gap agrees",
        "qt_platform": os.environ.get("QT_QPA_PLATFORM"),
        "pyside6": _pyside_version(),
        "gpu": "none",
        "goal_ms": GOAL_MS,
        "runs_4096": runs,
        "passes": len(records),
        "stolen_cpu_s_per_pass": stolen_per_pass,
        **all_steady(found),
        "trace_file_spans": spans,
        "trace_file_bytes": trace_path.stat().st_size,
        "scenarios": results,
    }, args.out, load=load)  # fmt: skip


def _pyside_version() -> str:
    from PySide6 import __version__

    return str(__version__)


def _name_the_holders(trace_path: Path, results: dict[str, dict[str, Any]], steps: StepTimes) -> None:
    """For the scenarios over the goal, a watched pass that names what held the lock off the GUI thread."""
    over = [name for name, numbers in results.items() if numbers["max_gap_ms"] > GOAL_MS]
    if not over:
        return
    print(f"again with the run and file threads watched, for {', '.join(over)} ...", flush=True)
    watched = measure(trace_path, 2, steps, LongCalls())
    for name in over:
        calls = [f"{spent:.0f} ms {what}" for spent, what in watched[name]["long_calls"]]
        results[name]["held_the_lock_off_the_gui_thread_in_a_watched_pass"] = calls


def _print(results: dict[str, dict[str, Any]]) -> None:
    for name, numbers in results.items():
        verdict_word = "within" if numbers["max_gap_ms"] <= GOAL_MS else "OVER"
        print(
            f"{name:22} max gap {numbers['max_gap_ms']:7.1f} ms ({numbers['max_ratio_to_goal']:.2f}x the goal,"
            f" {verdict_word}), p99 {numbers['p99_gap_ms']:6.1f} ms ({numbers['p99_ratio_to_goal']:.2f}x),"
            f" median {numbers['median_gap_ms']:.1f} ms; the longest at {numbers['max_gap_began_s']:.2f} of"
            f" {numbers['scenario_s']:.2f} s; longest GUI handler {numbers['longest_gui_handler_ms']:.1f} ms"
            f" ({numbers['longest_gui_handler']})"
        )
        for call in numbers.get("held_the_lock_off_the_gui_thread_in_a_watched_pass", []):
            print(f"{'':24}{call}")


if __name__ == "__main__":
    main()

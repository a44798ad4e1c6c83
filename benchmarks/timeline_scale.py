"""Opening trace files of 10^5, 10^6 and 10^7 spans in the timeline, panning them, peak memory.

Goals: a 10^7-span trace opens in 5 s at most (on a 2-core machine) and pans at 30 frames a second or more, and a
pan frame costs the same whatever the trace's total span count.

The trace is built column by column with numpy: a pipeline on four streams, each chunk three
host calls (`cudaMemcpyAsync`, `cuLaunchKernel`, `cudaMemcpyAsync`) and the H2D copy, kernel
and D2H copy they issue, one chunk every 90 us, each op after a short wait for its stream, so
that every lane (host, streams, engines) holds spans from the first chunk to the last and
every stream lane a waiting layer. A process of its own writes it as the app's trace file:
the columnar ``.ovz`` (`export_columnar`; ``--form ovz``, the default) or Chrome trace JSON
(`export_chrome`; ``--form json``, whose result goes to timeline_scale_json.json). *Open* is
what a user waits for from File > Open to the picture, each step timed as the app does it
(`file_loading.load_file`, then the window's show): **read** the file (where the app
reads it: a JSON file past 1 MiB in a child process, a columnar one on the loading thread), then
**analyse** it (`session.analyse`: metrics and findings) and **prepare** it (`prepare_trace`:
lanes, span sets, levels, hover index, then callouts; and where it opens), which on a big
trace run at once on two threads, so the step's wall time is reported with each part's own
CPU time, and the **first paint**: a 1600 x 900 offscreen
`TimelineWidget` given the prepared trace, its events handled and repainted. Each zoom then
sets a window of a fixed length (so that each size shows the same number of spans in it)
around the run's middle, and times pan frames: move the window by a tenth (`pan_by`), handle
the events (the widget culls for the new window) and repaint, back and forth.

Each open runs in a fresh process (so that its peak resident memory is its own), repeated
until the total open and the pan frames agree (`benchmarks.steady`). Prints each step, the
total, the median frame and frame rate per zoom, the ratio of the frame at the largest size
to the frame at the smallest, and writes benchmarks/results/timeline_scale.json (or into
``--out``) with the machine, its load and the date. `--profile` prints where the time of the
largest size's open and pans went (cProfile).

    python -m benchmarks.timeline_scale [--spans 100000 1000000 10000000] [--form ovz|json] [--frames 40] [--tiny]
        [--out DIR]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.machine import RESULTS, write_result
from benchmarks.steady import LoadWatch, Steady, add_options, all_steady, max_repeats, repeat_until_steady

GOAL_OPEN_S = 5.0  # read, analyse, prepare and first paint at GOAL_SPANS, on a 2-core machine
GOAL_SPANS = 10_000_000
GOAL_FPS = 30.0
STREAMS = 4
CHUNK_NS = 90_000  # one chunk issued every 90 us: the H2D engine's pace
SPANS_PER_CHUNK = 6  # three host calls and the three ops they issue
SIZE_PX = (1600, 900)
WARM_UP_FRAMES = 10  # panned and painted before the timed frames of each zoom
# window lengths: a tenth of the run (more spans in view the larger the trace), then fixed lengths
TINY_SPANS, TINY_FRAMES = [600, 1200], 3
ZOOMS = {"a tenth of the run": ("run", 0.1), "1,000 chunks": ("ms", 90.0), "30 chunks": ("ms", 2.7)}


def pipeline_columns(spans: int, seed: int = 0) -> dict[str, np.ndarray]:
    """The columns of a pipeline trace of about `spans` spans (whole chunks), built without a loop."""
    from overlapviz.core.trace.spans import MemoryKind, OpKind, Unit

    rng = np.random.default_rng(seed)
    chunks = max(1, spans // SPANS_PER_CHUNK)
    chunk = np.arange(chunks, dtype=np.int64)
    issued = chunk * CHUNK_NS
    # (call ns, wait ns, op ns) per stage: each op ends before the next chunk's op of its unit starts
    call_ns = np.array([4_000, 3_000, 4_000])
    calls_start = issued[:, None] + np.array([0, 4_500, 8_000])
    calls_end = calls_start + call_ns
    ready = np.empty((chunks, 3), dtype=np.int64)
    start = np.empty_like(ready)
    end = np.empty_like(ready)
    ready[:, 0] = calls_end[:, 0]
    start[:, 0] = ready[:, 0] + rng.integers(0, 1_000, chunks)
    end[:, 0] = start[:, 0] + rng.integers(75_000, 85_000, chunks)
    for stage, (low, high) in ((1, (50_000, 60_000)), (2, (70_000, 80_000))):
        ready[:, stage] = end[:, stage - 1]
        start[:, stage] = ready[:, stage] + rng.integers(0, 2_000, chunks)
        end[:, stage] = start[:, stage] + rng.integers(low, high, chunks)
    device_rows = chunks * 3
    op_row = np.arange(device_rows, dtype=np.int32).reshape(chunks, 3)
    kinds = np.array([OpKind.H2D, OpKind.KERNEL, OpKind.D2H], dtype=np.int8)
    units = np.array([Unit.H2D_ENGINE, Unit.COMPUTE, Unit.D2H_ENGINE], dtype=np.int8)
    copy = np.array([True, False, True])
    stream = np.repeat((chunk % STREAMS).astype(np.int32), 3)
    ones = np.ones(device_rows, dtype=np.int64)

    def both(device: np.ndarray, host: np.ndarray) -> np.ndarray:
        return np.concatenate((np.asarray(device).reshape(-1), np.asarray(host).reshape(-1)))

    tile = (chunks, 1)
    return {
        "kind": both(np.tile(kinds, tile), np.full(device_rows, OpKind.API, dtype=np.int8)),
        "unit": both(np.tile(units, tile), np.full(device_rows, Unit.HOST, dtype=np.int8)),
        "stream": both(stream, -ones),
        "chunk": both(np.repeat(chunk, 3), -ones),
        "enqueue_ns": both(calls_end, -ones),
        "ready_ns": both(ready, -ones),
        "start_ns": both(start, calls_start),
        "end_ns": both(end, calls_end),
        "bytes": both(np.tile(np.where(copy, 4 << 20, 0), tile), np.zeros(device_rows, dtype=np.int64)),
        "memory": both(np.tile(np.where(copy, MemoryKind.PINNED, MemoryKind.NONE), tile), np.zeros(device_rows)),
        "name": both(np.tile(np.array([0, 1, 2]), tile), np.tile(np.array([3, 4, 3]), tile)),
        "op": both(np.full(device_rows, -1), op_row),
        "device": np.zeros(2 * device_rows, dtype=np.int16),
        "thread": np.zeros(2 * device_rows, dtype=np.int64),
    }


def pipeline_trace(spans: int) -> Any:
    """`pipeline_columns` as a trace (with no config: a pipeline of 10^6 chunks is past the controls' range)."""
    from overlapviz.core.trace.meta import TraceMeta
    from overlapviz.core.trace.spans import Trace

    columns = pipeline_columns(spans)
    names = ("memcpy HtoD", "fma_chain", "memcpy DtoH", "cudaMemcpyAsync", "cuLaunchKernel")
    meta = {
        "backend": "benchmark", "device": "h200", "device_name": "NVIDIA H200", "timing": "model",
        "version": "0", "device_facts": {"copy_engines": 2}, "simulated": True,
    }  # fmt: skip
    return Trace(columns, names, TraceMeta.from_dict(meta))


def _paint(widget: Any, app: Any) -> None:
    app.processEvents()  # the widget culls and merges for the new window (a zero-interval timer)
    widget.repaint()


def _pan_frames(widget: Any, app: Any, window_ms: float, frames: int) -> list[float]:
    """Frame times (ms) panning a window `window_ms` long around the run's middle."""
    middle = widget.view.end_ms / 2
    widget.set_view_range_ms(middle - window_ms / 2, middle + window_ms / 2)
    _paint(widget, app)
    times = []
    for frame in range(-WARM_UP_FRAMES, frames):
        direction = 1 if (frame // 5) % 2 == 0 else -1  # five steps right, five back
        begin = time.perf_counter()
        widget.pan_by(0.1 * direction)
        _paint(widget, app)
        times.append((time.perf_counter() - begin) * 1e3)
    return times[WARM_UP_FRAMES:]


def _profiled(profile: cProfile.Profile | None, job: Any) -> Any:
    if profile is None:
        return job()
    return profile.runcall(job)


def _step(steps: dict[str, float], name: str, profile: cProfile.Profile | None, job: Any) -> Any:
    """Run `job` (profiled, if asked), note its seconds in `steps` under `name`; what it returned."""
    begin = time.perf_counter()
    value = _profiled(profile, job)
    steps[name] = time.perf_counter() - begin
    return value


def _thread_cpu(seconds: dict[str, float], name: str, job: Any) -> Any:
    """`job`, its calls adding the CPU seconds of the thread that ran them to `seconds[name]`."""

    def timed(*args: Any, **kwargs: Any) -> Any:
        begin = time.thread_time()
        try:
            return job(*args, **kwargs)
        finally:
            seconds[name] = seconds.get(name, 0.0) + time.thread_time() - begin

    return timed


def _analyse_and_prepare(trace: Any, cancel: Any, cpu: dict[str, float]) -> Any:
    """`prepare_trace` and where the trace opens, as `load_file` runs them; each part's own CPU seconds into `cpu`.

    On a big trace the analysis and the drawing run at once on two threads, so the step's
    wall time is what the user waits for; each part's thread CPU seconds say what it costs
    by itself (the drawing and the callouts make up prepare).
    """
    from overlapviz.view import opening, prepared

    kept = prepared.analyse, prepared.draw_trace, prepared.view_of
    prepared.analyse = _thread_cpu(cpu, "analyse_cpu_s", prepared.analyse)
    prepared.draw_trace = _thread_cpu(cpu, "prepare_cpu_s", prepared.draw_trace)
    prepared.view_of = _thread_cpu(cpu, "prepare_cpu_s", prepared.view_of)
    try:
        view = prepared.prepare_trace(trace, cancel=cancel)
        _thread_cpu(cpu, "prepare_cpu_s", opening.opening_ms)(trace)
    finally:
        prepared.analyse, prepared.draw_trace, prepared.view_of = kept
    return view


def _open(path: str, widget: Any, app: Any, profile: cProfile.Profile | None) -> tuple[Any, dict[str, float]]:
    """Open `path` as File > Open does, each step timed (as `file_loading.load_file` takes them); the view.

    The open's total is its steps' wall times: read, analyse and prepare (at once, on a big
    trace), first paint. `analyse_cpu_s` and `prepare_cpu_s` are each part's own CPU seconds.
    A profile covers this thread only, not the one that draws beside the analysis.
    """
    from overlapviz._qt.files.child_process import read_in_child
    from overlapviz._qt.files.file_loading import reads_in_child
    from overlapviz.app.session_file import open_file
    from overlapviz.core.cancel import CancelToken

    cancel, steps, cpu, file = CancelToken(), dict[str, float](), dict[str, float](), Path(path)
    read = lambda: read_in_child(file, cancel) if reads_in_child(file) else open_file(file)  # noqa: E731
    trace = _step(steps, "read_s", profile, read).trace
    view = _step(steps, "analyse_and_prepare_s", profile, lambda: _analyse_and_prepare(trace, cancel, cpu))

    def first_paint() -> None:
        widget.set_view(view)
        _paint(widget, app)

    _step(steps, "first_paint_s", profile, first_paint)
    steps["open_total_s"] = sum(steps.values())
    return view, {**steps, **cpu}


def _zooms(widget: Any, app: Any, end_ms: float, frames: int, profile: cProfile.Profile | None) -> dict[str, Any]:
    """Pan frames at each zoom of `ZOOMS`."""
    zooms: dict[str, Any] = {}
    for name, (unit, length) in ZOOMS.items():
        window_ms = length * end_ms if unit == "run" else length
        frame_ms = _profiled(profile, lambda w=window_ms: _pan_frames(widget, app, w, frames))
        scene = widget.scene_items
        median = statistics.median(frame_ms)
        zooms[name] = {
            "window_ms": round(window_ms, 3),
            "median_frame_ms": round(median, 3),
            "worst_frame_ms": round(max(frame_ms), 3),
            "fps": round(1e3 / median, 1),
            "rects_drawn": scene.shown_rect_count() if scene is not None else 0,
        }
    return zooms


def _child(path: str, frames: int, profile_it: bool) -> None:
    """Open the trace file at `path` and pan it, in this fresh process; print the result as JSON on the last line."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from overlapviz._qt.app import ensure_app
    from overlapviz._qt.timeline.widget import TimelineWidget

    app = ensure_app()
    widget = TimelineWidget()  # in the app the window, and this widget in it, are up before a file is opened
    widget.resize(*SIZE_PX)
    widget.show()
    app.processEvents()
    profile = cProfile.Profile() if profile_it else None
    view, steps = _open(path, widget, app, profile)
    rss_opened = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # Linux gives KiB
    zooms = _zooms(widget, app, view.end_ms, frames, profile)
    if profile is not None:
        out = io.StringIO()
        pstats.Stats(profile, stream=out).sort_stats("cumulative").print_stats(35)
        print(out.getvalue(), file=sys.stderr)
    widget.close()
    result = {
        "spans": len(view.trace),
        **{name: round(seconds, 4) for name, seconds in steps.items()},
        "zooms": zooms,
        "peak_rss_after_open_bytes": rss_opened,
        "peak_rss_bytes": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
    }
    print(json.dumps(result))


def _write_trace(spans: int, path: str) -> None:
    """Write the pipeline trace of about `spans` spans as the app's trace file (in a process of its own)."""
    from overlapviz.core.files.columnar_write import export_columnar
    from overlapviz.core.files.trace_export import export_chrome

    write = export_columnar if path.endswith(".ovz") else export_chrome
    write(pipeline_trace(spans), path)


def _run_child(arguments: list[str], env: dict[str, str] | None = None) -> str:
    command = [sys.executable, "-m", "benchmarks.timeline_scale", *arguments]
    done = subprocess.run(command, capture_output=True, text=True, check=False, env=env)
    if "--profile" in arguments:
        print(done.stderr)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(arguments)} failed:\n{done.stderr[-3000:]}")
    return done.stdout


def _open_in_child(path: Path, frames: int, profile_it: bool) -> dict[str, Any]:
    """One open and its pans in a fresh process; a file over the app's input limit is let in, and that is noted."""
    from overlapviz.core.files.safe_read import MAX_INPUT_ENV, max_input_bytes

    env, size = dict(os.environ), path.stat().st_size
    raised = size > max_input_bytes()
    if raised:
        env[MAX_INPUT_ENV] = str(size)
    arguments = ["--child", str(path), "--frames", str(frames), *(["--profile"] if profile_it else [])]
    result: dict[str, Any] = json.loads(_run_child(arguments, env).strip().splitlines()[-1])
    result["file_bytes"], result["input_limit_raised"] = size, raised
    return result


def _pan_key(name: str) -> str:
    return f"pan frame ms, {name}"


def _measure(spans: int, form: str, frames: int, profile_it: bool, folder: Path, cap: int) -> dict[str, Any]:
    """Write the trace file of `spans` spans, then open and pan it in fresh processes until the timings agree."""
    path = folder / f"pipeline-{spans}.{form}"
    _run_child(["--write-trace", str(spans), str(path)])
    runs: list[dict[str, Any]] = []

    def one_open() -> dict[str, float]:
        runs.append(_open_in_child(path, frames, profile_it and not runs))
        zooms = runs[-1]["zooms"]
        return {
            "open_total_s": runs[-1]["open_total_s"],
            **{_pan_key(n): z["median_frame_ms"] for n, z in zooms.items()},
        }

    found = repeat_until_steady(one_open, max_repeats=cap)
    path.unlink()
    return _typical(runs, found)


def _typical(runs: list[dict[str, Any]], found: dict[str, Steady]) -> dict[str, Any]:
    """The median of each step over the opens, the highest peak memory, each zoom's median frame."""
    typical = dict(runs[0])
    for key in runs[0]:
        if key.endswith("_s"):
            typical[key] = round(statistics.median(run[key] for run in runs), 4)
        elif key.endswith("_bytes"):
            typical[key] = max(run[key] for run in runs)
    for name, zoom in typical["zooms"].items():
        median = found[_pan_key(name)].median
        worst = max(run["zooms"][name]["worst_frame_ms"] for run in runs)
        typical["zooms"][name] = {**zoom, "median_frame_ms": round(median, 3), "worst_frame_ms": worst,
                                  "fps": round(1e3 / median, 1)}  # fmt: skip
    typical["opens"] = len(runs)
    typical["repeats"] = {name: steady.summary() for name, steady in found.items()}
    typical.update(all_steady(found))
    return typical


def _report(result: dict[str, Any]) -> None:
    gib = 1024**3
    print(
        f"{result['spans']:>10,} spans ({result['file_bytes'] / 1e6:,.0f} MB file): open {result['open_total_s']:.3f} s"
        f" = read {result['read_s']:.3f} + analyse and prepare {result['analyse_and_prepare_s']:.3f}"
        f" (CPU: analyse {result['analyse_cpu_s']:.3f}, prepare {result['prepare_cpu_s']:.3f})"
        f" + first paint {result['first_paint_s']:.3f} (median of {result['opens']} opens); peak memory"
        f" {result['peak_rss_bytes'] / gib:.2f} GiB"
        + ("; the input limit was raised to let the file in" if result["input_limit_raised"] else "")
    )
    for name, zoom in result["zooms"].items():
        print(
            f"{'':12}{name:>18} in view: pan frame median {zoom['median_frame_ms']:.2f} ms"
            f" (worst {zoom['worst_frame_ms']:.2f}), {zoom['fps']:.0f} fps, {zoom['rects_drawn']} rectangles"
        )
    print(f"{'':12}{verdict_of(result)}")


def verdict_of(result: dict[str, Any]) -> str:
    """Whether the opens of one size agreed, from its result."""
    if result["spread_ok"]:
        return f"steady: within a {result['spread_goal']:.0%} spread"
    return f"NOT steady: widest spread {result['widest_spread']} (goal {result['spread_goal']:.0%})"


def _summary(results: list[dict[str, Any]]) -> dict[str, Any]:
    """The largest size against the goals and against the smallest; printed and returned for the result file."""
    smallest, largest = results[0], results[-1]
    ratios = {
        name: round(largest["zooms"][name]["median_frame_ms"] / smallest["zooms"][name]["median_frame_ms"], 3)
        for name in ZOOMS
    }
    worst_fps = min(zoom["fps"] for zoom in largest["zooms"].values())
    print(
        f"pan frame at {largest['spans']:,} spans against {smallest['spans']:,}: "
        + ", ".join(f"{name} {ratio:.2f}x" for name, ratio in ratios.items())
    )
    # the open's goal is set at 10^7 spans: a smaller largest size is not held against it
    open_ratio = largest["open_total_s"] / GOAL_OPEN_S if largest["spans"] >= 0.99 * GOAL_SPANS else None
    goal = f"ratio to the {GOAL_OPEN_S:.0f} s goal {open_ratio:.2f}" if open_ratio is not None else ""
    against = goal or "no goal below 10^7 spans"
    print(
        f"at {largest['spans']:,} spans: open {largest['open_total_s']:.3f} s, {against}; slowest zoom"
        f" {worst_fps:.0f} fps, ratio of the {GOAL_FPS:.0f} fps goal to it {GOAL_FPS / worst_fps:.2f}"
    )
    return {
        "pan_frame_ratio_largest_to_smallest": ratios,
        "goal_open_s": GOAL_OPEN_S,
        "goal_fps": GOAL_FPS,
        "open_ratio_to_goal": None if open_ratio is None else round(open_ratio, 3),
        "goal_fps_ratio_to_slowest_zoom": round(GOAL_FPS / worst_fps, 3),
        "spread_ok": all(result["spread_ok"] for result in results),
    }


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--spans", type=int, nargs="+", default=[100_000, 1_000_000, 10_000_000])
    parser.add_argument("--form", choices=("ovz", "json"), default="ovz", help="the trace file's form (default ovz)")
    parser.add_argument("--frames", type=int, default=40)
    parser.add_argument("--profile", action="store_true", help="profile the largest size's first open and pans")
    parser.add_argument("--child", help=argparse.SUPPRESS)  # open this file and pan it
    parser.add_argument("--write-trace", nargs=2, metavar=("SPANS", "PATH"), help=argparse.SUPPRESS)
    add_options(parser, RESULTS)
    return parser.parse_args()


def main() -> None:
    load = LoadWatch()
    args = _arguments()
    if args.write_trace is not None:
        _write_trace(int(args.write_trace[0]), args.write_trace[1])
        return
    if args.child is not None:
        _child(args.child, args.frames, args.profile)
        return
    from PySide6 import __version__ as pyside_version

    sizes, frames = (TINY_SPANS, TINY_FRAMES) if args.tiny else (sorted(args.spans), args.frames)
    results = []
    with tempfile.TemporaryDirectory(prefix="overlapviz-timeline-") as folder:
        for spans in sizes:
            profile_it = args.profile and spans == sizes[-1]
            results.append(_measure(spans, args.form, frames, profile_it, Path(folder), max_repeats(args, 5)))
            _report(results[-1])
    write_result("timeline_scale" if args.form == "ovz" else "timeline_scale_json", {
        "form": args.form,
        "what": "a 4-stream pipeline trace (6 spans per chunk, one chunk per 90 us) written as the app's"
                " trace file, then opened as File > Open does (read, analyse, prepare_view, first paint of a"
                " 1600x900 offscreen TimelineWidget) in a fresh process per open, and panned by a tenth of"
                " windows of fixed length around the middle (pan_by, events, repaint)",
        "qt_platform": os.environ.get("QT_QPA_PLATFORM", "offscreen"),
        "pyside6": pyside_version,
        "frames_per_zoom": frames,
        "sizes": results,
        **_summary(results),
    }, args.out, load=load)  # fmt: skip


if __name__ == "__main__":
    main()

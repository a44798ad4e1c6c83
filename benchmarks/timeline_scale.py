"""The timeline widget on traces of 10^5, 10^6 and 10^7 spans: opening, panning, peak memory.

Goals: a 10^7-span trace opens in the widget in 2 s at most and pans at 30 frames a second
or more, and a pan frame costs the same whatever the trace's total span count.

Each size runs in a fresh process (so that its peak resident memory is its own). It builds a
trace column by column with numpy: a pipeline on four streams, each chunk three host calls
(`cudaMemcpyAsync`, `cuLaunchKernel`, `cudaMemcpyAsync`) and the H2D copy, kernel and D2H
copy they issue, one chunk every 90 us, each op after a short wait for its stream, so that
every lane (host, streams, engines) holds spans from the first chunk to the last and every
stream lane a waiting layer. Then `prepare_trace` works out what the timeline draws (on the
run thread, in the app); the clock for *open* starts once that is done and stops when a
1600 x 900 offscreen `TimelineWidget` has been given the prepared trace, has handled its
events and has repainted. Each zoom then sets a window of a fixed length (so that each
size shows the same number of spans in it) around the run's middle, and times pan frames:
move the window by a tenth (`pan_by`), handle the events (the widget culls for
the new window) and repaint, back and forth. Prints the open time, the median frame and the
frame rate per zoom, the ratio of the frame at the largest size to the frame at the
smallest, and writes benchmarks/results/timeline_scale.json with the machine, the date and
the load average. `--profile` prints where the time of the largest size's open and pans
went (cProfile).

    python -m benchmarks.timeline_scale [--spans 100000 1000000 10000000] [--frames 40] [--profile]
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
import time
from typing import Any

import numpy as np

GOAL_OPEN_S = 2.0  # at 10^7 spans
GOAL_FPS = 30.0
STREAMS = 4
CHUNK_NS = 90_000  # one chunk issued every 90 us: the H2D engine's pace
SPANS_PER_CHUNK = 6  # three host calls and the three ops they issue
SIZE_PX = (1600, 900)
WARM_UP_FRAMES = 10  # panned and painted before the timed frames of each zoom
# window lengths: a tenth of the run (more spans in view the larger the trace), then fixed lengths
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


def _child(spans: int, frames: int, profile_it: bool) -> None:
    """Measure one size in this fresh process; print the result as JSON on the last line."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from overlapviz.view.prepared import prepare_trace

    begin = time.perf_counter()
    trace = pipeline_trace(spans)
    build_s = time.perf_counter() - begin
    begin = time.perf_counter()
    view = prepare_trace(trace)
    prepare_s = time.perf_counter() - begin
    rss_prepared = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024

    from overlapviz._qt.app import ensure_app
    from overlapviz._qt.timeline.widget import TimelineWidget

    app = ensure_app()
    widget = TimelineWidget()
    widget.resize(*SIZE_PX)
    widget.show()
    app.processEvents()
    profile = cProfile.Profile() if profile_it else None
    begin = time.perf_counter()
    _profiled(profile, lambda: (widget.set_view(view), _paint(widget, app)))
    open_s = time.perf_counter() - begin
    zooms: dict[str, Any] = {}
    for name, (unit, length) in ZOOMS.items():
        window_ms = length * view.end_ms if unit == "run" else length
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
    if profile is not None:
        out = io.StringIO()
        pstats.Stats(profile, stream=out).sort_stats("cumulative").print_stats(35)
        print(out.getvalue(), file=sys.stderr)
    widget.close()
    result = {
        "spans": len(trace),
        "build_s": round(build_s, 3),
        "prepare_s": round(prepare_s, 3),
        "open_s": round(open_s, 3),
        "zooms": zooms,
        "peak_rss_after_prepare_bytes": rss_prepared,
        "peak_rss_bytes": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
    }
    print(json.dumps(result))


def _measure(spans: int, frames: int, profile_it: bool) -> dict[str, Any]:
    command = [sys.executable, "-m", "benchmarks.timeline_scale", "--child", str(spans), "--frames", str(frames)]
    if profile_it:
        command.append("--profile")
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if profile_it:
        print(done.stderr)
    if done.returncode != 0:
        raise SystemExit(f"the {spans}-span run failed:\n{done.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def _report(result: dict[str, Any]) -> None:
    gib = 1024**3
    print(
        f"{result['spans']:>10,} spans: built {result['build_s']:.2f} s, prepared {result['prepare_s']:.2f} s"
        f" (run thread), opened in the widget {result['open_s']:.3f} s, peak memory"
        f" {result['peak_rss_bytes'] / gib:.2f} GiB"
    )
    for name, zoom in result["zooms"].items():
        print(
            f"{'':12}{name:>12} in view: pan frame median {zoom['median_frame_ms']:.2f} ms"
            f" (worst {zoom['worst_frame_ms']:.2f}), {zoom['fps']:.0f} fps, {zoom['rects_drawn']} rectangles"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--spans", type=int, nargs="+", default=[100_000, 1_000_000, 10_000_000])
    parser.add_argument("--frames", type=int, default=40)
    parser.add_argument("--profile", action="store_true", help="profile the largest size's open and pans")
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        _child(args.child, args.frames, args.profile)
        return
    from PySide6 import __version__ as pyside_version

    from benchmarks.machine import write_result

    load = os.getloadavg()
    sizes = sorted(args.spans)
    results = []
    for spans in sizes:
        results.append(_measure(spans, args.frames, args.profile and spans == sizes[-1]))
        _report(results[-1])
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
    print(
        f"at {largest['spans']:,} spans: open {largest['open_s']:.3f} s, ratio to the {GOAL_OPEN_S:.0f} s goal"
        f" {largest['open_s'] / GOAL_OPEN_S:.2f}; slowest zoom {worst_fps:.0f} fps, ratio of the"
        f" {GOAL_FPS:.0f} fps goal to it {GOAL_FPS / worst_fps:.2f}"
    )
    write_result("timeline_scale", {
        "what": "a columnar 4-stream pipeline trace (6 spans per chunk, one chunk per 90 us), prepared, then shown in"
                " a 1600x900 offscreen TimelineWidget (open: set_view, events, repaint) and panned by a tenth of"
                " windows of fixed length around the middle (pan_by, events, repaint)",
        "load_average_at_start": [round(x, 2) for x in load],
        "load_average_at_end": [round(x, 2) for x in os.getloadavg()],
        "qt_platform": os.environ.get("QT_QPA_PLATFORM", "offscreen"),
        "pyside6": pyside_version,
        "frames_per_zoom": args.frames,
        "sizes": results,
        "pan_frame_ratio_largest_to_smallest": ratios,
        "goal_open_s": GOAL_OPEN_S,
        "goal_fps": GOAL_FPS,
        "open_ratio_to_goal": round(largest["open_s"] / GOAL_OPEN_S, 3),
        "goal_fps_ratio_to_slowest_zoom": round(GOAL_FPS / worst_fps, 3),
    })  # fmt: skip


if __name__ == "__main__":
    main()

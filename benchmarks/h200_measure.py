"""Measure the real-GPU backend on the H200 and write the results.

Run on the GPU machine from the repository root (with the device pack sourced):

    python3 benchmarks/h200_measure.py --out DIR

Writes into DIR: ``h200.json`` (headline numbers), ``h200_model_check.json`` (real makespans
of many configurations, for the model check), ``h200_bandwidth.json`` (the transfer-size
sweep), ``traces/*.json`` (sample traces, Chrome trace JSON) and prints a short table last.
Every number comes from CUPTI-timed runs of `CupyBackend` unless it says otherwise.
"""

from __future__ import annotations

import argparse
import datetime
import json
import statistics
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from overlapviz import __version__
from overlapviz.backends.cupy import CupyBackend
from overlapviz.core.analysis.metrics import compute_metrics
from overlapviz.core.config import MIB, HostAlloc, HostMemory, IssueOrder, KernelKind, PipelineConfig, StreamKind
from overlapviz.core.files.trace_export import export_chrome
from overlapviz.core.trace.spans import OpKind, Trace

DEFAULT = PipelineConfig()  # 256 MiB, 4 streams x 16 chunks, pinned, depth, 1860 iterations
PAGEABLE_RUNS, PINNED_RUNS = 3, 7
# Runs before the timed ones, so that the results are for the steady state: in one run of this
# script the first runs of a fresh process were up to 40% slower (`first_runs` records them).
PAGEABLE_WARM_UP, PINNED_WARM_UP = 1, 10


def log(text: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {text}", flush=True)


def overlapping_pairs(trace: Trace, kind: OpKind) -> int:
    """Ops of `kind` that start before the previous one (by start) has ended."""
    rows = np.flatnonzero(trace.mask(kind))
    order = rows[np.argsort(trace["start_ns"][rows], kind="stable")]
    return int((trace["start_ns"][order[1:]] < trace["end_ns"][order[:-1]]).sum())


def summary(trace: Trace) -> dict[str, Any]:
    """Makespan, busy time per kind, host blocked, as the metrics compute them."""
    metrics = compute_metrics(trace).to_dict()
    return {
        "makespan_ms": round(metrics["makespan_ms"], 4),
        "busy_ms": {k: round(v, 4) for k, v in metrics["busy_ms"].items()},
        "host_blocked_ms": round(metrics["host_blocked_ms"], 4),
        "copy_hidden_pct": metrics["copy_hidden_pct"],
        "efficiency_pct": metrics["efficiency_pct"],
        "bandwidth_gbps": metrics["bandwidth_gbps"],
        "wall_ms": round(trace.meta.host_wall_ns / 1e6, 4),
        "h2d_overlapping_pairs": overlapping_pairs(trace, OpKind.H2D),
        "d2h_overlapping_pairs": overlapping_pairs(trace, OpKind.D2H),
    }


def measure(backend: CupyBackend, config: PipelineConfig, runs: int | None = None) -> tuple[dict[str, Any], Trace]:
    """Warm up, run `runs` times, keep the median run (by makespan) with all makespans."""
    pageable = config.memory is HostMemory.PAGEABLE
    runs = runs or (PAGEABLE_RUNS if pageable else PINNED_RUNS)
    for _ in range(PAGEABLE_WARM_UP if pageable else PINNED_WARM_UP):
        backend.run(config)
    traces = [backend.run(config) for _ in range(runs)]
    makespans = [compute_metrics(t).makespan_ns / 1e6 for t in traces]
    median_run = traces[int(np.argsort(makespans)[len(makespans) // 2])]
    result = {"config": config.to_dict(), **summary(median_run), "makespans_ms": [round(m, 4) for m in makespans]}
    result["engine_truth"] = all(
        overlapping_pairs(t, k) == 0 for t in traces for k in (OpKind.H2D, OpKind.D2H)
    )
    return result, median_run


def model_check_configs() -> list[PipelineConfig]:
    """The reference configurations, then others the model was never calibrated on."""
    ref = [
        DEFAULT.replace(streams=1, chunks=1), DEFAULT.replace(streams=1, chunks=8),
        DEFAULT.replace(streams=2, chunks=8), DEFAULT.replace(streams=4, chunks=8),
        DEFAULT.replace(streams=4, chunks=8, order=IssueOrder.BREADTH), DEFAULT.replace(streams=2, chunks=2),
        DEFAULT.replace(stream_kind=StreamKind.LEGACY), DEFAULT.replace(iters=0),
        DEFAULT.replace(streams=1, chunks=1, memory=HostMemory.PAGEABLE),
        DEFAULT.replace(streams=4, chunks=8, memory=HostMemory.PAGEABLE),
        DEFAULT.replace(streams=4, chunks=8, memory=HostMemory.PAGEABLE, fresh_output=True),
    ]  # fmt: skip
    others = [
        DEFAULT, DEFAULT.replace(streams=8, chunks=32), DEFAULT.replace(streams=2, chunks=16),
        DEFAULT.replace(chunks=64), DEFAULT.replace(chunks=256),  # 1 MiB chunks
        DEFAULT.replace(chunks=1024), DEFAULT.replace(iters=500), DEFAULT.replace(iters=4000),
        DEFAULT.replace(iters=8000), DEFAULT.replace(size_bytes=64 * MIB), DEFAULT.replace(size_bytes=1024 * MIB),
        DEFAULT.replace(memory=HostMemory.REGISTERED), DEFAULT.replace(order=IssueOrder.BREADTH),
        DEFAULT.replace(streams=1), DEFAULT.replace(streams=16), DEFAULT.replace(kernel=KernelKind.SINCOS),
        DEFAULT.replace(memory=HostMemory.PAGEABLE), DEFAULT.replace(streams=3, chunks=16),
        DEFAULT.replace(order=IssueOrder.BREADTH, streams=8, chunks=32),
        DEFAULT.replace(host_alloc=HostAlloc.PER_RUN),
        DEFAULT.replace(host_alloc=HostAlloc.PER_RUN, memory=HostMemory.PAGEABLE),
    ]  # fmt: skip
    return ref + others


SAMPLES = {
    "h200-default-pinned": DEFAULT,
    "h200-default-pageable": DEFAULT.replace(memory=HostMemory.PAGEABLE),
    "h200-legacy-stream": DEFAULT.replace(stream_kind=StreamKind.LEGACY),
    "h200-breadth": DEFAULT.replace(order=IssueOrder.BREADTH),
    "h200-copy-bound-iters0": DEFAULT.replace(iters=0),
    "h200-kernel-bound-iters8000": DEFAULT.replace(iters=8000),
}


def first_runs(config: PipelineConfig, runs: int = 20) -> dict[str, Any]:
    """The first runs with freshly allocated buffers, one by one (a new backend allocates them)."""
    backend = CupyBackend()
    try:
        traces = [backend.run(config) for _ in range(runs)]
    finally:
        backend.close()
    metrics = [compute_metrics(t) for t in traces]
    return {
        "config": config.to_dict(),
        "makespans_ms": [round(m.makespan_ns / 1e6, 4) for m in metrics],
        "h2d_gbps": [round(m.bandwidth_gbps["h2d"] or 0.0, 2) for m in metrics],
        "d2h_gbps": [round(m.bandwidth_gbps["d2h"] or 0.0, 2) for m in metrics],
    }


def tracing_overhead(backend: CupyBackend, config: PipelineConfig, runs: int = 30) -> dict[str, Any]:
    """Traced (CUPTI on, flushed and converted after each run) against untraced wall time."""
    untraced: list[int] = []
    traced: list[int] = []
    for _ in range(2):  # alternate blocks, so that drift hits both alike
        backend.wall_times(config, 3, traced=False)
        untraced += backend.wall_times(config, runs, traced=False)
        backend.wall_times(config, 3, traced=True)  # the first runs after re-enabling are slower
        traced += backend.wall_times(config, runs, traced=True)
    u, t = statistics.median(untraced) / 1e6, statistics.median(traced) / 1e6
    return {
        "untraced_wall_ms_median": round(u, 4), "traced_wall_ms_median": round(t, 4),
        "tracing_overhead_pct": round((t / u - 1) * 100, 2), "runs_each": len(traced),
        "untraced_wall_ms_min": round(min(untraced) / 1e6, 4), "traced_wall_ms_min": round(min(traced) / 1e6, 4),
    }  # fmt: skip


def events_fallback(config: PipelineConfig, cupti_makespan_ms: float) -> dict[str, Any]:
    """The CUDA-events path on the same pipeline, with and without the engine replay."""
    backend = CupyBackend(timing="events")
    try:
        backend.run(config)
        traces = [backend.run(config) for _ in range(5)]
        makespans = [compute_metrics(t).makespan_ns / 1e6 for t in traces]
        trace = traces[int(np.argsort(makespans)[2])]
        # an event pair shows ready -> end: what a timeline drawn from raw events would show
        raw_start = np.where(trace.device_mask, trace["ready_ns"], trace["start_ns"])
        raw_columns = {**trace.columns, "start_ns": raw_start}
        raw_trace = Trace(raw_columns, trace.names, trace.meta)
        h2d = trace.mask(OpKind.H2D)
        return {
            "makespan_ms_median": round(statistics.median(makespans), 4),
            "cupti_makespan_ms": round(cupti_makespan_ms, 4),
            "replayed_h2d_overlapping_pairs": overlapping_pairs(trace, OpKind.H2D),
            "replayed_d2h_overlapping_pairs": overlapping_pairs(trace, OpKind.D2H),
            "raw_event_h2d_overlapping_pairs": overlapping_pairs(raw_trace, OpKind.H2D),
            "raw_event_d2h_overlapping_pairs": overlapping_pairs(raw_trace, OpKind.D2H),
            "raw_event_h2d_longest_ms": round(float((trace["end_ns"] - raw_start)[h2d].max()) / 1e6, 4),
            "replayed_h2d_longest_ms": round(float(trace.duration_ns[h2d].max()) / 1e6, 4),
        }
    finally:
        backend.close()


def bandwidth(backend: CupyBackend) -> dict[str, Any]:
    """The sweep (64 KiB to 1 GiB) and the device-memory bandwidth of the memory-bound kernel."""
    points = [p.to_dict() for p in backend.bandwidth(repeats=3)]
    return {"points": points, "device_memory_gbps": round(backend.device_memory_gbps(), 1)}


def at_256mib(points: list[dict[str, Any]], memory: str, direction: str) -> float:
    for p in points:
        if p["memory"] == memory and p["direction"] == direction and p["size_bytes"] == 256 * MIB:
            return round(float(p["gbps"]), 2)
    raise KeyError((memory, direction))


class Results:
    """Collects results; a failing phase is logged and recorded, the others still run."""

    def __init__(self, out: Path) -> None:
        self.out = out
        self.errors: dict[str, str] = {}

    def phase(self, name: str, work: Callable[[], Any]) -> Any:
        log(f"{name} ...")
        start = time.perf_counter()
        try:
            value = work()
        except Exception:
            self.errors[name] = traceback.format_exc()
            log(f"{name} FAILED:\n{self.errors[name]}")
            return None
        log(f"{name} done in {time.perf_counter() - start:.1f} s")
        return value

    def write(self, name: str, data: Any) -> None:
        (self.out / name).write_text(json.dumps(data, indent=1, default=str) + "\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--skip", default="", help="comma-separated phases to skip")
    args = parser.parse_args()
    skip = set(filter(None, args.skip.split(",")))
    (args.out / "traces").mkdir(parents=True, exist_ok=True)
    results = Results(args.out)
    backend = CupyBackend()
    info = backend.devices()[0]
    log(f"device: {info.name}; timing: {info.facts['timing']} ({info.facts['timing_reason']})")
    head: dict[str, Any] = {
        "device_name": info.name, "date": datetime.date.today().isoformat(), "overlapviz": __version__,
        "timing": info.facts["timing"], "device_facts": {k: v for k, v in info.facts.items() if k != "timing_reason"},
        "python": sys.version.split()[0], "numpy": np.__version__,
    }  # fmt: skip

    measured_default = results.phase("default pipeline", lambda: measure(backend, DEFAULT, 15))
    default = measured_default[0] if measured_default else None
    if default:
        head["default_pipeline"] = default
        head["default_pipeline_makespan_ms"] = default["makespan_ms"]
        head["engine_truth"] = default["engine_truth"]
    if "first" not in skip:
        first = results.phase("first runs after allocation", lambda: first_runs(DEFAULT))
        if first:
            head["first_runs_after_allocation"] = first
    if "overhead" not in skip:
        overhead = results.phase("tracing overhead", lambda: tracing_overhead(backend, DEFAULT))
        if overhead:
            head["tracing_overhead"] = overhead
            head["tracing_overhead_pct"] = overhead["tracing_overhead_pct"]
    results.write("h200.json", head)

    runs = []
    samples: dict[str, Trace] = {}
    if "model" not in skip:
        for config in model_check_configs():
            measured = results.phase(f"run {config.describe()}", lambda c=config: measure(backend, c))
            if measured:
                runs.append(measured[0])
                for name, sample in SAMPLES.items():
                    if sample == config and name not in samples:
                        samples[name] = measured[1]
        results.write("h200_model_check.json", {
            "device_name": info.name, "date": head["date"], "timing": head["timing"],
            "method": "CUPTI; makespan = first device op start to last device op end; median of 7 runs"
                      " (3 for pageable) after 10 warm-up runs (1 for pageable); busy_ms = summed op"
                      " durations per kind",
            "runs": runs,
        })  # fmt: skip
    for name, config in SAMPLES.items():
        if name not in samples:
            measured = results.phase(f"sample {name}", lambda c=config: measure(backend, c, 3))
            if measured:
                samples[name] = measured[1]
    for name, trace in samples.items():
        results.phase(f"export {name}", lambda n=name, t=trace: export_chrome(t, args.out / "traces" / f"{n}.json"))

    by_config = {json.dumps(r["config"], sort_keys=True): r for r in runs}

    def find(config: PipelineConfig) -> dict[str, Any] | None:
        return by_config.get(json.dumps(config.to_dict(), sort_keys=True))

    comparisons = {}
    for label, a, b in (
        ("pinned_vs_pageable", DEFAULT, DEFAULT.replace(memory=HostMemory.PAGEABLE)),
        ("pinned_vs_registered", DEFAULT, DEFAULT.replace(memory=HostMemory.REGISTERED)),
        ("depth_vs_breadth", DEFAULT, DEFAULT.replace(order=IssueOrder.BREADTH)),
        ("nonblocking_vs_legacy", DEFAULT, DEFAULT.replace(stream_kind=StreamKind.LEGACY)),
        ("four_streams_vs_one", DEFAULT, DEFAULT.replace(streams=1)),
    ):
        ra, rb = find(a), find(b)
        if ra and rb:
            comparisons[label] = {
                "a": a.describe(), "b": b.describe(), "a_makespan_ms": ra["makespan_ms"],
                "b_makespan_ms": rb["makespan_ms"], "b_over_a": round(rb["makespan_ms"] / ra["makespan_ms"], 3),
                "a_host_blocked_ms": ra["host_blocked_ms"], "b_host_blocked_ms": rb["host_blocked_ms"],
            }  # fmt: skip
    head["comparisons"] = comparisons
    results.write("h200.json", head)

    if default and "events" not in skip:
        fallback = results.phase("events fallback", lambda: events_fallback(DEFAULT, default["makespan_ms"]))
        if fallback:
            head["events_fallback"] = fallback
    if "bandwidth" not in skip:
        sweep = results.phase("bandwidth sweep", lambda: bandwidth(backend))
        if sweep:
            results.write("h200_bandwidth.json", {"device_name": info.name, "date": head["date"], **sweep})
            for memory in ("pinned", "pageable", "registered"):
                for direction in ("h2d", "d2h"):
                    head[f"{memory}_{direction}_gbps_256mib"] = at_256mib(sweep["points"], memory, direction)
            head["device_memory_gbps"] = sweep["device_memory_gbps"]
    head["errors"] = results.errors
    results.write("h200.json", head)
    backend.close()

    print("\n== summary ==")
    for key in ("default_pipeline_makespan_ms", "tracing_overhead_pct", "engine_truth", "pinned_h2d_gbps_256mib",
                "pinned_d2h_gbps_256mib", "pageable_h2d_gbps_256mib", "pageable_d2h_gbps_256mib",
                "registered_h2d_gbps_256mib", "device_memory_gbps"):
        print(f"{key:32s} {head.get(key)}")
    for label, c in comparisons.items():
        print(f"{label:32s} {c['a_makespan_ms']:.3f} -> {c['b_makespan_ms']:.3f} ms (x{c['b_over_a']})")
    for r in runs:
        cfg = PipelineConfig.from_dict(r["config"])
        print(f"{r['makespan_ms']:9.3f} ms  busy h2d/k/d2h {r['busy_ms']['h2d']:.2f}/{r['busy_ms']['kernel']:.2f}/"
              f"{r['busy_ms']['d2h']:.2f}  {cfg.describe()}")
    print("errors:", list(results.errors) or "none")
    return 1 if results.errors else 0


if __name__ == "__main__":
    sys.exit(main())

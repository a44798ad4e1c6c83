"""Record and summarise real H200 traces of chosen pipelines, to see where the model is off.

Run on the GPU machine from the repository root (device pack sourced):

    python3 benchmarks/h200_probe.py --out DIR

For each configuration it keeps the median run's trace (Chrome trace JSON in DIR) and prints
what the host and the engines did: host time per issued op (inside calls and between them),
how long the H2D engine sat idle inside the makespan, how many kernels overlapped another
kernel, and the stream order of the first H2D copies.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from benchmarks.h200_measure import measure
from overlapviz.backends.cupy import CupyBackend
from overlapviz.core.analysis.intervals import union_intervals
from overlapviz.core.config import PipelineConfig
from overlapviz.core.files.trace_export import export_chrome
from overlapviz.core.trace.spans import OpKind, Trace

CONFIGS = {
    "4x256-depth": PipelineConfig(chunks=256),
    "8x32-breadth": PipelineConfig(streams=8, chunks=32, order="breadth"),
    "8x32-depth": PipelineConfig(streams=8, chunks=32),
    "4x64-depth": PipelineConfig(chunks=64),
    "4x1024-depth": PipelineConfig(chunks=1024),
    "4x16-breadth": PipelineConfig(order="breadth"),
}


def host_costs(trace: Trace) -> dict[str, float]:
    """Mean microseconds per issuing call: inside the call, and from its end to the next call."""
    calls = np.flatnonzero(trace.mask(OpKind.API) & (trace["op"] >= 0))
    calls = calls[np.argsort(trace["start_ns"][calls])]
    inside = trace.duration_ns[calls]
    gaps = trace["start_ns"][calls[1:]] - trace["end_ns"][calls[:-1]]
    names = [trace.name_of(int(r)) for r in calls]
    launches = np.array(["Launch" in n for n in names])
    return {
        "calls": len(calls),
        "memcpy_call_us": float(inside[~launches].mean() / 1e3),
        "launch_call_us": float(inside[launches].mean() / 1e3) if launches.any() else 0.0,
        "gap_mean_us": float(gaps.mean() / 1e3),
        "gap_median_us": float(np.median(gaps) / 1e3),
        "issue_span_ms": float((trace["end_ns"][calls[-1]] - trace["start_ns"][calls[0]]) / 1e6),
    }


def engine_idle_ms(trace: Trace, kind: OpKind) -> float:
    """Time inside the makespan with no op of `kind` running."""
    device = trace.device_mask
    first, last = trace["start_ns"][device].min(), trace["end_ns"][device].max()
    rows = trace.mask(kind)
    starts, ends = union_intervals(trace["start_ns"][rows], trace["end_ns"][rows])
    return float((last - first - (ends - starts).sum()) / 1e6)


def overlapping_kernels(trace: Trace) -> int:
    rows = np.flatnonzero(trace.mask(OpKind.KERNEL))
    order = rows[np.argsort(trace["start_ns"][rows])]
    return int((trace["start_ns"][order[1:]] < trace["end_ns"][order[:-1]]).sum())


def h2d_stream_order(trace: Trace, first: int = 16) -> list[int]:
    rows = np.flatnonzero(trace.mask(OpKind.H2D))
    order = rows[np.argsort(trace["start_ns"][rows])]
    return [int(s) for s in trace["stream"][order[:first]]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    backend = CupyBackend()
    report = {}  # name -> what the run showed
    runs = []
    for name, config in CONFIGS.items():
        result, trace = measure(backend, config, runs=5)
        export_chrome(trace, args.out / f"probe-{name}.json")
        report[name] = {
            "makespan_ms": result["makespan_ms"],
            "busy_ms": result["busy_ms"],
            "host": host_costs(trace),
            "h2d_idle_ms": engine_idle_ms(trace, OpKind.H2D),
            "kernel_idle_ms": engine_idle_ms(trace, OpKind.KERNEL),
            "overlapping_kernels": overlapping_kernels(trace),
            "h2d_stream_order": h2d_stream_order(trace),
        }
        runs.append({"name": name, "config": config.to_dict(), **report[name]})
        print(name, json.dumps(report[name]), flush=True)
    (args.out / "probe.json").write_text(json.dumps({"runs": runs}, indent=1))


if __name__ == "__main__":
    main()

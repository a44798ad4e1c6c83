"""Reading a 10^6-event PyTorch profiler trace (goal: no slower than json.loads alone, under 1 GB).

Builds a Kineto-shaped file of a million events by repeating the events of the real
tests/data/torch/torch-dataloader.json.gz trace, each copy later in time (shifted exactly, as
decimals) and with new correlation and flow ids, so that every copy stays a separate run of
the loop. Then times the standard library's ``json.loads`` of the file's bytes against
`read_kineto` of the same bytes (median of three each), measures the peak memory of each in
a fresh process (the file's bytes, the interpreter and the imports included), prints the
ratios and writes benchmarks/results/kineto_import.json with the machine and the date.

    python -m benchmarks.kineto_import [--events 1000000] [--repeats 3]
"""

from __future__ import annotations

import argparse
import copy
import gzip
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from typing import Any

import msgspec

from benchmarks.machine import write_result

SOURCE = Path(__file__).resolve().parent.parent / "tests" / "data" / "torch" / "torch-dataloader.json.gz"
GOAL_RATIO = 1.0
GOAL_PEAK_BYTES = 10**9


def synthetic_trace(events: int) -> tuple[bytes, int]:
    """A Kineto trace of `events` events made of shifted copies of the real one; and how many copies."""
    document = json.loads(gzip.decompress(SOURCE.read_bytes()), parse_float=Decimal)
    originals = [e for e in document["traceEvents"] if e.get("ph") != "M"]
    header = [e for e in document["traceEvents"] if e.get("ph") == "M"]
    times = [e["ts"] for e in originals if "ts" in e]
    span = max(e["ts"] + e.get("dur", 0) for e in originals if "ts" in e) - min(times)
    ids = [e["args"]["correlation"] for e in originals if "correlation" in e.get("args", {})]
    id_step = max(ids) + 1
    replicas = -(-(events - len(header)) // len(originals))
    out = list(header)
    for replica in range(replicas):
        shift = (span + 1000) * replica
        for event in originals:
            moved = copy.copy(event)
            if "ts" in moved:
                moved["ts"] = event["ts"] + shift
            if "correlation" in event.get("args", {}):
                moved["args"] = {**event["args"], "correlation": event["args"]["correlation"] + id_step * replica}
            if event.get("cat") == "ac2g":
                moved["id"] = event["id"] + id_step * replica
            out.append(moved)
    document["traceEvents"] = out[:events]
    encoder = msgspec.json.Encoder(decimal_format="number")  # the decimals as they are, unrounded
    return encoder.encode(document), replicas


def _timed(function: Callable[[], Any], repeats: int) -> tuple[float, Any]:
    """Median seconds of `repeats` calls, and the last call's result."""
    times, result = [], None
    for _ in range(repeats):
        result = None  # the previous result freed before the next run, as in a fresh call
        begin = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - begin)
    return statistics.median(times), result


def _in_child(what: str, path: Path, events: int) -> int:
    """Run `_child` in a fresh process; the number it prints."""
    command = [sys.executable, "-m", "benchmarks.kineto_import", "--events", str(events), "--child", what, str(path)]
    done = subprocess.run(command, capture_output=True, text=True, check=True, cwd=Path(__file__).parent.parent)
    return int(done.stdout.split()[-1])


def _child(what: str, path: str, events: int) -> None:
    """Write the synthetic trace (printing its copies), or parse it and print the peak resident bytes."""
    if what == "write":
        raw, replicas = synthetic_trace(events)
        Path(path).write_bytes(raw)
        print(replicas)
        return
    from overlapviz.core.files.safe_read import read_input_bytes
    from overlapviz.importers.kineto import read_kineto

    raw = read_input_bytes(path)
    if what == "json":
        json.loads(raw)
    elif what == "kineto":
        read_kineto(raw, path)
    print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024)  # Linux gives KiB


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--events", type=int, default=10**6)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--child", nargs=2, metavar=("WHAT", "PATH"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _child(*args.child, events=args.events)
        return
    with tempfile.TemporaryDirectory() as folder:
        # Every child starts while this process is still small: a child forked from a large
        # process reports that process's peak as its own.
        path = Path(folder) / "trace.json"
        replicas = int(_in_child("write", path, args.events))
        baseline, json_peak, kineto_peak = (_in_child(how, path, args.events) for how in ("none", "json", "kineto"))
        raw = path.read_bytes()
    from overlapviz.importers.kineto import read_kineto

    json_s, parsed = _timed(lambda: json.loads(raw), args.repeats)
    del parsed
    kineto_s, activities = _timed(lambda: read_kineto(raw, "synthetic"), args.repeats)
    rows = len(activities)
    del activities
    ratio = kineto_s / json_s
    print(f"{args.events} events ({len(raw) / 1e6:.0f} MB, {replicas} copies of the dataloader trace, {rows} rows)")
    print(f"json.loads {json_s:.2f} s, read_kineto {kineto_s:.2f} s: ratio {ratio:.2f} (goal <= {GOAL_RATIO})")
    print(
        f"peak memory: bytes alone {baseline / 1e6:.0f} MB, json.loads {json_peak / 1e6:.0f} MB,"
        f" read_kineto {kineto_peak / 1e6:.0f} MB (goal < {GOAL_PEAK_BYTES / 1e6:.0f} MB)"
    )
    write_result(
        "kineto_import",
        {
            "what": "read a Kineto trace of repeated real dataloader events; read_kineto vs json.loads of its bytes",
            "events": args.events,
            "megabytes": round(len(raw) / 1e6, 1),
            "rows": rows,
            "repeats": args.repeats,
            "json_loads_median_s": round(json_s, 3),
            "read_kineto_median_s": round(kineto_s, 3),
            "ratio_to_json_loads": round(ratio, 3),
            "goal_ratio": GOAL_RATIO,
            "peak_rss_bytes_alone": baseline,
            "peak_rss_json_loads": json_peak,
            "peak_rss_read_kineto": kineto_peak,
            "goal_peak_bytes": GOAL_PEAK_BYTES,
            "load_average_1min": round(os.getloadavg()[0], 2),  # the two cores are shared: times vary with it
        },
    )


if __name__ == "__main__":
    main()

"""Reading a 10^6-event PyTorch profiler trace (goal: no slower than json.loads alone, under 1 GB).

Builds a Kineto-shaped file of a million events by repeating the events of the real
tests/data/torch/torch-dataloader.json.gz trace, each copy later in time (shifted exactly, as
decimals) and with new correlation and flow ids, so that every copy stays a separate run of
the loop. Then times the standard library's ``json.loads`` of the file's bytes against
`read_kineto` of the same bytes (in turns, until their times agree: `benchmarks.steady`),
measures the peak memory of each in a fresh process (the file's bytes, the interpreter and
the imports included), prints the ratios and writes benchmarks/results/kineto_import.json
(or into ``--out``) with the machine, its load and the date.

    python -m benchmarks.kineto_import [--events 1000000] [--tiny] [--out DIR]
"""

from __future__ import annotations

import argparse
import copy
import gzip
import json
import resource
import subprocess
import sys
import tempfile
import time
from decimal import Decimal
from pathlib import Path

import msgspec

from benchmarks.machine import RESULTS, write_result
from benchmarks.steady import LoadWatch, Steady, add_options, all_steady, max_repeats, repeat_until_steady, verdict

SOURCE = Path(__file__).resolve().parent.parent / "tests" / "data" / "torch" / "torch-dataloader.json.gz"
GOAL_RATIO = 1.0
GOAL_PEAK_BYTES = 10**9
TINY_EVENTS = 2000


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


def _in_turns(raw: bytes, cap: int) -> tuple[dict[str, Steady], int]:
    """json.loads and read_kineto of `raw` in turns until their times agree; the times and read_kineto's rows."""
    from overlapviz.importers.kineto import read_kineto

    rows = []

    def one_turn() -> dict[str, float]:
        begin = time.perf_counter()
        json.loads(raw)  # its result freed at once, as in a fresh call
        json_s = time.perf_counter() - begin
        begin = time.perf_counter()
        rows.append(len(read_kineto(raw, "synthetic")))
        return {"json_loads_s": json_s, "read_kineto_s": time.perf_counter() - begin}

    return repeat_until_steady(one_turn, max_repeats=cap), rows[-1]


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
    load = LoadWatch()
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, default=10**6)
    parser.add_argument("--child", nargs=2, metavar=("WHAT", "PATH"), help=argparse.SUPPRESS)
    add_options(parser, RESULTS)
    args = parser.parse_args()
    events = TINY_EVENTS if args.tiny else args.events
    if args.child:
        _child(*args.child, events=events)
        return
    with tempfile.TemporaryDirectory() as folder:
        # Every child starts while this process is still small: a child forked from a large
        # process reports that process's peak as its own.
        path = Path(folder) / "trace.json"
        replicas = int(_in_child("write", path, events))
        baseline, json_peak, kineto_peak = (_in_child(how, path, events) for how in ("none", "json", "kineto"))
        raw = path.read_bytes()
    found, rows = _in_turns(raw, max_repeats(args, 7))
    json_s, kineto_s = found["json_loads_s"].median, found["read_kineto_s"].median
    ratio = kineto_s / json_s
    print(f"{events} events ({len(raw) / 1e6:.0f} MB, {replicas} copies of the dataloader trace, {rows} rows)")
    print(f"json.loads {json_s:.2f} s, read_kineto {kineto_s:.2f} s: ratio {ratio:.2f} (goal <= {GOAL_RATIO})")
    print(
        f"peak memory: bytes alone {baseline / 1e6:.0f} MB, json.loads {json_peak / 1e6:.0f} MB,"
        f" read_kineto {kineto_peak / 1e6:.0f} MB (goal < {GOAL_PEAK_BYTES / 1e6:.0f} MB)"
    )
    print(verdict(found))
    write_result(
        "kineto_import",
        {
            "what": "read a Kineto trace of repeated real dataloader events; read_kineto vs json.loads of its bytes,"
            " in turns until their times agree",
            "events": events,
            "megabytes": round(len(raw) / 1e6, 1),
            "rows": rows,
            "repeats": {name: steady.summary() for name, steady in found.items()},
            **all_steady(found),
            "json_loads_median_s": round(json_s, 3),
            "read_kineto_median_s": round(kineto_s, 3),
            "ratio_to_json_loads": round(ratio, 3),
            "goal_ratio": GOAL_RATIO,
            "peak_rss_bytes_alone": baseline,
            "peak_rss_json_loads": json_peak,
            "peak_rss_read_kineto": kineto_peak,
            "goal_peak_bytes": GOAL_PEAK_BYTES,
        },
        args.out,
        load=load,
    )


if __name__ == "__main__":
    main()

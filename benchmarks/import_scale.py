"""Import and analysis of PyTorch profiler traces of 10^6 and 10^7 spans: time and peak memory.

For each size, writes a Kineto-shaped trace in which every event becomes a span (unlike
`benchmarks.kineto_import`, whose events are mostly ``cpu_op``s that are skipped): a loop
over four streams of ``cudaMemcpyAsync`` + ``Memcpy HtoD (Pinned -> Device)``,
``cudaLaunchKernel`` + a kernel and ``cudaMemcpyAsync`` + ``Memcpy DtoH (Device -> Pinned)``,
each call linked to its op by ``args.correlation``, with a ``ProfilerStep#N`` range every
thousand chunks. Then, each in a fresh process (so that its peak resident memory is its own):
reading the file, `read_kineto` of its bytes, `activities_to_trace`, and `session.analyse`
(the metrics and every finding), each step timed, and the peak memory of the whole. Up to ``--json-up-to``
spans, the standard library's ``json.loads`` of the same bytes is timed and measured too, for
the ratio the import goal is stated in (the file's read left out of both); the two take
turns until their times agree (`benchmarks.steady`), and the median times count (the peak
memory is the highest seen), so that other work on a shared machine weighs on both alike.
Prints the figures and writes benchmarks/results/import_scale.json (or into ``--out``) with
the machine, its load and the date.

    python -m benchmarks.import_scale [--spans 1000000 10000000] [--json-up-to 1000000] [--tiny] [--out DIR]
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.machine import RESULTS, write_result
from benchmarks.steady import LoadWatch, add_options, all_steady, max_repeats, repeat_until_steady, verdict

GOAL_RATIO = 1.0  # importing takes no longer than json.loads of the same bytes alone
GOAL_PEAK_BYTES_PER_MILLION = 10**9  # under 1 GB for 10^6 spans
CHUNK_EVENTS = 6  # three calls and the three ops they issue
STEP_CHUNKS = 1000
TINY_SPANS = 1200
_CALL = (
    b'{"ph":"X","cat":"cuda_runtime","name":"%s","pid":676,"tid":676,"ts":%d.%03d,"dur":%d.%03d,'
    b'"args":{"correlation":%d}}'
)
_OP = (
    b'{"ph":"X","cat":"%s","name":"%s","pid":0,"tid":%d,"ts":%d.%03d,"dur":%d.%03d,'
    b'"args":{"device":0,"stream":%d,"correlation":%d%s}}'
)
_STEP = b'{"ph":"X","cat":"user_annotation","name":"ProfilerStep#%d","pid":676,"tid":676,"ts":%d.%03d,"dur":%d.%03d}'
# (call, op category, op name, call ns, op ns, bytes) of each step of a chunk
_STEPS = (
    (b"cudaMemcpyAsync", b"gpu_memcpy", b"Memcpy HtoD (Pinned -> Device)", 4_000, 85_000, 1 << 20),
    (b"cudaLaunchKernel", b"kernel", b"scale_kernel", 3_000, 60_000, 0),
    (b"cudaMemcpyAsync", b"gpu_memcpy", b"Memcpy DtoH (Device -> Pinned)", 4_000, 80_000, 1 << 20),
)
_STREAMS = 4


def _us(ns: int) -> tuple[int, int]:
    return ns // 1000, ns % 1000


def write_trace(path: Path, spans: int) -> int:
    """Write a trace of about `spans` spans (whole chunks, plus the steps' ranges); the spans written."""
    chunks = max(1, spans // CHUNK_EVENTS)
    written = 0
    with path.open("wb") as out:
        out.write(b'{"schemaVersion":1,"deviceProperties":[{"id":0,"name":"NVIDIA H200"}],"traceEvents":[')
        host, correlation = 1_000_000, 1
        stream_free, unit_free = [0] * _STREAMS, [0] * len(_STEPS)
        parts: list[bytes] = []
        separator = b""
        for chunk in range(chunks):
            stream = chunk % _STREAMS
            if chunk % STEP_CHUNKS == 0:
                step_ns = STEP_CHUNKS * sum(call_ns + 500 for _, _, _, call_ns, _, _ in _STEPS)
                parts.append(_STEP % (chunk // STEP_CHUNKS, *_us(host), *_us(step_ns)))
                written += 1
            for unit, (call, category, name, call_ns, op_ns, nbytes) in enumerate(_STEPS):
                parts.append(_CALL % (call, *_us(host), *_us(call_ns), correlation))
                # an engine runs one op at a time: H2D engine, compute (one kernel fills the GPU), D2H engine
                begin = max(host + call_ns, stream_free[stream], unit_free[unit])
                unit_free[unit] = begin + op_ns
                size = b',"bytes":%d' % nbytes if nbytes else b""
                tid = 7 + stream  # Kineto's tid of a device op is its stream
                parts.append(_OP % (category, name, tid, *_us(begin), *_us(op_ns), tid, correlation, size))
                stream_free[stream] = begin + op_ns
                host += call_ns + 500
                correlation += 1
                written += 2
            if len(parts) >= 60_000 or chunk == chunks - 1:
                out.write(separator + b",".join(parts))
                parts, separator = [], b","
        out.write(b"]}")
    return written


def _child(what: str, path: str) -> None:
    """Do one job on the file in this fresh process; print its timings and peak memory as JSON."""
    begin = time.perf_counter()
    raw = Path(path).read_bytes()
    times: dict[str, float] = {"read_bytes_s": time.perf_counter() - begin}  # the same for both: the file's read
    result: dict[str, Any] = {}
    if what == "json":
        begin = time.perf_counter()
        json.loads(raw)
        times["json_loads_s"] = time.perf_counter() - begin
    else:
        from overlapviz.importers.kineto import read_kineto
        from overlapviz.importers.to_trace import activities_to_trace
        from overlapviz.session import analyse

        begin = time.perf_counter()
        activities = read_kineto(raw, path)
        times["read_kineto_s"] = time.perf_counter() - begin
        del raw  # a program that opened the file would let its bytes go here too
        begin = time.perf_counter()
        trace = activities_to_trace(activities)
        times["to_trace_s"] = time.perf_counter() - begin
        del activities
        begin = time.perf_counter()
        analysis = analyse(trace)
        times["analyse_s"] = time.perf_counter() - begin
        result = {"spans": len(trace), "findings": [f.code for f in analysis.findings]}
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # Linux gives KiB
    print(json.dumps({**times, **result, "peak_rss_bytes": peak}))


def _in_child(what: str, path: Path) -> dict[str, Any]:
    command = [sys.executable, "-m", "benchmarks.import_scale", "--child", what, str(path)]
    done = subprocess.run(command, capture_output=True, text=True, check=True, cwd=Path(__file__).parent.parent)
    result: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return result


def _typical(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The median of each time over `runs`, the highest peak memory, the rest as the first run had it."""
    typical = dict(runs[0])
    for key in runs[0]:
        if key.endswith("_s"):
            typical[key] = statistics.median(run[key] for run in runs)
        elif key.endswith("_bytes"):
            typical[key] = max(run[key] for run in runs)
    return typical


def measure(spans: int, with_json: bool, folder: Path, cap: int) -> dict[str, Any]:
    """Write one trace and measure its import and analysis (and json.loads, if asked, in turns with it)."""
    path = folder / f"trace-{spans}.json"
    begin = time.perf_counter()
    written = write_trace(path, spans)
    print(f"{written:,} spans written ({path.stat().st_size / 1e6:,.0f} MB) in {time.perf_counter() - begin:.0f} s")
    runs: dict[str, list[dict[str, Any]]] = {"overlapviz": [], "json": []}

    def one_turn() -> dict[str, float]:
        ours = _in_child("overlapviz", path)
        ours["import_s"] = ours["read_kineto_s"] + ours["to_trace_s"]
        ours["import_and_analyse_s"] = ours["import_s"] + ours["analyse_s"]
        ours["open_s"] = ours["read_bytes_s"] + ours["import_and_analyse_s"]  # what a user waits for
        runs["overlapviz"].append(ours)
        if not with_json:
            return {"open_s": ours["open_s"]}
        runs["json"].append(_in_child("json", path))
        return {"open_s": ours["open_s"], "json_loads_s": runs["json"][-1]["json_loads_s"]}

    found = repeat_until_steady(one_turn, max_repeats=cap)
    ours = _typical(runs["overlapviz"])
    row: dict[str, Any] = {"spans_in_file": written, "megabytes": round(path.stat().st_size / 1e6, 1),
                           "runs": len(runs["overlapviz"])}  # fmt: skip
    row.update({key: round(value, 3) if isinstance(value, float) else value for key, value in ours.items()})
    if with_json:
        theirs = _typical(runs["json"])
        row["json_loads_s"] = round(theirs["json_loads_s"], 3)
        row["json_loads_peak_rss_bytes"] = theirs["peak_rss_bytes"]
        row["import_to_json_loads_ratio"] = round(ours["import_s"] / theirs["json_loads_s"], 3)
    row["repeats"] = {name: steady.summary() for name, steady in found.items()}
    row.update(all_steady(found))
    path.unlink()
    _report(row)
    print(f"  {verdict(found)}")
    return row


def _report(row: dict[str, Any]) -> None:
    print(
        f"  read the file {row['read_bytes_s']:.2f} s, read_kineto {row['read_kineto_s']:.2f} s,"
        f" to trace {row['to_trace_s']:.2f} s, analyse"
        f" {row['analyse_s']:.2f} s: open {row['open_s']:.2f} s; peak {row['peak_rss_bytes'] / 1e6:,.0f} MB"
        f" (goal < {GOAL_PEAK_BYTES_PER_MILLION * row['spans_in_file'] / 1e6 / 1e6:,.0f} MB)"
    )
    if "json_loads_s" in row:
        print(
            f"  json.loads alone {row['json_loads_s']:.2f} s, peak {row['json_loads_peak_rss_bytes'] / 1e6:,.0f} MB:"
            f" import / json.loads {row['import_to_json_loads_ratio']:.2f} (goal <= {GOAL_RATIO})"
        )


def main() -> None:
    load = LoadWatch()
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--spans", type=int, nargs="+", default=[10**6, 10**7])
    parser.add_argument("--json-up-to", type=int, default=10**6, help="time json.loads for files up to this many spans")
    parser.add_argument("--child", nargs=2, metavar=("WHAT", "PATH"), help=argparse.SUPPRESS)
    add_options(parser, RESULTS)
    args = parser.parse_args()
    if args.child:
        _child(*args.child)
        return
    sizes, json_up_to = ([TINY_SPANS], TINY_SPANS) if args.tiny else (args.spans, args.json_up_to)
    with tempfile.TemporaryDirectory() as folder:
        rows = [measure(spans, spans <= json_up_to, Path(folder), max_repeats(args, 5)) for spans in sizes]
    write_result(
        "import_scale",
        {
            "what": "read the file + read_kineto + activities_to_trace + session.analyse of a Kineto trace whose"
            " every event is a span (calls and the copies and kernels they issue); each run in a fresh process;"
            " with json.loads, the two in turns, repeated until they agree; median times and the highest peak",
            "goal_ratio_to_json_loads": GOAL_RATIO,
            "goal_peak_bytes_per_million_spans": GOAL_PEAK_BYTES_PER_MILLION,
            "sizes": rows,
            "spread_ok": all(row["spread_ok"] for row in rows),
        },
        args.out,
        load=load,
    )


if __name__ == "__main__":
    main()

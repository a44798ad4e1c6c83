"""Opening a very large PyTorch profiler trace: the whole open's time and its peak memory.

Writes a synthetic Kineto trace of N events (host ops, the CUDA calls they make, the kernels
and copies those launch, each call and its device op sharing a correlation id), plain or
gzip, a piece at a time so that the writer itself stays small, into a temporary folder. Then
runs ``overlapviz analyze FILE --json`` in a fresh process and reports its time and its peak
resident memory (``ru_maxrss`` of the child: the file's bytes, the interpreter and the
imports included). The file is deleted at the end, whatever happens.

Goals: 10^7 events (about 2 GB) open in no process over 4 GB, 2 x 10^6 in none over 1.5 GB.
Mind the memory of the machine before asking for 10^7 events: json.load alone would need
about 10 GB for them.

    python -m benchmarks.big_kineto [--events 2000000] [--gzip] [--tiny] [--out DIR]
"""

from __future__ import annotations

import argparse
import gzip
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from benchmarks.machine import RESULTS, write_result
from benchmarks.steady import LoadWatch, add_options

TINY_EVENTS = 2000
PIECE_EVENTS = 50_000  # events written at once: a few MB of text
BASE_NS = 1_790_857_026_000_000_000
HEADER = (
    b"""{
  "schemaVersion": 1,
  "deviceProperties": [{"id": 0, "name": "NVIDIA H200", "totalGlobalMem": 150109880320}],
  "cuda_driver_version": 13000,
  "cuda_runtime_version": 13000,
  "baseTimeNanoseconds": %d,
  "traceEvents": [
"""
    % BASE_NS
)
FOOTER = b'\n  ],\n  "displayTimeUnit": "ms"\n}\n'
GOAL_PEAK_BYTES = {2 * 10**6: 1.5e9, 10**7: 4e9}


def _op(index: int, at: float) -> str:
    return (
        '  {\n    "ph": "X", "cat": "cpu_op", "name": "aten::linear", "pid": 676, "tid": 676,\n'
        f'    "ts": {at:.3f}, "dur": 6.690,\n'
        f'    "args": {{"External id": {index}, "Record function id": 0, "Ev Idx": {index}}}\n  }}'
    )


def _call(index: int, at: float, name: str) -> str:
    return (
        f'  {{\n    "ph": "X", "cat": "cuda_runtime", "name": "{name}", "pid": 676, "tid": 676,\n'
        f'    "ts": {at:.3f}, "dur": 4.102,\n'
        f'    "args": {{"External id": {index}, "cbid": 211, "correlation": {index}}}\n  }}'
    )


def _device_op(index: int, at: float, copy: bool) -> str:
    cat, name, size = ("gpu_memcpy", "Memcpy HtoD (Pinned -> Device)", 1048576) if copy else ("kernel", "gemm", 0)
    return (
        f'  {{\n    "ph": "X", "cat": "{cat}", "name": "{name}", "pid": 0, "tid": 7,\n'
        f'    "ts": {at:.3f}, "dur": 12.197,\n'
        f'    "args": {{"External id": {index}, "device": 0, "stream": 7, "correlation": {index},'
        f' "bytes": {size}}}\n  }}'
    )


def events_text(events: int) -> Iterator[bytes]:
    """The trace's events as JSON text, `PIECE_EVENTS` at a time; every fourth a host op, then a call and its op."""
    for first in range(0, events, PIECE_EVENTS):
        texts = []
        for number in range(first, min(first + PIECE_EVENTS, events)):
            group, place = divmod(number, 3)
            at = 1_000_000.0 + group * 20.0
            copy = group % 8 == 0
            if place == 0:
                texts.append(_op(group, at))
            elif place == 1:
                texts.append(_call(group, at + 1, "cudaMemcpyAsync" if copy else "cudaLaunchKernel"))
            else:
                texts.append(_device_op(group, at + 8, copy))
        yield (b"" if first == 0 else b",\n") + ",\n".join(texts).encode()


def write_trace(path: Path, events: int, compressed: bool) -> int:
    """Write the synthetic trace of `events` events to `path`; its size on disk."""
    with path.open("wb") as plain:
        stream: BinaryIO = gzip.GzipFile(fileobj=plain, mode="wb", compresslevel=1) if compressed else plain
        stream.write(HEADER)
        for piece in events_text(events):
            stream.write(piece)
        stream.write(FOOTER)
        if compressed:
            stream.close()
    return path.stat().st_size


def open_in_child(path: Path) -> tuple[float, int, str]:
    """Run ``overlapviz analyze PATH --json`` in a fresh process: its seconds, its peak bytes and its output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    begin = time.perf_counter()
    command = [sys.executable, "-m", "overlapviz", "analyze", str(path), "--json"]
    done = subprocess.run(command, capture_output=True, text=True, check=False, cwd=Path(__file__).parent.parent)
    seconds = time.perf_counter() - begin
    if done.returncode != 0:
        raise SystemExit(f"overlapviz analyze failed ({done.returncode}): {done.stderr[-2000:]}")
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    if peak <= before:  # a child smaller than the largest before it: ru_maxrss cannot tell it apart
        print("note: the peak shown is that of an earlier, larger child", file=sys.stderr)
    return seconds, peak * 1024, done.stdout  # Linux gives KiB


def main() -> None:
    load = LoadWatch()
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, default=2 * 10**6)
    parser.add_argument("--gzip", action="store_true", help="write the trace gzip-compressed")
    add_options(parser, RESULTS)
    args = parser.parse_args()
    events = TINY_EVENTS if args.tiny else args.events
    with tempfile.TemporaryDirectory(dir="/tmp") as folder:
        path = Path(folder) / ("trace.json.gz" if args.gzip else "trace.json")
        begin = time.perf_counter()
        size = write_trace(path, events, args.gzip)
        print(f"wrote {events} events, {size / 1e6:.0f} MB{' gzip' if args.gzip else ''}, in"
              f" {time.perf_counter() - begin:.1f} s")  # fmt: skip
        seconds, peak, _output = open_in_child(path)
    goal = GOAL_PEAK_BYTES.get(events)
    print(f"overlapviz analyze: {seconds:.1f} s, peak memory {peak / 1e6:.0f} MB"
          + (f" (goal < {goal / 1e6:.0f} MB)" if goal else ""))  # fmt: skip
    write_result(
        "big_kineto",
        {
            "what": "overlapviz analyze --json of a synthetic Kineto trace, in a fresh process: its time and peak RSS",
            "events": events,
            "gzip": args.gzip,
            "file_megabytes": round(size / 1e6, 1),
            "seconds": round(seconds, 2),
            "peak_rss_bytes": peak,
            "goal_peak_bytes": goal,
            "spread_ok": False,  # one open, not repeated: its time is not shown to be steady
        },
        args.out,
        load=load,
    )


if __name__ == "__main__":
    main()

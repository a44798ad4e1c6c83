"""Opening a very large PyTorch profiler trace: the whole open's time against json.load, and its peak memory.

Writes a synthetic Kineto trace of N events (host ops, the CUDA calls they make, the kernels
and copies those launch, each call and its device op sharing a correlation id), plain or
gzip, a piece at a time so that the writer itself stays small, into a temporary folder. Then,
in turns (json.load, render, json.load, render, ...) until the times agree
(`benchmarks.steady`), each in a fresh process:

- ``overlapviz render FILE -o OUT.png``: the app's open path without a window, read,
  analysed and drawn;
- the standard library's ``json.load`` of the same file (gzip opened with `gzip.open`).

Each process's peak resident memory is its own or that of any process it waited for, whichever
is larger (``wait4``'s ``ru_maxrss``): a reader in a child process counts. The result gives the
median time of each, their ratio, the largest peak of each, and the load. A first render of a
tiny trace, untimed, lets Python write its bytecode caches, as an installed app has them.
The file is deleted at the end, whatever happens.

Goals: 2 x 10^6 events read, analysed and drawn in at most 0.5 x json.load's time, no process
over 1.5 GB; 10^7 events (about 2 GB) in no process over 4 GB. Mind the memory of the machine
before asking for 10^7 events: json.load alone needs about 10 GB for them (``--no-json``
leaves it out and times the render alone).

    python -m benchmarks.big_kineto [--events 2000000] [--gzip] [--no-json] [--tiny] [--max-repeats N] [--out DIR]
"""

from __future__ import annotations

import argparse
import gzip
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO

from benchmarks.machine import RESULTS, write_result
from benchmarks.steady import LoadWatch, Steady, add_options, all_steady, max_repeats, repeat_until_steady, verdict

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
GOAL_RATIO = 0.5  # render / json.load, for 2 x 10^6 events
ROOT = Path(__file__).resolve().parent.parent
JSON_LOAD = (
    "import gzip, json, sys\n"
    "path = sys.argv[1]\n"
    "with open(path, 'rb') as head:\n"
    "    packed = head.read(2) == b'\\x1f\\x8b'\n"
    "with (gzip.open(path, 'rb') if packed else open(path, 'rb')) as stream:\n"
    "    json.load(stream)\n"
)


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


def timed_child(command: list[str]) -> tuple[float, float, int]:
    """Run `command` in a fresh process: its seconds, its CPU seconds and its peak bytes.

    CPU seconds and peak count the processes it waited for too; on a busy machine the CPU
    time says more than the wall-clock time, which also counts the waits for a core.
    """
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # an installed app has its bytecode cached
    with tempfile.TemporaryFile() as errors:
        begin = time.perf_counter()
        child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=errors, cwd=ROOT, env=env)
        _pid, status, usage = os.wait4(child.pid, 0)
        seconds = time.perf_counter() - begin
        child.returncode = os.waitstatus_to_exitcode(status)
        if child.returncode != 0:
            errors.seek(0)
            said = errors.read()[-2000:].decode(errors="replace")
            raise SystemExit(f"{' '.join(command[:4])} failed ({child.returncode}): {said}")
    return seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024  # Linux gives KiB


def render_command(trace: Path, picture: Path) -> list[str]:
    """``overlapviz render TRACE -o PICTURE``, as this Python runs it."""
    return [sys.executable, "-m", "overlapviz", "render", str(trace), "-o", str(picture)]


def measure(path: Path, folder: Path, with_json: bool, repeats: int) -> tuple[dict[str, Steady], dict[str, int]]:
    """Render and json.load of `path` in turns until steady: the timings and each one's largest peak."""
    picture = folder / "trace.png"
    peaks: dict[str, int] = {}

    def one_turn() -> dict[str, float]:
        times: dict[str, float] = {}
        runs = {"render_s": render_command(path, picture)}
        if with_json:
            runs = {"json_load_s": [sys.executable, "-c", JSON_LOAD, str(path)], **runs}
        for name, command in runs.items():
            times[name], times[f"{name[:-2]}_cpu_s"], peak = timed_child(command)
            peaks[name[:-2]] = max(peaks.get(name[:-2], 0), peak)
        if with_json:
            times["ratio"] = times["render_s"] / times["json_load_s"]
            times["cpu_ratio"] = times["render_cpu_s"] / times["json_load_cpu_s"]
        return times

    return repeat_until_steady(one_turn, max_repeats=repeats), peaks


def _warm_up(folder: Path) -> None:
    """Render a tiny trace once, untimed, so that Python's bytecode caches are written."""
    tiny = folder / "tiny.json"
    write_trace(tiny, TINY_EVENTS, compressed=False)
    timed_child(render_command(tiny, folder / "tiny.png"))


def _repeated(found: dict[str, Steady]) -> bool:
    """Whether every timing was taken more than once: one sample has no spread to judge."""
    return all(len(steady.values) > 1 for steady in found.values())


def _report(events: int, found: dict[str, Steady], peaks: dict[str, int]) -> None:
    goal = GOAL_PEAK_BYTES.get(events)
    for name, steady in found.items():
        unit = "" if name.endswith("ratio") else " s"
        print(f"{name:15} median {steady.median:.2f}{unit} (spread {steady.spread:.0%}, {len(steady.values)} runs)")
    for name, peak in peaks.items():
        shown = f" (goal < {goal / 1e6:.0f} MB)" if goal and name == "render" else ""
        print(f"{name:15} peak memory {peak / 1e6:.0f} MB{shown}")
    print(verdict(found) if _repeated(found) else "one run: not shown to be steady")


def main() -> None:
    load = LoadWatch()
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, default=2 * 10**6)
    parser.add_argument("--gzip", action="store_true", help="write the trace gzip-compressed")
    parser.add_argument(
        "--no-json", action="store_true", help="time the render alone (json.load of 10^7 events needs ~10 GB)"
    )
    add_options(parser, RESULTS)
    args = parser.parse_args()
    events = TINY_EVENTS if args.tiny else args.events
    with tempfile.TemporaryDirectory(dir="/tmp") as name:
        folder = Path(name)
        path = folder / ("trace.json.gz" if args.gzip else "trace.json")
        begin = time.perf_counter()
        size = write_trace(path, events, args.gzip)
        print(f"wrote {events} events, {size / 1e6:.0f} MB{' gzip' if args.gzip else ''}, in"
              f" {time.perf_counter() - begin:.1f} s")  # fmt: skip
        _warm_up(folder)
        found, peaks = measure(path, folder, not args.no_json, max_repeats(args))
    _report(events, found, peaks)
    result: dict[str, Any] = {
        "what": "overlapviz render (read, analyse, draw) of a synthetic Kineto trace against json.load of the"
        " same file, each in a fresh process, in turns: times, their ratio, and each one's peak RSS",
        "events": events,
        "gzip": args.gzip,
        "file_megabytes": round(size / 1e6, 1),
        **{name: steady.summary(3) for name, steady in found.items()},
        "peak_rss_bytes": peaks,
        "goal_peak_bytes": GOAL_PEAK_BYTES.get(events),
        "goal_ratio": GOAL_RATIO if events == 2 * 10**6 else None,
        **all_steady(found),
        **({} if _repeated(found) else {"spread_ok": False}),  # one run shows no spread
    }
    # the goal's size (and --tiny, its check) keeps the plain name; another size is a result of its own
    name = "big_kineto" if args.tiny or events == 2 * 10**6 else f"big_kineto_{events}"
    write_result(name, result, args.out, load=load)


if __name__ == "__main__":
    main()

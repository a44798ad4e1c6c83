"""What the host calls of a two-GPU pipeline cost, as far as one GPU can measure them.

Run on the GPU machine from the repository root (device pack sourced):

    python3 benchmarks/h200_device_calls.py --out DIR

Writes DIR/h200_device_calls.json (and benchmarks/results/ when ``--out`` is left out):

- ``calls``: per host call the two-GPU model issues besides copies and kernels
  (``cudaSetDevice``, ``cudaEventRecord``, ``cudaStreamWaitEvent``), the median and the 10th
  and 90th percentiles of its time inside the call as CUPTI's runtime records give it, the
  same figure the model's ``memcpy_call_us`` and ``launch_call_us`` come from, over `CALLS`
  calls each, and the median time per call from Python (the call and CuPy's wrapper) with
  nothing recording, which can come out below CUPTI's: recording slows each call a little.
  With one GPU ``cudaSetDevice`` can only select the device already current: a switch to
  another GPU may cost more, and is not measured here.
- ``portable``: one buffer from ``cudaHostAlloc(n, cudaHostAllocPortable)`` against one from
  ``cudaHostAlloc(n, 0)`` (cudaMallocHost): the allocation's milliseconds (median of `REPEATS`)
  and the H2D and D2H rates of one copy of the whole buffer (CUDA events, median of `REPEATS`). On one GPU the
  flag can change nothing the copies see; the figures say whether it costs anything.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.machine import RESULTS, write_result

CALLS = 5000
REPEATS = 7
PORTABLE_BYTES = 256 * 1024 * 1024
HOST_ALLOC_PORTABLE = 1  # cudaHostAllocPortable in cuda_runtime_api.h
NAMES = ("cudaSetDevice", "cudaEventRecord", "cudaStreamWaitEvent")


def _python_us(call: Callable[[], Any]) -> float:
    """Median microseconds per call of `call`, from Python, over blocks of 100 calls."""
    blocks = []
    for _ in range(CALLS // 100):
        begin = time.perf_counter()
        for _ in range(100):
            call()
        blocks.append((time.perf_counter() - begin) * 1e4)  # s per 100 calls -> us per call
    return statistics.median(blocks)


def _calls(cupy: Any) -> dict[str, dict[str, float]]:
    """CUPTI's in-call times and Python's per-call times of each host call in `NAMES`."""
    from overlapviz.record_block import record

    runtime = cupy.cuda.runtime
    stream = cupy.cuda.Stream(non_blocking=True)
    event = cupy.cuda.Event(disable_timing=True)
    work: dict[str, Callable[[], Any]] = {
        "cudaSetDevice": lambda: runtime.setDevice(0),
        "cudaEventRecord": lambda: runtime.eventRecord(event.ptr, stream.ptr),
        "cudaStreamWaitEvent": lambda: runtime.streamWaitEvent(stream.ptr, event.ptr, 0),
    }
    scratch = cupy.zeros(1024, dtype=cupy.float32)
    with record("h200_device_calls") as rec:
        scratch += 1  # one kernel, so the recording holds device work as well as calls
        for call in work.values():
            for _ in range(CALLS):
                call()
        stream.synchronize()
    activities = rec.activities
    duration = (activities["end_ns"] - activities["start_ns"]) / 1e3
    names = np.array(activities.names, dtype=object)[activities["name"]]
    found: dict[str, dict[str, float]] = {}
    for name in NAMES:
        inside = duration[names == name]
        if not inside.size:
            raise SystemExit(f"CUPTI recorded no {name} call; names seen: {sorted(set(activities.names))}")
        found[name] = {
            "recorded": int(inside.size),
            "cupti_median_us": float(np.median(inside)),
            "cupti_p10_us": float(np.percentile(inside, 10)),
            "cupti_p90_us": float(np.percentile(inside, 90)),
            "python_median_us": _python_us(work[name]),
        }
    return found


def _copy_gbps(cupy: Any, host: int, device: Any, to_device: bool) -> float:
    """GB/s (1e9 bytes/s) of one copy of the whole buffer, median of `REPEATS`, by CUDA events."""
    runtime = cupy.cuda.runtime
    stream = cupy.cuda.Stream(non_blocking=True)
    kind = runtime.memcpyHostToDevice if to_device else runtime.memcpyDeviceToHost
    dst, src = (device.data.ptr, host) if to_device else (host, device.data.ptr)
    times = []
    for _ in range(REPEATS):
        begin, end = cupy.cuda.Event(), cupy.cuda.Event()
        begin.record(stream)
        runtime.memcpyAsync(dst, src, PORTABLE_BYTES, kind, stream.ptr)
        end.record(stream)
        end.synchronize()
        times.append(cupy.cuda.get_elapsed_time(begin, end))
    return float(PORTABLE_BYTES / (statistics.median(times) * 1e-3) / 1e9)


def _portable(cupy: Any) -> dict[str, dict[str, float]]:
    """Allocation time and copy rates of a portable pinned buffer and of a plain pinned one.

    The two kinds are allocated in turn, `REPEATS` times each, so that neither is always the
    first to ask the OS for fresh pages; the copies are timed on the last buffer of each.
    """
    runtime = cupy.cuda.runtime
    device = cupy.empty(PORTABLE_BYTES, dtype=cupy.uint8)
    kinds = {"cudaMallocHost": 0, "cudaHostAllocPortable": HOST_ALLOC_PORTABLE}
    alloc_ms: dict[str, list[float]] = {label: [] for label in kinds}
    found = {}
    for repeat in range(REPEATS):
        for label, flags in kinds.items():
            begin = time.perf_counter()
            host = runtime.hostAlloc(PORTABLE_BYTES, flags)
            alloc_ms[label].append((time.perf_counter() - begin) * 1e3)
            try:
                if repeat == REPEATS - 1:
                    found[label] = {
                        "alloc_ms": statistics.median(alloc_ms[label]),
                        "h2d_gbps": _copy_gbps(cupy, host, device, to_device=True),
                        "d2h_gbps": _copy_gbps(cupy, host, device, to_device=False),
                    }
            finally:
                runtime.freeHost(host)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=RESULTS, help="folder for h200_device_calls.json")
    args = parser.parse_args()
    import cupy

    result = {
        "gpu": cupy.cuda.runtime.getDeviceProperties(0)["name"].decode(),
        "devices_visible": cupy.cuda.runtime.getDeviceCount(),
        "calls_each": CALLS,
        "calls": _calls(cupy),
        "portable_bytes": PORTABLE_BYTES,
        "portable": _portable(cupy),
    }
    for name, call in result["calls"].items():
        print(f"{name:22} CUPTI median {call['cupti_median_us']:.2f} us, Python {call['python_median_us']:.2f} us")
    for label, buffer in result["portable"].items():
        rates = f"H2D {buffer['h2d_gbps']:.1f}, D2H {buffer['d2h_gbps']:.1f} GB/s"
        print(f"{label:22} alloc {buffer['alloc_ms']:.1f} ms, {rates}")
    write_result("h200_device_calls", result, args.out)


if __name__ == "__main__":
    main()

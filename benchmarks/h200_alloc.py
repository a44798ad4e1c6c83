"""What getting and giving back host memory costs on the GPU machine, by size.

Run on the GPU machine from the repository root:

    python3 benchmarks/h200_alloc.py --out DIR

Writes DIR/h200_alloc.json: per size (64 MiB to 4 GiB) the median over a few repeats, in ms,
of each call the simulated model's per-run allocation charges for:

- pinned: ``cudaMallocHost`` (``cupy.cuda.runtime.hostAlloc(n, 0)``) and ``cudaFreeHost``;
- pageable: ``malloc`` (``np.empty``), the first touch by the host (one write per 4 KiB
  page, and a full ``fill``), and ``free`` of the touched buffer (dropping the array);
- registered: ``cudaHostRegister`` and ``cudaHostUnregister`` on a touched buffer.

The shared reference (``shared/reference/h200/alloc.json``) has all but ``free`` and
``cudaHostUnregister``; this script measures those too, and the others again beside them.
"""

from __future__ import annotations

import argparse
import datetime
import gc
import json
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

MIB = 1024 * 1024
SIZES = (64 * MIB, 256 * MIB, 1024 * MIB, 4096 * MIB)
PAGE = 4096


def timed(call: Callable[[], Any]) -> tuple[float, Any]:
    """Milliseconds `call` took, and what it returned."""
    begin = time.perf_counter()
    value = call()
    return (time.perf_counter() - begin) * 1e3, value


def pinned(cupy: Any, n: int) -> dict[str, float]:
    alloc_ms, pointer = timed(lambda: cupy.cuda.runtime.hostAlloc(n, 0))
    free_ms, _ = timed(lambda: cupy.cuda.runtime.freeHost(pointer))
    return {"mallocHost_ms": alloc_ms, "freeHost_ms": free_ms}


def pageable(n: int) -> dict[str, float]:
    held: dict[str, np.ndarray] = {}
    empty_ms, held["a"] = timed(lambda: np.empty(n, dtype=np.uint8))
    touch_ms, _ = timed(lambda: held["a"][::PAGE].fill(1))
    fill_ms, _ = timed(lambda: held["a"].fill(0))  # pages present now: memory bandwidth only
    free_ms = _drop(held, "a")
    empty2_ms, held["b"] = timed(lambda: np.empty(n, dtype=np.uint8))
    fill_fresh_ms, _ = timed(lambda: held["b"].fill(1))  # fault and write every byte
    _drop(held, "b")
    held["c"] = np.empty(n, dtype=np.uint8)
    free_untouched_ms = _drop(held, "c")
    return {
        "np_empty_ms": (empty_ms + empty2_ms) / 2,
        "touch_per_page_ms": touch_ms,
        "fill_fresh_ms": fill_fresh_ms,
        "fill_present_ms": fill_ms,
        "free_touched_ms": free_ms,
        "free_untouched_ms": free_untouched_ms,
    }


def registered(cupy: Any, n: int) -> dict[str, float]:
    held = {"a": np.empty(n, dtype=np.uint8)}
    held["a"][::PAGE].fill(1)
    pointer = held["a"].ctypes.data
    register_ms, _ = timed(lambda: cupy.cuda.runtime.hostRegister(pointer, n, 0))
    unregister_ms, _ = timed(lambda: cupy.cuda.runtime.hostUnregister(pointer))
    _drop(held, "a")
    return {"hostRegister_ms": register_ms, "hostUnregister_ms": unregister_ms}


def _drop(held: dict[str, np.ndarray], key: str) -> float:
    """Time dropping the only reference to a buffer: numpy frees it (munmap for large ones)."""
    gc.collect()

    def drop() -> None:
        del held[key]

    ms, _ = timed(drop)
    return ms


def measure(size: int, repeats: int, cupy: Any) -> dict[str, Any]:
    runs = [{**pinned(cupy, size), **pageable(size), **registered(cupy, size)} for _ in range(repeats)]
    medians = {key: statistics.median(run[key] for run in runs) for key in runs[0]}
    return {"size": size, **medians, "runs": runs}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    import cupy

    cupy.cuda.runtime.freeHost(cupy.cuda.runtime.hostAlloc(MIB, 0))  # create the context outside the timing
    results = [measure(size, args.repeats, cupy) for size in SIZES]
    record = {
        "date": datetime.date.today().isoformat(),
        "device": cupy.cuda.runtime.getDeviceProperties(0)["name"].decode(),
        "what": "host allocation costs, median of repeats, ms",
        "repeats": args.repeats,
        "meminfo": Path("/proc/meminfo").read_text().splitlines()[:3],
        "results": results,
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "h200_alloc.json").write_text(json.dumps(record, indent=1) + "\n")
    for row in results:
        shown = {k: round(v, 2) for k, v in row.items() if k not in ("size", "runs")}
        print(row["size"] // MIB, "MiB", shown)


if __name__ == "__main__":
    main()

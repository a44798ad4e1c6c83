"""Soak the CuPy backend: many mixed runs, some cancelled, then out of device memory and back.

Run on the GPU machine (repository root, after ``source .devicepkgs/activate``):

    python3 benchmarks/h200_soak.py --out DIR [--runs 1000]

Each run draws a size (16 to 128 MiB), a host memory kind, chunks and streams; about one in
ten is cancelled from another thread a few milliseconds in. After every run it records what
the backend keeps for reuse (pinned, pageable and device bytes) and the device memory in use
(``cudaMemGetInfo``), and checks the bound: the pool holds no more than the run just made
needs (two host buffers and one device buffer of its size, plus a 4 KiB scratch buffer).
Then it fills the GPU's memory from outside, asks for a run (a clear error is expected),
lets the memory go and runs again (it must work); and asks for a pageable run whose host
buffers cannot fit the RAM (refused at once). Writes DIR/h200_soak.json.
"""

from __future__ import annotations

import argparse
import datetime
import json
import platform
import random
import threading
import time
from pathlib import Path
from typing import Any

from overlapviz.backends.cupy import CupyBackend
from overlapviz.core.cancel import CancelToken
from overlapviz.core.config import MIB, HostMemory, PipelineConfig
from overlapviz.core.run_errors import BackendError, RunCancelled

SIZES_MIB = (16, 24, 32, 48, 64, 96, 128)
KINDS = (HostMemory.PINNED, HostMemory.PAGEABLE, HostMemory.REGISTERED)
CANCEL_SHARE = 0.1
SCRATCH_SLACK = 64 * 1024  # the pinned scratch buffer and rounding
TIME_LIMIT_S = 240  # the device machine's time is lent by the minute


def device_used() -> int:
    import cupy  # here, not at the top: --help works on a machine without a GPU

    free, total = cupy.cuda.runtime.memGetInfo()
    return int(total - free)


def one_run(backend: CupyBackend, rng: random.Random) -> dict[str, Any]:
    size = rng.choice(SIZES_MIB) * MIB
    config = PipelineConfig(size_bytes=size, memory=rng.choice(KINDS), chunks=rng.choice((4, 8, 16, 32)),
                            streams=rng.choice((1, 2, 4, 8)))
    token = CancelToken()
    cancelled = rng.random() < CANCEL_SHARE
    if cancelled:
        threading.Timer(rng.uniform(0.0005, 0.01), token.cancel).start()
    outcome = "ok"
    try:
        backend.run(config, cancel=token)
    except RunCancelled:
        outcome = "cancelled"
    except BackendError as error:
        outcome = f"error: {error}"
    held = backend.held_bytes()
    return {
        "size_mib": size // MIB, "memory": config.memory.value, "chunks": config.chunks, "streams": config.streams,
        "outcome": outcome, "pinned": held.pinned, "pageable": held.pageable, "device_pool": held.device,
        "device_used": device_used(),
        "within_bound": held.pinned <= 2 * size + SCRATCH_SLACK and held.pageable <= 2 * size and held.device <= size,
    }


def out_of_memory(backend: CupyBackend) -> dict[str, Any]:
    """Fill the device from outside the backend; a run must fail cleanly, and work once memory is back."""
    import cupy

    backend.release_buffers()
    free, _ = cupy.cuda.runtime.memGetInfo()
    hog = cupy.empty(int(free) - 64 * MIB, dtype=cupy.uint8)  # leave less than one 256 MiB buffer
    try:
        backend.run(PipelineConfig())
        first = "ran (no error)"
    except BackendError as error:
        first = f"error: {error}"
    del hog
    cupy.get_default_memory_pool().free_all_blocks()
    try:
        backend.run(PipelineConfig())
        second = "ok"
    except BackendError as error:
        second = f"error: {error}"
    return {"with_the_gpu_full": first, "after": second}


def host_guard(backend: CupyBackend) -> dict[str, Any]:
    """A pageable run whose two 64 GiB host buffers do not fit this machine's RAM: refused at once."""
    started = time.perf_counter()
    try:
        backend.run(PipelineConfig(size_bytes=64 * 1024 * MIB, memory=HostMemory.PAGEABLE, chunks=64))
        outcome = "ran (no refusal)"
    except BackendError as error:
        outcome = f"error: {error}"
    return {"pageable_64_gib": outcome, "seconds": round(time.perf_counter() - started, 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--runs", type=int, default=1000)
    args = parser.parse_args()
    import cupy

    rng = random.Random(20261201)
    backend = CupyBackend()
    baseline = device_used()
    started = time.perf_counter()
    runs = []
    for _ in range(args.runs):
        runs.append(one_run(backend, rng))
        if time.perf_counter() - started > TIME_LIMIT_S:
            break
    soak_s = time.perf_counter() - started
    first_used = runs[0]["device_used"]
    oom = out_of_memory(backend)
    guard = host_guard(backend)
    backend.close()
    outcomes: dict[str, int] = {}
    for run in runs:
        key = run["outcome"] if not run["outcome"].startswith("error") else "error"
        outcomes[key] = outcomes.get(key, 0) + 1
    result = {
        "date": datetime.date.today().isoformat(),
        "machine": {"gpu": cupy.cuda.runtime.getDeviceProperties(0)["name"].decode(), "host": platform.node(),
                    "python": platform.python_version(), "cupy": cupy.__version__},
        "method": __doc__.strip().splitlines()[0],
        "runs": len(runs), "seconds": round(soak_s, 1), "outcomes": outcomes,
        "all_within_bound": all(run["within_bound"] for run in runs),
        "pinned_max_mib": max(run["pinned"] for run in runs) / MIB,
        "pinned_after_last_mib": runs[-1]["pinned"] / MIB,
        "device_used_baseline_mib": baseline / MIB,
        "device_used_after_first_run_mib": first_used / MIB,
        "device_used_max_mib": max(run["device_used"] for run in runs) / MIB,
        "device_used_after_last_run_mib": runs[-1]["device_used"] / MIB,
        "last_run": runs[-1],
        "errors": sorted({run["outcome"] for run in runs if run["outcome"].startswith("error")})[:5],
        "out_of_memory": oom,
        "host_ram_guard": guard,
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "h200_soak.json").write_text(json.dumps(result, indent=1) + "\n")
    print(json.dumps({k: v for k, v in result.items() if k != "last_run"}, indent=1))


if __name__ == "__main__":
    main()

"""Calibrate this machine's GPU, then hold the calibrated model against the real backend.

Run on the GPU machine from the repository root (with the device pack sourced):

    python3 benchmarks/calibrate_check.py --out DIR

Runs ``overlapviz calibrate -o DIR/calibrated_h200.toml``, then, back to back, the default
pipeline with pinned and with pageable memory on the model with that profile and on the real
backend (median of 7 runs after 10 warm-ups pinned, of 5 after 1 pageable, as
``h200_measure.py`` does). Writes DIR/calibrate_h200.json: the machine, the date, how long
calibrate took, each makespan, the model's ratio to the real one; the goal is 10% on both.
"""

from __future__ import annotations

import argparse
import datetime
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from benchmarks.machine import machine
from overlapviz.backends.cupy import CupyBackend
from overlapviz.backends.sim import create_backend
from overlapviz.commands.main import main as overlapviz_main
from overlapviz.core.analysis.metrics import compute_metrics
from overlapviz.core.config import HostMemory, PipelineConfig

GOAL = 0.10
RUNS = {HostMemory.PINNED: (10, 7), HostMemory.PAGEABLE: (1, 5)}  # (warm-up, timed) runs of the real backend


def makespan_ms(trace: Any) -> float:
    return compute_metrics(trace).makespan_ns / 1e6


def real_runs(backend: CupyBackend, config: PipelineConfig) -> tuple[list[float], list[str]]:
    warm_up, timed = RUNS[config.memory]
    for _ in range(warm_up):
        backend.run(config)
    traces = [backend.run(config) for _ in range(timed)]
    return [round(makespan_ms(t), 4) for t in traces], sorted({t.meta.timing for t in traces})


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    profile = args.out / "calibrated_h200.toml"
    started = time.perf_counter()
    code = overlapviz_main(["calibrate", "-o", str(profile), "--force"])
    calibrate_s = time.perf_counter() - started
    if code != 0:
        print(f"calibrate failed with exit code {code}", file=sys.stderr)
        return code
    sim, real = create_backend(), CupyBackend()
    gpu = real.devices()[0]
    rows = []
    for memory in (HostMemory.PINNED, HostMemory.PAGEABLE):
        config = PipelineConfig(memory=memory)
        model_ms = makespan_ms(sim.run(config, str(profile)))
        shipped_ms = makespan_ms(sim.run(config, "h200"))
        measured, timings = real_runs(real, config)
        real_ms = statistics.median(measured)
        rows.append({
            "config": config.describe(), "memory": memory.value, "real_makespans_ms": measured,
            "real_median_ms": round(real_ms, 4), "real_timing": timings, "model_calibrated_ms": round(model_ms, 4),
            "model_over_real": round(model_ms / real_ms, 4), "error_pct": round((model_ms / real_ms - 1) * 100, 2),
            "within_goal": abs(model_ms / real_ms - 1) <= GOAL, "model_shipped_h200_ms": round(shipped_ms, 4),
        })  # fmt: skip
        print(f"{memory.value:9s} real {real_ms:8.3f} ms  calibrated model {model_ms:8.3f} ms"
              f"  ({(model_ms / real_ms - 1) * 100:+.1f}%)  shipped h200 model {shipped_ms:8.3f} ms")
    real.close()
    result = {
        "date": datetime.date.today().isoformat(),
        "machine": {**machine(), "gpu": gpu.name, "driver": gpu.facts.get("driver"),
                    "cuda_runtime": gpu.facts.get("runtime_version"), "cupy": gpu.facts.get("cupy_version"),
                    "link": gpu.facts.get("link")},
        "method": "overlapviz calibrate -o calibrated_h200.toml; then per memory kind, back to back: the model on"
                  " that profile, the model on the shipped h200 profile, and the real backend (median of the timed"
                  " runs after the warm-up runs; makespan = first device op start to last device op end)",
        "calibrate_seconds": round(calibrate_s, 2),
        "goal": f"calibrated model within {GOAL:.0%} of the real backend",
        "runs": rows,
        "all_within_goal": all(row["within_goal"] for row in rows),
    }  # fmt: skip
    path = args.out / "calibrate_h200.json"
    path.write_text(json.dumps(result, indent=1) + "\n")
    print(f"calibrate took {calibrate_s:.1f} s; wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

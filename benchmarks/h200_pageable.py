"""Measure how fast this host stages pageable copies: the default pageable pipeline and single copies.

Run on the GPU machine from the repository root (device pack sourced):

    python3 benchmarks/h200_pageable.py OUT_DIR

Writes OUT_DIR/h200_pageable_host.json: the date, the GPU and CPU, seven CUPTI-timed runs of the
default pipeline from pageable memory after one warm-up (five from pinned memory, to compare),
and one pageable and one pinned copy each way at 16, 64 and 256 MiB. Pageable rates depend on
the host's memory system, so each machine gets its own record (see the h200 profile's
``[pageable.pageable_spread]``).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import time

from overlapviz.backends.cupy import CupyBackend
from overlapviz.core.config import MIB, PipelineConfig
from overlapviz.core.trace.spans import OpKind, Trace


def makespan_ms(trace: Trace) -> float:
    device = trace.device_mask
    return float(trace["end_ns"][device].max() - trace["start_ns"][device].min()) / 1e6


def busy_ms(trace: Trace, kind: OpKind) -> float:
    rows = trace.mask(kind)
    return float((trace["end_ns"][rows] - trace["start_ns"][rows]).sum()) / 1e6


def machine() -> dict[str, object]:
    query = "--query-gpu=name,driver_version,pcie.link.gen.current,pcie.link.width.current"
    gpu = subprocess.run(["nvidia-smi", query, "--format=csv,noheader"], capture_output=True, text=True).stdout
    with open("/proc/cpuinfo") as cpuinfo:
        cpu = [line for line in cpuinfo if line.startswith("model name")]
    return {
        "date_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "gpu": gpu.strip(),
        "cpu": cpu[0].split(":", 1)[1].strip() if cpu else platform.processor(),
        "cpus": os.cpu_count(),
    }


def pipeline_runs(backend: CupyBackend, memory: str, repeats: int) -> dict[str, object]:
    config = PipelineConfig(memory=memory)
    backend.run(config)  # warm-up
    traces = [backend.run(config) for _ in range(repeats)]
    return {
        "config": config.describe(),
        "timing": traces[0].meta.timing,
        "makespans_ms": [round(makespan_ms(t), 3) for t in traces],
        "median_ms": round(statistics.median(makespan_ms(t) for t in traces), 3),
        "h2d_busy_ms": [round(busy_ms(t, OpKind.H2D), 3) for t in traces],
        "d2h_busy_ms": [round(busy_ms(t, OpKind.D2H), 3) for t in traces],
    }


def main(out: str) -> None:
    backend = CupyBackend()
    result: dict[str, object] = machine()
    result["default_pipeline"] = {memory: pipeline_runs(backend, memory, repeats)
                                  for memory, repeats in (("pageable", 7), ("pinned", 5))}  # fmt: skip
    sweep = backend.bandwidth_sweep(sizes=[16 * MIB, 64 * MIB, 256 * MIB], kinds=["pinned", "pageable"])
    result["bandwidth"] = [{k: (round(v, 3) if isinstance(v, float) else v) for k, v in p.items()} for p in sweep]
    backend.close()
    with open(os.path.join(out, "h200_pageable_host.json"), "w") as stream:
        json.dump(result, stream, indent=1)
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", help="the folder to write h200_pageable_host.json into")
    main(parser.parse_args().out)

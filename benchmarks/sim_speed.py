"""How long the GPU model takes to simulate a 4,096-chunk pipeline (goal: under 0.2 s).

Prints the median of several runs and its ratio to the goal, and writes
benchmarks/results/sim_speed.json with the machine and the date.
"""

from __future__ import annotations

import argparse
import statistics
import time

from benchmarks.machine import write_result
from overlapviz.backends.sim import create_backend
from overlapviz.core.config import PipelineConfig

GOAL_S = 0.2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--chunks", type=int, default=4096)
    parser.add_argument("--repeats", type=int, default=9)
    args = parser.parse_args()
    backend = create_backend()
    config = PipelineConfig(chunks=args.chunks)
    backend.run(PipelineConfig())  # load the profile and warm up imports outside the timing
    times = []
    for _ in range(args.repeats):
        begin = time.perf_counter()
        trace = backend.run(config)
        times.append(time.perf_counter() - begin)
    median = statistics.median(times)
    print(f"{args.chunks} chunks ({len(trace)} spans): median {median * 1e3:.1f} ms over {args.repeats} runs,"
          f" best {min(times) * 1e3:.1f} ms; ratio to the {GOAL_S * 1e3:.0f} ms goal: {median / GOAL_S:.2f}")
    write_result("sim_speed", {
        "what": "simulate the default pipeline (256 MiB, 4 streams, pinned, depth) on the h200 model",
        "chunks": args.chunks,
        "spans": len(trace),
        "repeats": args.repeats,
        "median_s": round(median, 4),
        "best_s": round(min(times), 4),
        "goal_s": GOAL_S,
        "ratio_to_goal": round(median / GOAL_S, 3),
    })


if __name__ == "__main__":
    main()

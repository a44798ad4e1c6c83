"""How long the GPU model takes to simulate a 4,096-chunk pipeline (goal: under 0.2 s).

The model's own run, which a user waits for behind every change of a control (the redraw
that follows is `benchmarks.slider_redraw`'s). Repeats until the runs agree (see
`benchmarks.steady`), prints the median and its ratio to the goal, and writes
benchmarks/results/sim_speed.json (or into ``--out``) with the machine, its load and the date.

    python -m benchmarks.sim_speed [--chunks 4096] [--tiny] [--out DIR]
"""

from __future__ import annotations

import argparse
import time

from benchmarks.machine import RESULTS, write_result
from benchmarks.steady import LoadWatch, add_options, all_steady, max_repeats, repeat_until_steady, verdict
from overlapviz.backends.sim import create_backend
from overlapviz.core.config import PipelineConfig

GOAL_S = 0.2
TINY_CHUNKS = 64


def main() -> None:
    load = LoadWatch()
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--chunks", type=int, default=4096)
    add_options(parser, RESULTS)
    args = parser.parse_args()
    chunks = TINY_CHUNKS if args.tiny else args.chunks
    backend = create_backend()
    config = PipelineConfig(chunks=chunks)
    backend.run(PipelineConfig())  # load the profile and warm up imports outside the timing
    spans = []

    def one_run() -> dict[str, float]:
        begin = time.perf_counter()
        spans.append(len(backend.run(config)))
        return {"run_s": time.perf_counter() - begin}

    found = repeat_until_steady(one_run, min_repeats=5, max_repeats=max_repeats(args, 15))
    run = found["run_s"]
    print(
        f"{chunks} chunks ({spans[-1]} spans): median {run.median * 1e3:.1f} ms over {len(run.values)} runs,"
        f" best {min(run.values) * 1e3:.1f} ms; ratio to the {GOAL_S * 1e3:.0f} ms goal: {run.median / GOAL_S:.2f}"
    )
    print(verdict(found))
    write_result("sim_speed", {
        "what": "simulate the default pipeline (256 MiB, 4 streams, pinned, depth) on the h200 model",
        "chunks": chunks,
        "spans": spans[-1],
        "run_s": run.summary(),
        **all_steady(found),
        "median_s": round(run.median, 4),
        "goal_s": GOAL_S,
        "ratio_to_goal": round(run.median / GOAL_S, 3),
    }, args.out, load=load)  # fmt: skip


if __name__ == "__main__":
    main()

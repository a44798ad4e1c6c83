"""How much CPU the GPU model takes to simulate a 65,536-chunk pipeline (goal: under 0.5 s).

The model's own run, which a user waits for behind every change of a control (the redraw
that follows is `benchmarks.slider_redraw`'s). Its CPU time is the goal's measure, since the
wall time of one process on a shared machine also counts the others'; both are written.
Repeats until the runs agree (see `benchmarks.steady`), prints the median and its ratio to
the goal, and writes benchmarks/results/sim_speed.json (or into ``--out``) with the machine,
its load and the date.

    python -m benchmarks.sim_speed [--chunks 65536] [--tiny] [--out DIR]
"""

from __future__ import annotations

import argparse
import time

from benchmarks.machine import RESULTS, write_result
from benchmarks.steady import LoadWatch, add_options, all_steady, max_repeats, repeat_until_steady, verdict
from overlapviz.backends.sim import create_backend
from overlapviz.core.config import PipelineConfig

GOAL_CPU_S = 0.5
TINY_CHUNKS = 64


def main() -> None:
    load = LoadWatch()
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--chunks", type=int, default=65536)
    add_options(parser, RESULTS)
    args = parser.parse_args()
    chunks = TINY_CHUNKS if args.tiny else args.chunks
    backend = create_backend()
    config = PipelineConfig(chunks=chunks)
    backend.run(PipelineConfig())  # load the profile and warm up imports outside the timing
    spans = []

    def one_run() -> dict[str, float]:
        begin, begin_cpu = time.perf_counter(), time.process_time()
        spans.append(len(backend.run(config)))
        return {"run_s": time.perf_counter() - begin, "cpu_s": time.process_time() - begin_cpu}

    found = repeat_until_steady(one_run, min_repeats=5, max_repeats=max_repeats(args, 15))
    run, cpu = found["run_s"], found["cpu_s"]
    print(
        f"{chunks} chunks ({spans[-1]} spans): CPU median {cpu.median * 1e3:.1f} ms over {len(cpu.values)} runs,"
        f" best {min(cpu.values) * 1e3:.1f} ms (wall median {run.median * 1e3:.1f} ms);"
        f" ratio to the {GOAL_CPU_S * 1e3:.0f} ms goal: {cpu.median / GOAL_CPU_S:.2f}"
    )
    print(verdict(found))
    write_result("sim_speed", {
        "what": "simulate the default pipeline (256 MiB, 4 streams, pinned, depth) on the h200 model",
        "chunks": chunks,
        "spans": spans[-1],
        "run_s": run.summary(),
        "cpu_s": cpu.summary(),
        **all_steady(found),
        "median_cpu_s": round(cpu.median, 4),
        "goal_cpu_s": GOAL_CPU_S,
        "ratio_to_goal": round(cpu.median / GOAL_CPU_S, 3),
    }, args.out, load=load)  # fmt: skip


if __name__ == "__main__":
    main()

"""The lab server on a real GPU: learners' runs through ``overlapviz serve --backend cupy``
against the same settings run locally on the same GPU.

Run on the GPU machine (repository root, after ``source .devicepkgs/activate``):

    python3 -m benchmarks.lab_h200 --out DIR [--clients 20] [--jobs 5]

Starts the real server on the GPU with its default limits (a learner may queue 4 runs and
send 2 a second) and lets CLIENTS learners, each in its own thread with its own client id,
send JOBS runs one after another over loopback, every run with settings of its own (so none
is answered from the cache): host memory pinned or pageable, 1 to 8 streams, 4 to 32
chunks, 32 to 256 MiB. Then stops the server and runs the same settings here twice, in this
process, the way ``overlapviz run --json`` does, on the same GPU. Reports, per figure, how
far the server's answers are from the local ones, beside how far two local runs of the same
settings are from each other (the GPU's own spread), and checks from the server's job times
that no two runs were on the device at once. Writes DIR/h200_lab.json.
"""

from __future__ import annotations

import argparse
import datetime
import itertools
import json
import platform
import random
import signal
import statistics
import threading
from pathlib import Path
from typing import Any

from benchmarks.lab_throughput import start_server
from overlapviz.core.config import PipelineConfig
from overlapviz.lab.client import LabClient
from overlapviz.run_report import json_run
from overlapviz.session import find_backend, run_on

MIB = 1 << 20
FIGURES = ("makespan_ms", "copy_hidden_pct", "engines_together_pct", "host_blocked_ms")
WITHIN = 0.01  # the goal: a server's answer within 1 % of the same run made locally


def settings(count: int) -> list[PipelineConfig]:
    """`count` different pipelines, in a fixed shuffled order."""
    grid = itertools.product(("pinned", "pageable"), (1, 2, 4, 8), (4, 8, 16, 32), (32, 64, 128, 256))
    configs = [
        PipelineConfig(memory=memory, streams=streams, chunks=chunks, size_bytes=size * MIB)
        for memory, streams, chunks, size in grid
    ]
    random.Random(7).shuffle(configs)
    if count > len(configs):
        raise SystemExit(f"at most {len(configs)} different runs")
    return configs[:count]


def through_server(configs: list[PipelineConfig], clients: int) -> list[dict[str, Any]]:
    """Each config's answer from the server, the learners sending theirs at the same time."""
    process, url, token = start_server("--backend", "cupy")
    answers: list[dict[str, Any]] = [{} for _ in configs]
    problems: list[str] = []

    def learner(index: int) -> None:
        client = LabClient(url, token, f"learner-{index}")
        for at in range(index, len(configs), clients):
            try:
                answers[at] = client.run(configs[at].to_dict(), trace=False)
            except Exception as error:  # every lost job is reported, not raised in a thread
                problems.append(f"run {at}: {error}")

    threads = [threading.Thread(target=learner, args=(index,)) for index in range(clients)]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(60)
    if problems:
        raise SystemExit("lost jobs: " + "; ".join(problems))
    return answers


def locally(configs: list[PipelineConfig]) -> list[dict[str, Any]]:
    """What ``overlapviz run --json --backend cupy`` reports for each config, run in this process."""
    backend = find_backend("cupy", None)
    return [json_run(config, run_on(backend, config, None)) for config in configs]


def spread(ours: list[dict[str, Any]], theirs: list[dict[str, Any]]) -> dict[str, Any]:
    """Per figure: the relative (or, for shares, point) differences of paired runs."""
    found = {}
    for figure in FIGURES:
        pairs = [(a[figure], b[figure]) for a, b in zip(ours, theirs, strict=True) if a[figure] is not None]
        if figure.endswith("_pct"):
            gaps = [abs(a - b) / 100 for a, b in pairs]  # a share's difference, as a fraction of the whole
        else:
            gaps = [abs(a - b) / max(abs(b), 1e-9) for a, b in pairs if max(a, b) > 0]
        if not gaps:
            continue
        found[figure] = {
            "runs": len(gaps),
            "median_pct": round(100 * statistics.median(gaps), 3),
            "p90_pct": round(100 * statistics.quantiles(gaps, n=10, method="inclusive")[-1], 3),
            "max_pct": round(100 * max(gaps), 3),
            "within_1pct": sum(gap <= WITHIN for gap in gaps),
        }
    return found


def one_at_a_time(answers: list[dict[str, Any]]) -> bool:
    """Whether the server's job times show no two runs on the device at once."""
    times = sorted((a["server"]["job_started_ns"], a["server"]["job_ended_ns"]) for a in answers)
    return all(end <= next_start for (_, end), (next_start, _) in itertools.pairwise(times))


def report(args: argparse.Namespace, answers: list[dict[str, Any]], local: list[list[dict[str, Any]]]) -> None:
    waits = sorted(a["server"]["queued_ms"] for a in answers)
    result = {
        "what": f"{len(answers)} runs from {args.clients} learners through `overlapviz serve --backend cupy`,"
        " each against the same settings run locally twice on the same GPU",
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "host": platform.node(),
        "device_name": answers[0]["device_name"],
        "timing": answers[0]["timing"],
        "cached_answers": sum(a["server"]["cached"] for a in answers),
        "one_run_at_a_time": one_at_a_time(answers),
        "queued_ms": {"median": statistics.median(waits), "p95": statistics.quantiles(waits, n=20)[-1],
                      "max": waits[-1]},
        "server_vs_local": spread(answers, local[0]),
        "local_vs_local": spread(local[1], local[0]),
        "runs": [{"config": a["config"], "server": {f: a[f] for f in FIGURES},
                  "local": [{f: run[f] for f in FIGURES} for run in (local[0][i], local[1][i])]}
                 for i, a in enumerate(answers)],
    }  # fmt: skip
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "h200_lab.json").write_text(json.dumps(result, indent=1) + "\n")
    print(json.dumps({key: value for key, value in result.items() if key != "runs"}, indent=1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--jobs", type=int, default=5, help="runs per learner")
    args = parser.parse_args()
    configs = settings(args.clients * args.jobs)
    answers = through_server(configs, args.clients)
    local = [locally(configs), locally(configs)]
    report(args, answers, local)


if __name__ == "__main__":
    main()

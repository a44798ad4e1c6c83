"""The lab server on a real GPU: learners' runs through ``overlapviz serve --backend cupy``
against the same settings run locally on the same GPU.

Run on the GPU machine (repository root, after ``source .devicepkgs/activate``):

    python3 -m benchmarks.lab_h200 --out DIR [--clients 20]

Five settings (pinned and pageable host memory, 1 to 8 streams, 4 to 32 chunks, 64 to 256
MiB). The real server starts on the GPU with its default limits and ``--no-cache``, so that
every answer is a run of its own; CLIENTS learners, each in its own thread with its own
client id, send the five settings one after another, each learner in its own order: 5 x
CLIENTS jobs, each setting run CLIENTS times. The same settings are run here, in this
process, the way ``overlapviz run --json`` runs them, CLIENTS times each: half before the
server starts and half after it stops, taking the settings in turn, so a drift of the GPU
over the minutes weighs on both sides alike. A single run of these pipelines varies by a few
per cent from the next, so each setting's median on the server is compared with its median
here, beside the spread of the single runs. The server's job times must show no two runs on
the device at once. Writes DIR/h200_lab.json.
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


def settings() -> list[PipelineConfig]:
    """The five pipelines the learners send."""
    return [
        PipelineConfig(memory="pinned", streams=4, chunks=16, size_bytes=256 * MIB),
        PipelineConfig(memory="pinned", streams=1, chunks=8, size_bytes=128 * MIB),
        PipelineConfig(memory="pinned", streams=8, chunks=32, size_bytes=64 * MIB),
        PipelineConfig(memory="pageable", streams=4, chunks=16, size_bytes=256 * MIB),
        PipelineConfig(memory="pageable", streams=1, chunks=4, size_bytes=64 * MIB),
    ]


def through_server(configs: list[PipelineConfig], clients: int, where: tuple[str, str | None]) -> list[dict[str, Any]]:
    """Every learner's answers, each learner sending every config once, in an order of its own."""
    backend, device = where
    process, url, token = start_server("--backend", backend, *(["--devices", device] if device else []), "--no-cache")
    answers: list[dict[str, Any]] = []
    problems: list[str] = []

    def learner(index: int) -> None:
        client = LabClient(url, token, f"learner-{index}")
        for config in random.Random(index).sample(configs, len(configs)):
            try:
                answers.append(client.run(config.to_dict(), trace=False))
            except Exception as error:  # every lost job is reported, not raised in a thread
                problems.append(f"learner {index}: {error}")

    try:
        LabClient(url, token, "warm-up").run(configs[0].to_dict(), trace=False)  # the worker's first run is slower
        threads = [threading.Thread(target=learner, args=(index,)) for index in range(clients)]
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


def locally(configs: list[PipelineConfig], rounds: int, where: tuple[str, str | None]) -> list[dict[str, Any]]:
    """What ``overlapviz run --json`` reports, each config `rounds` times in turn, in this process."""
    name, device = where
    backend = find_backend(name, device)
    return [json_run(config, run_on(backend, config, device)) for _ in range(rounds) for config in configs]


def medians(runs: list[dict[str, Any]], config: PipelineConfig, figure: str) -> tuple[float, float, float, int]:
    """A figure's median, lowest and highest over the runs of `config`, and how many there were."""
    values = [run[figure] for run in runs if run["config"] == config.to_dict()]
    return statistics.median(values), min(values), max(values), len(values)


def compare(configs: list[PipelineConfig], server: list[dict[str, Any]], local: list[dict[str, Any]]) -> list[dict]:
    """Per setting and figure: the server's median against the local median, and each side's range."""
    found = []
    for config in configs:
        row: dict[str, Any] = {"config": config.to_dict()}
        makespan = medians(local, config, "makespan_ms")[0]
        for figure in FIGURES:
            ours, low, high, count = medians(server, config, figure)
            here, here_low, here_high, here_count = medians(local, config, figure)
            gap = abs(ours - here) / (100 if figure.endswith("_pct") else makespan)
            row[figure] = {
                "server": {"median": ours, "min": low, "max": high, "runs": count},
                "local": {"median": here, "min": here_low, "max": here_high, "runs": here_count},
                "gap_pct": round(100 * gap, 3),  # a time's, of the local median makespan; a share's, in points
                "within_1pct": gap <= WITHIN,
            }
        found.append(row)
    return found


def one_at_a_time(answers: list[dict[str, Any]]) -> bool:
    """Whether the server's job times show no two runs on the device at once."""
    times = sorted((a["server"]["job_started_ns"], a["server"]["job_ended_ns"]) for a in answers)
    return all(end <= next_start for (_, end), (next_start, _) in itertools.pairwise(times))


def report(args: argparse.Namespace, answers: list[dict[str, Any]], rows: list[dict[str, Any]]) -> None:
    waits = sorted(a["server"]["queued_ms"] for a in answers)
    result = {
        "what": f"{len(answers)} runs from {args.clients} learners through `overlapviz serve --backend {args.backend}"
        " --no-cache`, each setting's median against its median over as many runs made locally on the same GPU",
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "host": platform.node(),
        "device_name": answers[0]["device_name"],
        "timing": answers[0]["timing"],
        "jobs": len(answers),
        "learners": args.clients,
        "cached_answers": sum(a["server"]["cached"] for a in answers),
        "one_run_at_a_time": one_at_a_time(answers),
        "queued_ms": {"median": statistics.median(waits), "p95": statistics.quantiles(waits, n=20)[-1],
                      "max": waits[-1]},
        "figures_within_1pct": sum(row[f]["within_1pct"] for row in rows for f in FIGURES),
        "figures_compared": len(rows) * len(FIGURES),
        "settings": rows,
    }  # fmt: skip
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "h200_lab.json").write_text(json.dumps(result, indent=1) + "\n")
    print(json.dumps({key: value for key, value in result.items() if key != "settings"}, indent=1))
    for row in rows:
        print(row["config"]["memory"], row["config"]["streams"], row["config"]["chunks"],
              {f: (row[f]["server"]["median"], row[f]["local"]["median"], row[f]["gap_pct"]) for f in FIGURES})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--backend", choices=("cupy", "sim"), default="cupy",
                        help="sim: the model's H200, to try the benchmark where there is no GPU")
    args = parser.parse_args()
    configs = settings()
    where = (args.backend, "h200" if args.backend == "sim" else None)
    locally(configs, 1, where)  # warm-up: CuPy's start and the kernels' compilation, outside the runs compared
    before = locally(configs, args.clients // 2, where)
    answers = through_server(configs, args.clients, where)
    after = locally(configs, args.clients - args.clients // 2, where)
    report(args, answers, compare(configs, answers, before + after))


if __name__ == "__main__":
    main()

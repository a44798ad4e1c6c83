"""The h200 model against the H200's host-memory-kind measurements: each kind's default pipeline.

Reads benchmarks/results/h200_host_kinds.json (made by benchmarks/h200_host_kinds.py),
simulates the same pipelines on the ``h200`` model, prints each pair with the model's error
and its goal (within 10% for the pinned kinds, 20% for managed memory and the staging ring),
and writes benchmarks/results/host_kinds_model_check.json. `markdown` is the section
benchmarks/model_check.py adds to docs/model-vs-h200.md.

What is compared, per kind (the measured file's own words):

- device-only pipelines (pinned, write-combined, mapped, managed, managed + prefetch): the
  makespan, from an event before the first op to the last stream's end, against the model's
  first device op start to last device op end;
- the host's read of the output after the run, where the kind gives it its own cost
  (write-combined, managed, managed + prefetch): ``host_read_ms`` against the model's span;
- the staging ring, whose host copies are part of the run: the host's wall time from the
  first issuing call to the end of the synchronize, against the model's wall;
- CUDA Graphs: the host's issue time (the issuing calls, or the one cudaGraphLaunch) and the
  wall time, calls and graph, at 16 to 1024 chunks.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.machine import RESULTS, write_result
from overlapviz.backends.sim import create_backend
from overlapviz.core.analysis.metrics import compute_metrics
from overlapviz.core.config import PipelineConfig
from overlapviz.core.config.pipeline_plan import HOST_READ_NAME
from overlapviz.core.trace.spans import OpKind, Trace

MEASURED = RESULTS / "h200_host_kinds.json"
PINNED_KINDS_GOAL = 0.10  # pinned, write-combined, mapped
OTHER_KINDS_GOAL = 0.20  # managed, managed + prefetch, staged
GOALS = {"pinned": PINNED_KINDS_GOAL, "write-combined": PINNED_KINDS_GOAL, "mapped": PINNED_KINDS_GOAL,
         "managed": OTHER_KINDS_GOAL, "managed-prefetch": OTHER_KINDS_GOAL, "staged": OTHER_KINDS_GOAL}  # fmt: skip


@dataclass(frozen=True)
class Pair:
    """One measured figure and the model's figure for the same pipeline."""

    what: str
    memory: str
    measure: str  # which figure: makespan, host read, wall, issue
    real_ms: float
    model_ms: float
    goal: float | None  # the largest error allowed; None where the figure is shown, not held to a goal
    source: str  # part / measurement in the measured file

    @property
    def error(self) -> float:
        """The model's error, as a fraction of the measured figure."""
        return self.model_ms / self.real_ms - 1

    @property
    def holds(self) -> bool | None:
        """Whether the model is within its goal (None without one)."""
        return None if self.goal is None else abs(self.error) <= self.goal

    def to_dict(self) -> dict[str, Any]:
        return {"what": self.what, "memory": self.memory, "measure": self.measure, "real_ms": round(self.real_ms, 4),
                "model_ms": round(self.model_ms, 4), "error_pct": round(self.error * 100, 1),
                "goal_pct": None if self.goal is None else round(self.goal * 100), "holds": self.holds,
                "source": self.source}  # fmt: skip


def measured_parts(path: Path = MEASURED) -> dict[str, Any]:
    """The parts of the measured file (write_combined, mapped, managed, staging, graphs)."""
    parts: dict[str, Any] = json.loads(path.read_text())["parts"]
    return parts


def host_read_ms(trace: Trace) -> float:
    """The model's host read of the output, in ms (0 where the run has none)."""
    if HOST_READ_NAME not in trace.names:
        return 0.0
    rows = (trace["kind"] == OpKind.API) & (trace["name"] == trace.names.index(HOST_READ_NAME))
    return float(trace.duration_ns[rows].sum()) / 1e6


def _row(part: dict[str, Any], name: str) -> dict[str, Any]:
    rows = part[name]
    row: dict[str, Any] = rows[0] if isinstance(rows, list) else rows
    return row


def pairs(parts: dict[str, Any]) -> list[Pair]:
    """Every measured figure of the file next to the model's."""
    sim = create_backend()

    def run(**changes: Any) -> Trace:
        return sim.run(PipelineConfig(**changes), "h200")

    found: list[Pair] = []
    device_only = [  # the goals hold for each kind's default pipeline
        ("pinned", "write_combined", "pipeline pinned", {}),
        ("write-combined", "write_combined", "pipeline write-combined", {}),
        ("mapped", "mapped", "pipeline mapped iters 1860", {}),
        ("managed", "managed", "pipeline managed", {}),
        ("managed-prefetch", "managed", "pipeline managed-prefetch", {}),
    ]
    for memory, part, name, changes in device_only:
        measured = _row(parts[part], name)
        trace = run(memory=memory, **changes)
        what = PipelineConfig(memory=memory, **changes).describe()
        source, goal = f"{part} / {name}", None if changes else GOALS[memory]
        found.append(Pair(what, memory, "makespan", measured["makespan_ms"],
                          compute_metrics(trace).makespan_ns / 1e6, goal, source))  # fmt: skip
        if "host_read_ms" in measured and host_read_ms(trace):
            found.append(Pair(what, memory, "host read", measured["host_read_ms"], host_read_ms(trace), goal, source))
    pageable = _row(parts["staging"], "pipeline pageable")
    found.append(Pair(PipelineConfig(memory="pageable").describe(), "pageable", "wall", pageable["wall_ms"],
                      compute_metrics(run(memory="pageable")).wall_ns / 1e6, None, "staging / pipeline pageable"))
    for slots in (2, 4, 8):
        measured = _row(parts["staging"], f"pipeline staged ring {slots}")
        config = PipelineConfig(memory="staged", ring_slots=slots)
        found.append(Pair(config.describe(), "staged", "wall", measured["wall_ms"],
                          compute_metrics(run(memory="staged", ring_slots=slots)).wall_ns / 1e6, GOALS["staged"],
                          f"staging / pipeline staged ring {slots}"))  # fmt: skip
    for key, rows in parts["graphs"].items():
        if not key.startswith("chunks"):
            continue
        for measured in rows:
            graph = measured["mode"] == "graph"
            config = PipelineConfig(chunks=measured["chunks"], graph=graph)
            metrics = compute_metrics(sim.run(config, "h200"))
            source = f"graphs / {key}, {measured['mode']}"
            found.append(Pair(config.describe(), "pinned", "issue", measured["issue_ms"], metrics.host_issue_ns / 1e6,
                              None, source))  # fmt: skip
            found.append(Pair(config.describe(), "pinned", "wall", measured["wall_ms"], metrics.wall_ns / 1e6,
                              None, source))  # fmt: skip
    return found


def markdown(found: list[Pair]) -> str:
    """The section of docs/model-vs-h200.md: one row per figure."""
    lines = [
        "## Every kind of host memory (each kind's default pipeline)",
        "",
        "Generated by `python -m benchmarks.model_check` (with `benchmarks/host_kinds_model_check.py`)",
        "from `benchmarks/results/h200_host_kinds.json`, measured on an H200 on 2026-12-01 (medians",
        "of 7 runs; see docs/model.md for what each figure is). Goals: within 10% for the pinned",
        "kinds (pinned, write-combined, mapped), 20% for managed memory and the staging ring; the",
        "pageable row and the CUDA Graph rows are shown without a goal.",
        "",
        "| pipeline | figure | real (ms) | model (ms) | model error | goal | source |",
        "|---|---|---:|---:|---:|---|---|",
    ]
    for pair in found:
        goal = "-" if pair.goal is None else f"{pair.goal:.0%} {'held' if pair.holds else '**missed**'}"
        lines.append(f"| {pair.what} | {pair.measure} | {pair.real_ms:.3f} | {pair.model_ms:.3f} |"
                     f" {pair.error * 100:+.1f}% | {goal} | {pair.source} |")  # fmt: skip
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=RESULTS, help=f"the folder to write the result into ({RESULTS})")
    args = parser.parse_args()
    found = pairs(measured_parts())
    print(markdown(found))
    missed = [pair for pair in found if pair.holds is False]
    worst = max((abs(pair.error) for pair in found if pair.goal is not None), default=0.0)
    print(f"worst error against a goal: {worst:.1%}; missed goals: {len(missed)}")
    rows = [pair.to_dict() for pair in found]
    write_result("host_kinds_model_check", {"rows": rows, "missed": len(missed)}, args.out)


if __name__ == "__main__":
    main()

"""Another CUPTI client in the process, on a real GPU (``pytest -m gpu``): torch.profiler.

Skipped cleanly without a GPU or without PyTorch. Each case runs in a process of its own:
once torch.profiler has started, its CUPTI client stays attached to the process (seen on the
H200), and every later run there is rightly timed with CUDA events. Runs inside the profiler
must not be timed with CUPTI, must say why, must keep the makespan of an unprofiled run, and
must leave the profiler's records to it. With $OVERLAPVIZ_GPU_REPORTS naming a folder, each
case also writes what it measured there (cupti-shared-<case>.json) for the committed results.
"""

from __future__ import annotations

import importlib.util
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

import pytest

from overlapviz.core.analysis.metrics import compute_metrics
from overlapviz.core.config import PipelineConfig

pytestmark = pytest.mark.gpu
RUNS, WARM_UP = 5, 3
CONFIG = PipelineConfig()  # the default pipeline: 256 MiB, 4 streams x 16 chunks, pinned
ROOT = Path(__file__).resolve().parents[3]

# argv: the trace file torch.profiler writes; "before" (overlapviz runs before the profiler
# starts) or "inside" (its first run is inside the profiler); the runs timed; the warm-up runs.
_CASE = """
import json, sys, warnings
warnings.simplefilter("ignore")
import torch
from torch.profiler import ProfilerActivity, profile
from overlapviz.backends.cupy import CupyBackend
from overlapviz.backends.cupy.cupti_session import CuptiUnavailable, shared_collector
from overlapviz.core.config import PipelineConfig
from overlapviz.core.analysis.metrics import compute_metrics

RUNS, WARM_UP = int(sys.argv[3]), int(sys.argv[4])
backend = CupyBackend()
def runs():
    traces = [backend.run(PipelineConfig()) for _ in range(WARM_UP + RUNS)][WARM_UP:]
    return [[t.meta.timing, t.meta.timing_reason or "", compute_metrics(t).makespan_ns] for t in traces]
def ours():  # what reached overlapviz's own CUPTI buffers since the last look (it may start CUPTI)
    try:
        collector = shared_collector()
    except CuptiUnavailable:
        return 0
    collector.flush()
    return len(collector.take().devices)
report = {"alone": runs() if sys.argv[2] == "before" else []}
if report["alone"]:
    ours()
with profile(activities=[ProfilerActivity.CUDA]) as profiler:
    report["inside"] = runs()
profiler.export_chrome_trace(sys.argv[1])
report["ours_during_profile"] = ours()
print(json.dumps(report))
"""


@pytest.fixture(scope="module")
def torch_here():
    if importlib.util.find_spec("torch") is None:
        pytest.skip("PyTorch is not installed")


def run_case(tmp_path: Path, when: str) -> dict:
    trace = tmp_path / "torch.json"
    done = subprocess.run(
        [sys.executable, "-c", _CASE, str(trace), when, str(RUNS), str(WARM_UP)],
        capture_output=True, text=True, cwd=ROOT, timeout=240,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    events = json.loads(trace.read_text()).get("traceEvents", [])
    report["torch_kernels"] = sum(1 for e in events if e.get("cat") == "kernel" and e.get("name") == "fma_chain")
    return report


def keep(report: dict, case: str, alone_ms: float) -> None:
    """Write the case's measurements where $OVERLAPVIZ_GPU_REPORTS says, if it says."""
    folder = os.environ.get("OVERLAPVIZ_GPU_REPORTS")
    if folder:
        summary = {**report, "alone_median_ms": alone_ms, "inside_median_ms": median_ms(report["inside"])}
        (Path(folder) / f"cupti-shared-{case}.json").write_text(json.dumps(summary, indent=1) + "\n")


def median_ms(rows) -> float:
    return statistics.median(row[2] for row in rows) / 1e6


def check_inside(report: dict, alone_ms: float) -> None:
    inside = report["inside"]
    assert [row[0] for row in inside] == ["cuda-events"] * RUNS
    for _, reason, _ in inside:
        assert reason.startswith("CUPTI is not used") and "another profiler" in reason and "\n" not in reason
    assert 0.9 <= median_ms(inside) / alone_ms <= 1.1, (median_ms(inside), alone_ms)
    assert report["ours_during_profile"] == 0  # no record of the profiler's reached overlapviz


def test_runs_inside_torch_profiler_after_overlapviz_began(gpu_backend, torch_here, tmp_path):
    report = run_case(tmp_path, "before")
    assert [row[0] for row in report["alone"]] == ["cupti"] * RUNS
    keep(report, "after-overlapviz-began", median_ms(report["alone"]))
    check_inside(report, median_ms(report["alone"]))
    assert report["torch_kernels"] >= RUNS * CONFIG.chunks, report


def test_runs_inside_torch_profiler_from_the_first(gpu_backend, torch_here, tmp_path):
    for _ in range(WARM_UP):
        gpu_backend.run(CONFIG)
    alone = [gpu_backend.run(CONFIG) for _ in range(RUNS)]
    assert {t.meta.timing for t in alone} == {"cupti"}
    report = run_case(tmp_path, "inside")
    alone_ms = statistics.median(compute_metrics(t).makespan_ns for t in alone) / 1e6
    keep(report, "from-the-first", alone_ms)
    check_inside(report, alone_ms)
    assert report["torch_kernels"] >= (WARM_UP + RUNS) * CONFIG.chunks, report

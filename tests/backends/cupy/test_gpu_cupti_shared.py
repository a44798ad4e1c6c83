"""Another CUPTI client in the process, on a real GPU (``pytest -m gpu``): torch.profiler.

Skipped cleanly without a GPU or without PyTorch. Runs inside the profiler must not be
timed with CUPTI (its records are shared), must say why, must keep the makespan of an
unprofiled run, and must leave the profiler's own records to it.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import warnings
from contextlib import contextmanager
from pathlib import Path

import pytest

from overlapviz.core.config import PipelineConfig
from overlapviz.core.metrics import compute_metrics

pytestmark = pytest.mark.gpu
RUNS = 5
WARM_UP = 3
CONFIG = PipelineConfig()  # the default pipeline: 256 MiB, 4 streams x 16 chunks, pinned
ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def torch():
    torch = pytest.importorskip("torch", exc_type=ImportError)
    if not torch.cuda.is_available():
        pytest.skip("PyTorch sees no CUDA device")
    return torch


@contextmanager
def torch_profiler(torch, trace_path: Path):
    """torch.profiler with CUDA activity, its warnings kept out of the test's (they are errors here)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as profiler:
            yield profiler
        profiler.export_chrome_trace(str(trace_path))


def profiled_kernels(trace_path: Path) -> int:
    """The pipeline's kernels in the profiler's own trace: what it recorded of our runs."""
    events = json.loads(trace_path.read_text()).get("traceEvents", [])
    return sum(1 for e in events if e.get("cat") == "kernel" and e.get("name") == "fma_chain")


def median_ms(traces) -> float:
    return statistics.median(compute_metrics(t).makespan_ns / 1e6 for t in traces)


def test_runs_inside_torch_profiler_use_events_and_keep_their_makespan(gpu_backend, torch, tmp_path):
    for _ in range(WARM_UP):
        gpu_backend.run(CONFIG)
    alone = [gpu_backend.run(CONFIG) for _ in range(RUNS)]
    with torch_profiler(torch, tmp_path / "torch.json"):
        for _ in range(WARM_UP):
            gpu_backend.run(CONFIG)
        profiled = [gpu_backend.run(CONFIG) for _ in range(RUNS)]
    assert [t.meta["timing"] for t in profiled] == ["cuda-events"] * RUNS
    for trace in profiled:
        assert trace.meta["timing_reason"].startswith("CUPTI is not used for this run: ")
        assert "\n" not in trace.meta["timing_reason"]
    assert 0.9 <= median_ms(profiled) / median_ms(alone) <= 1.1, (median_ms(profiled), median_ms(alone))
    assert profiled_kernels(tmp_path / "torch.json") >= RUNS * CONFIG.chunks  # its records stayed its own


def test_after_the_profiler_has_gone_cupti_times_runs_again(gpu_backend, torch, tmp_path):
    with torch_profiler(torch, tmp_path / "torch.json"):
        gpu_backend.run(CONFIG)
    traces = [gpu_backend.run(CONFIG) for _ in range(3)]
    assert traces[-1].meta["timing"] == "cupti", traces[-1].meta.get("timing_reason")


_STARTED_INSIDE = """
import json, sys, warnings
warnings.simplefilter("ignore")
import torch
from torch.profiler import ProfilerActivity, profile
from overlapviz.backends.cupy import CupyBackend
from overlapviz.core.config import PipelineConfig
from overlapviz.core.metrics import compute_metrics

with profile(activities=[ProfilerActivity.CUDA]) as profiler:
    backend = CupyBackend()
    traces = [backend.run(PipelineConfig()) for _ in range(4)]
profiler.export_chrome_trace(sys.argv[1])
print(json.dumps([[t.meta["timing"], t.meta.get("timing_reason", ""), compute_metrics(t).makespan_ns] for t in traces]))
"""


def test_a_backend_first_used_inside_the_profiler_takes_none_of_its_records(torch, tmp_path):
    path = tmp_path / "torch.json"
    done = subprocess.run(
        [sys.executable, "-c", _STARTED_INSIDE, str(path)], capture_output=True, text=True, cwd=ROOT, timeout=240
    )
    assert done.returncode == 0, done.stderr[-3000:]
    runs = json.loads(done.stdout.strip().splitlines()[-1])
    assert all(timing == "cuda-events" and reason.startswith("CUPTI is not used") for timing, reason, _ in runs)
    assert profiled_kernels(path) >= 4 * CONFIG.chunks

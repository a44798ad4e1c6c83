"""Every CPU benchmark runs as committed: on a tiny size, into a temporary folder, it exits 0 and writes its result.

The GPU benchmarks cannot measure here, but each at least imports and answers --help (and
writes nothing when asked for it).
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.steady import BUSY_STOLEN_SHARE

ROOT = Path(__file__).resolve().parents[1]
CPU = [
    "sim_speed",
    "model_check",
    "kineto_import",
    "import_scale",
    "big_kineto",
    "slider_redraw",
    "timeline_scale",
    "gui_heartbeat",
    "open_heartbeat",
    "many_ranks",
    "lab_throughput",
]
# the other scripts: those of the GPU machine, and the reports made from what it measured
OTHER_SCRIPTS = sorted(
    path.stem for path in (ROOT / "benchmarks").glob("*.py") if "__main__" in path.read_text() and path.stem not in CPU
)


def _run(module: str, *arguments: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    command = [sys.executable, "-m", f"benchmarks.{module}", *arguments]
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=False)


@pytest.mark.parametrize("module", CPU)
def test_a_cpu_benchmark_runs_tiny_and_writes_its_result_with_the_load_and_the_spread(module, tmp_path):
    done = _run(module, "--tiny", "--out", str(tmp_path))
    assert done.returncode == 0, done.stderr[-3000:]
    record = json.loads((tmp_path / f"{module}.json").read_text())
    assert record["load"]["cpus"] == os.cpu_count()
    assert set(record["load"]["load_average_1_5_15_min"]) == {"at_start", "at_end"}
    stolen = record["load"]["stolen_cpu_s"]
    assert stolen is None if not sys.platform.startswith("linux") else stolen >= 0
    if module != "model_check":  # a table of the model's errors: nothing timed, nothing to repeat
        assert isinstance(record["spread_ok"], bool)
    if module == "gui_heartbeat":  # each pass with the CPU time stolen from it
        per_pass = record["stolen_cpu_s_per_pass"]
        assert len(per_pass) == record["passes"] >= 1
        assert all(s is None if not sys.platform.startswith("linux") else s >= 0 for s in per_pass)
    if module == "slider_redraw":  # each batch with the share of the cores stolen from it, the quiet ones apart
        shares = record["batch_stolen_share"]
        assert len(shares) == record["repeats"] // record["releases_per_batch"] >= 1
        quiet = sum(share is not None and share <= BUSY_STOLEN_SHARE for share in shares)
        assert record["quiet_batches"] == quiet
        assert (record["quiet_median_ms"] is None) == (quiet == 0)


@pytest.mark.parametrize("module", OTHER_SCRIPTS)
def test_every_other_benchmark_script_answers_help_without_a_gpu(module):
    done = _run(module, "--help")
    assert done.returncode == 0, done.stderr[-3000:]
    assert "usage" in done.stdout

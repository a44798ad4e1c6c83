"""The host-memory benchmark without a GPU: its arguments, its record, and a whole run on a fake CuPy."""

import json
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from host_kinds_fake_cupy import make_fake_cupy

from benchmarks import h200_host_kinds, host_kinds_prefetch
from benchmarks.h200_host_kinds import PART_NAMES, parse_args, part_functions, run, settings_from
from benchmarks.host_kinds_record import DEFAULT, KIB, QUICK, RESULT_NAME, Recorder, Settings, plain

ROOT = Path(__file__).resolve().parents[1]


class Clock:
    """A clock the test moves."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def read_record(folder: Path) -> dict:
    return json.loads((folder / f"{RESULT_NAME}.json").read_text())


def test_help_works_without_cupy():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    script = ROOT / "benchmarks" / "h200_host_kinds.py"
    shown = subprocess.run([sys.executable, str(script), "--help"], capture_output=True, text=True, env=env, cwd=ROOT)
    assert shown.returncode == 0, shown.stderr
    assert "--quick" in shown.stdout and "write_combined, mapped, managed, staging, graphs" in shown.stdout
    code = "import sys, benchmarks.h200_host_kinds as b\nb.part_functions()\nprint('cupy' in sys.modules)"
    imported = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT)
    assert imported.stdout.strip() == "False", imported.stderr


def test_default_and_quick_settings():
    args = parse_args([])
    assert args.parts == PART_NAMES and not args.quick
    assert settings_from(args) == DEFAULT
    assert settings_from(parse_args(["--quick"])) == QUICK
    budget = settings_from(parse_args(["--quick", "--budget-s", "30"]))
    assert budget.budget_s == 30 and budget.repeats == QUICK.repeats
    assert DEFAULT.pipeline() == QUICK.pipeline()  # both measure the app's default pipeline
    assert DEFAULT.pipeline().size_bytes == 256 * 1024 * KIB and DEFAULT.pipeline().chunks == 16


def test_parts_are_run_in_the_safe_order():
    assert parse_args(["--parts", "graphs, mapped"]).parts == ("mapped", "graphs")
    assert set(part_functions()) == set(PART_NAMES)


@pytest.mark.parametrize(
    ("argv", "message"),
    [(["--parts", "mapped,teleport"], "unknown part 'teleport'"), (["--parts", ","], "unknown part"),
     (["--budget-s", "0"], "must be above 0"), (["--budget-s", "soon"], "not a number of seconds")],
)  # fmt: skip
def test_bad_arguments_exit_2_with_a_message(argv, message, capsys):
    with pytest.raises(SystemExit) as stopped:
        parse_args(argv)
    assert stopped.value.code == 2
    assert message in capsys.readouterr().err


def small_settings(**changes) -> Settings:
    values = {
        **QUICK.to_dict(), "repeats": 2, "warm_ups": 1, "copy_sizes": (4 * KIB, 64 * KIB),
        "host_sizes": (4 * KIB, 64 * KIB), "kernel_sizes": (4 * KIB, 64 * KIB), "chunk_sizes": (4 * KIB, 64 * KIB),
        "ring_slots": (2, 4), "graph_chunks": (16, 64), "pipeline_bytes": 256 * KIB, "budget_s": 60.0,
    }  # fmt: skip
    return Settings(**{**values, **changes})


def test_record_keeps_rows_errors_and_is_written_after_every_measurement(tmp_path):
    rows = [{"memory": "pinned", "ms": np.float64(1.5), "count": np.int64(3), "runs": [1.0, 2.0]}]
    seen_on_disk = {}

    def first(gpu, settings, part):
        part.measure("rows", lambda: rows)
        part.measure("broken", lambda: 1 / 0)
        seen_on_disk.update(read_record(tmp_path)["parts"]["first"])

    def second(gpu, settings, part):
        raise OSError("no such buffer")

    recorder = Recorder(small_settings(), tmp_path)
    code = run(recorder, ["first", "second"], lambda: SimpleNamespace(facts={"name": "fake"}),
               {"first": first, "second": second})  # fmt: skip
    assert code == 1
    record = read_record(tmp_path)
    assert {"date", "machine", "settings", "device", "parts", "errors", "method", "complete"} <= set(record)
    assert record["machine"]["cores"] == os.cpu_count() and record["device"] == {"name": "fake"}
    assert record["settings"]["pipeline_bytes"] == 256 * KIB and record["complete"] is True
    assert record["parts"]["first"]["rows"] == [{"memory": "pinned", "ms": 1.5, "count": 3, "runs": [1.0, 2.0]}]
    broken = record["parts"]["first"]["broken"]
    assert broken["error"] == "ZeroDivisionError: division by zero" and "1 / 0" in broken["traceback"]
    assert record["parts"]["second"]["error"]["error"] == "OSError: no such buffer"
    zero, missing = "ZeroDivisionError: division by zero", "OSError: no such buffer"
    assert record["errors"] == {"first/broken": zero, "second": missing}
    assert seen_on_disk["rows"] == record["parts"]["first"]["rows"] and "broken" in seen_on_disk
    assert not list(tmp_path.glob("*.partial*")) and [p.name for p in tmp_path.iterdir()] == [f"{RESULT_NAME}.json"]


def test_nothing_starts_after_the_budget(tmp_path):
    clock = Clock()
    started = []

    def part(gpu, settings, part):
        part.measure("early", lambda: started.append("early") or {"ok": True})
        clock.now = 11.0
        part.measure("late", lambda: started.append("late") or {"ok": True})

    recorder = Recorder(small_settings(budget_s=10.0), tmp_path, clock=clock)
    assert run(recorder, ["p"], lambda: SimpleNamespace(facts={}), {"p": part}) == 0
    record = read_record(tmp_path)
    assert started == ["early"]
    assert record["parts"]["p"]["late"] == {"skipped": "the time budget of 10 s was spent"}
    assert record["skipped"] == ["p/late"] and record["elapsed_s"] == 11.0


def test_a_device_that_will_not_open_is_recorded(tmp_path):
    def refuse():
        raise RuntimeError("no CUDA device")

    assert run(Recorder(small_settings(), tmp_path), PART_NAMES, refuse, {}) == 1
    record = read_record(tmp_path)
    assert record["parts"]["setup"]["error"] == "RuntimeError: no CUDA device"
    assert record["complete"] is False and record["errors"] == {"setup": "RuntimeError: no CUDA device"}


def test_plain_makes_numpy_values_json_ready():
    value = {"a": (np.float32(0.5), np.int64(2)), 3: [np.bool_(True), "text", None]}
    assert json.loads(json.dumps(plain(value))) == {"a": [0.5, 2], "3": [True, "text", None]}


@pytest.fixture
def fake_cupy(monkeypatch):
    module, gpu = make_fake_cupy()
    monkeypatch.setitem(sys.modules, "cupy", module)
    monkeypatch.setattr(host_kinds_prefetch, "_libcuda", lambda: None)  # never a real driver here
    return gpu


def test_every_part_runs_on_a_fake_gpu_checks_its_output_and_frees_everything(tmp_path, fake_cupy):
    recorder = Recorder(small_settings(), tmp_path)
    code = h200_host_kinds.run(recorder, PART_NAMES, _open_gpu(), part_functions())
    record = read_record(tmp_path)
    assert record["errors"] == {} and code == 0, record["errors"]
    assert fake_cupy.outstanding() == []
    parts = record["parts"]
    assert set(parts) == set(PART_NAMES) and record["device"]["name"] == "Fake GPU"
    pipelines = [row for part in parts.values() for label, rows in part.items() if "pipeline" in label or
                 label.startswith("chunks") for row in rows]  # fmt: skip
    assert len(pipelines) == 2 + 4 + 2 + (2 + 2) + 2 * 2  # write-combined, mapped, managed, staging, graphs
    assert all(row["output"] == "ok" for row in pipelines)
    assert all(row["wall_ms"] >= row["issue_ms"] >= 0 for row in pipelines)
    copies = parts["write_combined"]["copies write-combined"]
    expected = {(direction, size) for direction in ("h2d", "d2h") for size in (4 * KIB, 64 * KIB)}
    assert {(r["direction"], r["size_bytes"]) for r in copies} == expected
    assert [r["memory"] for r in copies] == ["write-combined"] * 4
    assert parts["mapped"]["device pointer"]["device_pointer_is_host_pointer"] is True
    prefetch = parts["managed"]["prefetch to host"]
    assert prefetch["method"].startswith("cupy runtime.memPrefetchAsync") and len(prefetch["failed"]) == 2
    whole = parts["managed"][f"whole buffer iters {DEFAULT.pipeline().iters}"]
    assert [r["memory"] for r in whole] == ["device", "managed", "managed-prefetch"]
    assert all(r["output"] == "ok" for r in whole)
    assert any(device == -1 for _, _, device in fake_cupy.prefetches)
    rings = [parts["staging"][f"pipeline staged ring {n}"][0] for n in (2, 4)]
    assert [r["pinned_bytes"] for r in rings] == [2 * 2 * 16 * KIB, 4 * 2 * 16 * KIB]  # in and out slots of 16 KiB
    graph = parts["graphs"]["chunks 64"]
    assert [r["mode"] for r in graph] == ["calls", "graph"] and graph[1]["ops"] == 3 * 64
    assert fake_cupy.launches["fma_chain"] > 0 and fake_cupy.launches["scale_copy"] > 0


def _open_gpu():
    from benchmarks.host_kinds_gpu import open_gpu

    return open_gpu


def test_a_kernel_that_does_nothing_fails_every_output_check(tmp_path, fake_cupy):
    fake_cupy.idle_kernels = {"fma_chain"}
    recorder = Recorder(small_settings(graph_chunks=(16,)), tmp_path)
    h200_host_kinds.run(recorder, ("mapped", "graphs"), _open_gpu(), part_functions())
    parts = read_record(tmp_path)["parts"]
    rows = [*parts["mapped"]["pipeline mapped iters 1860"], *parts["graphs"]["chunks 16"]]
    assert len(rows) == 3 and all("runs wrong: output check failed" in row["output"] for row in rows)
    # with no iterations the kernel leaves its input as it is: doing nothing is then right
    assert parts["mapped"]["pipeline mapped iters 0"][0]["output"] == "ok"

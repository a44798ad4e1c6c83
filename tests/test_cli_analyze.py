import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_runs import run_cli

from overlapviz.core.files.trace_export import export_chrome
from overlapviz.core.trace.meta import TraceMeta
from overlapviz.resources import asset_path
from tests.core.tracefactory import MS, on_gpus, pipeline_trace

PINNED = asset_path("traces") / "h200-default-pinned.json"
PAGEABLE = asset_path("traces") / "h200-default-pageable.json"




def test_analyze_prints_the_figures_and_findings_of_a_real_trace(capsys):
    code, out, err = run_cli(capsys, "analyze", str(PAGEABLE))
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == f"trace      {PAGEABLE}"
    assert lines[2] == "device     NVIDIA H200, cupy backend, measured (timing: cupti)"
    assert "copy time hidden 0 %" in out and "host-blocked" not in out  # the sentence, not the code
    assert "the host buffer is pageable" in out


def test_analyze_json_has_the_run_figures(capsys):
    code, out, _ = run_cli(capsys, "analyze", str(PINNED), "--json")
    report = json.loads(out)
    assert code == 0 and report["trace"] == str(PINNED) and report["timing"] == "cupti"
    assert report["copy_hidden_pct"] > 80 and report["efficiency_pct"] > 85
    assert report["config"]["chunks"] == 16


def test_analyze_a_window_counts_only_that_part(capsys):
    whole = json.loads(run_cli(capsys, "analyze", str(PINNED), "--json")[1])
    part = json.loads(run_cli(capsys, "analyze", str(PINNED), "--json", "--window", "2:4")[1])
    assert part["makespan_ms"] == pytest.approx(2.0)
    assert part["serial_ms"] < whole["serial_ms"]
    assert part["bandwidth_gbps"]["h2d"] == pytest.approx(whole["bandwidth_gbps"]["h2d"], rel=0.05)


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["analyze", "/no/such/trace.json"], "cannot read /no/such/trace.json"),
        (["analyze", str(PINNED), "--window", "5:1"], "--window: the window 5:1 is empty"),
        (["analyze", str(PINNED), "--window", "50:60"], "no span of the trace lies in the window"),
    ],
)
def test_analyze_bad_input_is_one_line_and_exit_2(capsys, argv, words):
    code, out, err = run_cli(capsys, *argv)
    assert (code, out) == (2, "") and err.count("\n") == 1 and words in err


def test_analyze_a_file_that_is_not_a_trace(capsys, tmp_path):
    path = tmp_path / "x.json"
    path.write_text('{"traceEvents": []}')
    code, _, err = run_cli(capsys, "analyze", str(path))
    assert code == 2 and "without overlapviz data" in err


TORCH = Path(__file__).parent / "data" / "torch"
NSYS = Path(__file__).parent / "data" / "nsys"


@pytest.mark.parametrize(
    ("name", "finding"),
    [
        ("torch-pageable.json.gz", "the host buffer is pageable"),
        ("torch-blocking.json.gz", "called cudaStreamSynchronize right after 16 of the 16 copies"),
        ("torch-one-stream.json.gz", "ran on one stream"),
    ],
)
def test_analyze_names_the_mistake_in_a_real_pytorch_trace(capsys, name, finding):
    code, out, err = run_cli(capsys, "analyze", str(TORCH / name))
    assert (code, err) == (0, "")
    assert "recorded   by PyTorch profiler, 2026-12-01, NVIDIA H200" in out
    assert finding in out


def test_analyze_a_pinned_pytorch_trace_shows_overlap_and_no_mistake(capsys):
    report = json.loads(run_cli(capsys, "analyze", str(TORCH / "torch-pinned.json.gz"), "--json")[1])
    assert report["copy_hidden_pct"] > 10 and report["engines_together_pct"] > 40
    assert report["findings"] == [] and report["config"] is None


def test_analyze_a_real_nsight_systems_export(capsys):
    report = json.loads(run_cli(capsys, "analyze", str(NSYS / "test-cuda-2026.1-pinned-streams.sqlite.gz"),
                                "--json")[1])
    assert report["timing"] == "Nsight Systems" and report["device_name"] == "NVIDIA GeForce RTX 4060 Ti"
    assert "alloc-per-run" in [f["code"] for f in report["findings"]]  # 841 ms in cudaHostAlloc/cudaFreeHost


def test_analyze_a_truncated_nsight_export_says_what_it_is(capsys, tmp_path):
    import gzip

    whole = gzip.decompress((NSYS / "mordred-2021-no-enums.sqlite.gz").read_bytes())
    path = tmp_path / "cut.sqlite"
    path.write_bytes(whole[:40_000])
    code, out, err = run_cli(capsys, "analyze", path)
    assert (code, out) == (2, "") and err.count("\n") == 1
    assert "JSON" not in err and "cut.sqlite" in err


TORCH = Path(__file__).resolve().parent / "data" / "torch"
DATALOADER_STEP = "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__"


def test_analyze_the_window_of_a_named_range_of_a_real_trace(capsys):
    path = TORCH / "torch-train-step.json.gz"
    code, out, err = run_cli(capsys, "analyze", str(path), "--window", "step 2")
    assert (code, err) == (0, "")
    window = next(line for line in out.splitlines() if line.startswith("window"))
    part = json.loads(run_cli(capsys, "analyze", str(path), "--json", "--window", "step 2")[1])
    whole = json.loads(run_cli(capsys, "analyze", str(path), "--json")[1])
    assert window.endswith("ms of the trace") and 0 < part["makespan_ms"] < whole["makespan_ms"] / 3


def test_analyze_the_kth_occurrence_of_a_range(capsys):
    path = TORCH / "torch-dataloader.json.gz"
    first = json.loads(run_cli(capsys, "analyze", str(path), "--json", "--window", DATALOADER_STEP)[1])
    again = json.loads(run_cli(capsys, "analyze", str(path), "--json", "--window", f"{DATALOADER_STEP}#1")[1])
    third = json.loads(run_cli(capsys, "analyze", str(path), "--json", "--window", f"{DATALOADER_STEP}#3")[1])
    assert first == again and third != first


def test_analyze_a_range_no_one_named_is_one_line_and_exit_2(capsys):
    code, out, err = run_cli(capsys, "analyze", str(TORCH / "torch-train-step.json.gz"), "--window", "ProfilerStep#9")
    assert (code, out) == (2, "") and err.count("\n") == 1
    assert "no range is named 'ProfilerStep#9'; the trace has 'step 0'," in err


def two_gpu_file(tmp_path):
    """GPU 0: a copy-bound pipeline; GPU 1: a kernel-bound one; as an imported trace names them."""
    meta = TraceMeta(
        backend="file", device="cuda:0,cuda:1", device_name="NVIDIA H200 + NVIDIA A100", timing="nsys",
        tool="nsys", device_facts={"copy_engines": 2},
    )  # fmt: skip
    trace = on_gpus(
        pipeline_trace(4, 4, h2d_ns=3 * MS), pipeline_trace(6, 3, kernel_ns=2 * MS), meta=meta
    )
    path = tmp_path / "two-gpus.json"
    export_chrome(trace, path)
    return path


def test_analyze_prints_a_block_per_gpu_after_the_whole_trace(capsys, tmp_path):
    code, out, err = run_cli(capsys, "analyze", str(two_gpu_file(tmp_path)))
    assert (code, err) == (0, "")
    lines = out.splitlines()
    first, second = lines.index("GPU 0 (NVIDIA H200)"), lines.index("GPU 1 (NVIDIA A100)")
    assert lines.index("findings") < first < second  # the whole trace's block comes first
    assert lines[first + 1].startswith("makespan   ") and lines[second + 1].startswith("makespan   ")
    assert "H2D copies limit this run: the H2D engine was busy" in "\n".join(lines[first:second])
    assert "Kernels limit this run" in "\n".join(lines[second:])


def test_analyze_json_has_each_gpus_figures(capsys, tmp_path):
    path = two_gpu_file(tmp_path)
    report = json.loads(run_cli(capsys, "analyze", str(path), "--json")[1])
    gpus = report["per_device"]
    assert [(g["device"], g["device_name"]) for g in gpus] == [(0, "NVIDIA H200"), (1, "NVIDIA A100")]
    assert gpus[0]["lower_bound_ms"] == pytest.approx(12.0)  # GPU 0's H2D engine, not both GPUs' copies
    assert all(g["wall_ms"] == report["wall_ms"] for g in gpus)  # what the program waited for
    assert [f["code"] for f in gpus[1]["findings"]] == ["kernel-bound"]
    part = json.loads(run_cli(capsys, "analyze", str(path), "--json", "--window", "1:3")[1])
    assert [g["makespan_ms"] for g in part["per_device"]] == pytest.approx([2.0, 2.0])


def test_analyze_a_trace_of_one_gpu_has_no_gpu_block_and_one_json_entry(capsys):
    code, out, _ = run_cli(capsys, "analyze", str(PINNED))
    assert code == 0 and "GPU 0" not in out
    report = json.loads(run_cli(capsys, "analyze", str(PINNED), "--json")[1])
    (gpu,) = report["per_device"]
    figures = {key: value for key, value in report.items() if key in gpu and key not in ("device", "device_name")}
    assert gpu["device"] == 0 and {key: gpu[key] for key in figures} == figures


def test_analyze_says_a_bandwidth_is_unknown_where_a_real_trace_records_no_bytes(capsys):
    rocm = str(TORCH.parent / "torch-real/hta-rocm6.2-mi250.json.gz")  # ROCm's copies carry no byte counts
    code, out, _ = run_cli(capsys, "analyze", rocm)
    assert code == 0 and "bandwidth  h2d unknown   d2h -" in out
    code, out, _ = run_cli(capsys, "analyze", rocm, "--json")
    assert code == 0 and json.loads(out)["bandwidth_gbps"] == {"h2d": None, "d2h": None}


def test_analyze_names_the_migrations_of_a_real_run_on_managed_memory(capsys):
    code, out, _ = run_cli(capsys, "analyze", str(NSYS / "clue-2023.2-managed-prefetch.sqlite.gz"))
    assert code == 0
    assert "copy time hidden no copies; 735 unified-memory migrations" in out
    assert "migrated   h2d 445 in 3.95 ms, 36.1 MiB   d2h 290 in 3.41 ms, 37.7 MiB" in out
    code, out, _ = run_cli(capsys, "analyze", str(NSYS / "clue-2023.2-managed-prefetch.sqlite.gz"), "--json")
    migrations = json.loads(out)["migrations"]
    assert migrations["h2d"]["count"] == 445 and migrations["d2h"]["bytes"] == 39_526_400


def _analyze_in_a_child(path: Path, **env: str) -> subprocess.CompletedProcess[bytes]:
    """`overlapviz analyze PATH` in a process of its own, writing to real pipes in the encoding `env` gives."""
    kept = {key: value for key, value in os.environ.items() if key not in ("PYTHONIOENCODING", "LANG", "LC_ALL")}
    return subprocess.run([sys.executable, "-m", "overlapviz", "analyze", os.fsencode(path)], capture_output=True,
                          env={**kept, **env}, cwd=Path(__file__).resolve().parents[1], timeout=120)  # fmt: skip


def test_analyze_text_writes_a_lone_surrogate_from_the_file_escaped(tmp_path):
    document = json.loads(PINNED.read_text())
    document["otherData"]["meta"]["device_name"] = "NVIDIA H200 \ud800"  # JSON's "\ud800": valid JSON, no UTF-8
    path = tmp_path / "surrogate.json"
    path.write_text(json.dumps(document))
    done = _analyze_in_a_child(path, LANG="C.UTF-8")
    assert (done.returncode, done.stderr) == (0, b"")
    assert b"device     NVIDIA H200 \\ud800, cupy backend" in done.stdout


def test_analyze_text_on_an_ascii_terminal_escapes_what_ascii_lacks(tmp_path):
    path = tmp_path / "caf\u00e9.json"
    path.write_bytes(PINNED.read_bytes())
    done = _analyze_in_a_child(path, LANG="C", LC_ALL="C", PYTHONIOENCODING="ascii")
    assert (done.returncode, done.stderr) == (0, b"")
    assert done.stdout.splitlines()[0] == f"trace      {tmp_path}/caf\\xe9.json".encode()

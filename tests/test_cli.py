import json
import os
import subprocess
import sys
import textwrap
import types

import pytest
from cli_runs import run_cli
from fake_backend import FakeBackend, fake_loader

from overlapviz import presets, run_report
from overlapviz.backends import registry
from overlapviz.backends.base import DeviceInfo
from overlapviz.commands.main import main
from overlapviz.core.analysis.metrics import METRIC_DEFINITIONS
from overlapviz.core.config import PipelineConfig
from overlapviz.core.config.pinning import PINNED_SHARE_ENV
from overlapviz.core.files.trace_export import CSV_HEADER
from overlapviz.core.files.trace_import import import_chrome
from overlapviz.core.trace.columns import COLUMNS

JSON_KEYS = {
    "makespan_ms", "serial_ms", "speedup", "host_blocked_ms", "busy_ms", "copy_hidden_pct", "engines_together_pct",
    "efficiency_pct", "lower_bound_ms", "wall_ms", "time_saved_ms", "backend", "device", "timing", "config",
    "findings", "bandwidth_gbps", "utilisation", "simulated", "wall_s",
}  # fmt: skip


@pytest.fixture
def preset_dir(tmp_path, monkeypatch):
    folder = tmp_path / "presets"
    folder.mkdir()
    (folder / "one.toml").write_text(textwrap.dedent("""
        title = "One preset"
        text = "It has one config. That is all."
        device = "fake-old"
        backend = "sim"
        [config]
        size = "1MiB"
        chunks = 8
        streams = 2
        memory = "pageable"
    """))
    (folder / "pair.toml").write_text(textwrap.dedent("""
        title = "A pair"
        text = "Pageable first. Pinned second."
        [a]
        label = "pageable"
        memory = "pageable"
        size = "1MiB"
        [b]
        label = "pinned"
        size = "1MiB"
    """))
    monkeypatch.setattr(presets, "presets_folder", lambda: folder)
    return folder




def run_json(capsys, *argv):
    code, out, err = run_cli(capsys, *argv, "--json")
    assert (code, err) == (0, "")
    return json.loads(out)


# --- run -------------------------------------------------------------------------------


def test_json_has_the_agreed_keys(backends, capsys):
    report = run_json(capsys, "run", "--backend", "sim")
    assert set(report) >= JSON_KEYS
    assert set(report["busy_ms"]) == {"h2d", "kernel", "d2h"}
    assert report["backend"] == "sim" and report["device"] == "fake-gpu"
    assert report["timing"] == "model" and report["simulated"] is True
    assert report["config"] == PipelineConfig().to_dict()  # the defaults
    assert all(set(f) == {"code", "message"} for f in report["findings"])
    assert report["makespan_ms"] == pytest.approx(18 / 1000)  # 16 chunks, 3 stages of 1 us, pipelined


def test_auto_falls_back_to_the_model(backends, capsys):
    assert run_json(capsys, "run")["backend"] == "sim"


def test_every_flag_reaches_the_config(backends, capsys):
    report = run_json(
        capsys, "run", "--size", "64MiB", "--chunks", "8", "--streams", "2", "--memory", "pageable",
        "--order", "breadth", "--stream-kind", "legacy", "--kernel", "sincos", "--kernel-iters", "0",
        "--fresh-output", "--host-alloc", "per-run", "--device", "fake-old",
    )  # fmt: skip
    assert report["config"] == PipelineConfig(
        size_bytes=64 * 2**20, chunks=8, streams=2, memory="pageable", order="breadth", stream_kind="legacy",
        kernel="sincos", iters=0, fresh_output=True, host_alloc="per-run",
    ).to_dict()  # fmt: skip
    assert backends["sim"].calls[0][1] == "fake-old"


def test_text_summary(backends, capsys):
    code, out, err = run_cli(capsys, "run", "--chunks", "4")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == f"pipeline   {PipelineConfig(chunks=4).describe()}"
    assert lines[1].startswith("device     Fake fake-gpu, sim backend, simulated (timing: model), run took ")
    assert lines[2] == "makespan   6.00 µs   serial 12.0 µs   saved 6.00 µs (2.00x)"
    assert lines[3].startswith("overlap    copy time hidden ") and "efficiency " in lines[3]
    assert lines[4].startswith("host       blocked 120 ns   wall ")
    assert "allocating" not in lines[4]  # nothing was allocated inside the run
    assert lines[5] == "busy       h2d 4.00 µs (67 %)   kernel 4.00 µs (67 %)   d2h 4.00 µs (67 %)"
    assert lines[6].startswith("bandwidth  h2d ") and "GB/s" in lines[6]
    assert lines[7].startswith("findings")


def test_text_summary_shows_the_wait_of_a_run_that_allocates(capsys):
    code, out, _ = run_cli(capsys, "run", "--backend", "sim", "--host-alloc", "per-run")
    host = [line for line in out.splitlines() if line.startswith("host ")]
    assert code == 0 and len(host) == 1 and "allocating and freeing" in host[0]


def test_text_summary_says_measured_for_a_real_gpu(monkeypatch, capsys):
    monkeypatch.delenv(registry.BACKEND_ENV, raising=False)
    gpu = FakeBackend("cupy", devices=("0",), simulated=False)
    monkeypatch.setattr(registry, "load_backend", fake_loader({"cupy": gpu, "sim": FakeBackend()}))
    code, out, _ = run_cli(capsys, "run")
    assert code == 0
    assert "cupy backend, measured (timing: cupti)" in out.splitlines()[1]


def test_findings_one_per_line(backends, capsys, monkeypatch):
    from overlapviz.core.findings import Finding

    monkeypatch.setattr(
        "overlapviz.session.trace_findings",
        lambda trace, metrics: [Finding("a", "First finding.", (0,)), Finding("b", "Second\nfinding.", (1,))],
    )
    _, out, _ = run_cli(capsys, "run")
    assert out.splitlines()[-3:] == ["findings", "  - First finding.", "  - Second finding."]
    report = run_json(capsys, "run")
    assert [f["code"] for f in report["findings"]] == ["a", "b"]


def test_no_findings_and_nothing_to_overlap(backends, capsys, monkeypatch):
    monkeypatch.setattr("overlapviz.session.trace_findings", lambda trace, metrics: [])
    _, out, _ = run_cli(capsys, "run", "--chunks", "1")
    lines = out.splitlines()
    assert lines[3].startswith("overlap    copy time hidden 0 %   engines together 0 %")
    assert lines[-1] == "findings   none"
    report = run_json(capsys, "run", "--chunks", "1")
    assert (report["copy_hidden_pct"], report["engines_together_pct"]) == (0.0, 0.0)
    assert "overlap_pct" not in report and "ideal_ms" not in report


def test_run_help_defines_every_headline_figure(capsys):
    code, out, _ = run_cli(capsys, "run", "--help")
    assert code == 0
    out = " ".join(out.split())
    for key in ("copy_hidden", "comm_hidden", "engines_together", "efficiency", "lower_bound", "time_saved", "wall"):
        assert " ".join(METRIC_DEFINITIONS[key].split()) in out


def test_preset_values_used(backends, preset_dir, capsys):
    report = run_json(capsys, "run", "--preset", "one")
    assert report["preset"] == "one" and report["label"] == "One preset"
    assert report["config"] == PipelineConfig(size_bytes=2**20, chunks=8, streams=2, memory="pageable").to_dict()
    assert report["device"] == "fake-old"  # the preset's device


def test_flags_override_the_preset(backends, preset_dir, capsys):
    report = run_json(capsys, "run", "--preset", "one", "--chunks", "4", "--memory", "pinned", "--device", "fake-gpu")
    assert report["config"] == PipelineConfig(size_bytes=2**20, chunks=4, streams=2, memory="pinned").to_dict()
    assert report["device"] == "fake-gpu"


def test_comparison_runs_both(backends, preset_dir, capsys):
    report = run_json(capsys, "run", "--preset", "pair", "--chunks", "2")
    assert report["preset"] == "pair"
    a, b = report["runs"]
    assert (a["label"], b["label"]) == ("pageable", "pinned")
    assert (a["config"]["memory"], b["config"]["memory"]) == ("pageable", "pinned")
    assert a["config"]["chunks"] == b["config"]["chunks"] == 2  # the flag changes both sides
    assert set(a) >= JSON_KEYS and set(b) >= JSON_KEYS
    assert len(backends["sim"].calls) == 2


def test_comparison_text_shows_both(backends, preset_dir, capsys):
    code, out, _ = run_cli(capsys, "run", "--preset", "pair")
    assert code == 0
    assert out.splitlines()[0] == "preset     pair: A pair"
    assert "== A: pageable ==" in out and "== B: pinned ==" in out
    assert out.count("makespan ") == 2


def test_comparison_sides_run_on_their_own_devices(backends, preset_dir, capsys):
    (preset_dir / "machines.toml").write_text(textwrap.dedent("""
        title = "Two machines"
        text = "Side A here. Side B there."
        [a]
        label = "new"
        device = "fake-gpu"
        [b]
        label = "old"
        device = "fake-old"
    """))
    a, b = run_json(capsys, "run", "--preset", "machines")["runs"]
    assert (a["device"], b["device"]) == ("fake-gpu", "fake-old")
    a, b = run_json(capsys, "run", "--preset", "machines", "--device", "fake-old")["runs"]
    assert a["device"] == b["device"] == "fake-old"  # --device runs both on the one given


def test_trace_and_csv_written_and_reimport(backends, tmp_path, capsys):
    trace_path, csv_path = tmp_path / "run.json", tmp_path / "run.csv"
    code, out, _ = run_cli(capsys, "run", "--chunks", "4", "--trace", str(trace_path), "--csv", str(csv_path))
    assert code == 0
    assert f"wrote      {trace_path}" in out and f"wrote      {csv_path}" in out
    expected = FakeBackend().run(PipelineConfig(chunks=4))
    loaded = import_chrome(trace_path)
    assert all((loaded[c] == expected[c]).all() for c in COLUMNS) and loaded.meta == expected.meta
    lines = csv_path.read_text().splitlines()
    assert lines[0] == ",".join(CSV_HEADER) and len(lines) == len(expected) + 1


def test_comparison_writes_one_file_per_side(backends, preset_dir, tmp_path, capsys):
    code, _, _ = run_cli(capsys, "run", "--preset", "pair", "--trace", str(tmp_path / "cmp.json"), "--json")
    assert code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cmp-a.json", "cmp-b.json", "presets"]
    assert import_chrome(tmp_path / "cmp-a.json").meta.config["memory"] == "pageable"
    assert import_chrome(tmp_path / "cmp-b.json").meta.config["memory"] == "pinned"


# --- bad input: one line, exit code 2, nothing run ---------------------------------------


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["run", "--memory", "cheap"], "argument --memory: invalid choice: 'cheap'"),
        (["run", "--backend", "opencl"], "argument --backend: invalid choice: 'opencl'"),
        (["run", "--order", "sideways"], "argument --order: invalid choice"),
        (["run", "--size", "12 parsecs"], "argument --size: '12 parsecs' is not a size"),
        (["run", "--size", "2KiB"], "--size: 2 KiB is out of range"),
        (["run", "--size", "4KiB", "--chunks", "2000"], "--chunks: 2000 chunks are more than the 1024 float32"),
        (["run", "--chunks", "many"], "argument --chunks: 'many' is not a whole number"),
        (["run", "--streams", "0"], "--streams: 0 is out of range"),
        (["run", "--kernel-iters", "-1"], "--kernel-iters: -1 is out of range"),
        (["run", "--preset", "nope"], "unknown preset 'nope'; the presets are: "),
        (["run", "--device", "gtx480"], "unknown device 'gtx480' for any usable backend; choose one of: fake-gpu"),
        (["run", "--trace", "/no/such/folder/t.json"], "cannot write /no/such/folder/t.json: the folder"),
        (["run", "--bogus"], "unrecognized arguments: --bogus"),
        (["frobnicate"], "argument COMMAND: invalid choice: 'frobnicate'"),
        (["--nope"], "unrecognized arguments: --nope"),
    ],
)
def test_bad_arguments_one_line_exit_2(backends, capsys, argv, message):
    code, out, err = run_cli(capsys, *argv)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("overlapviz: error: ")
    assert message in err
    assert backends["sim"].calls == []


def test_output_path_that_is_a_folder(backends, tmp_path, capsys):
    code, _, err = run_cli(capsys, "run", "--csv", str(tmp_path))
    assert code == 2 and err == f"overlapviz: error: cannot write {tmp_path}: it is a folder\n"


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root ignores folder permissions")
def test_output_folder_without_permission(backends, tmp_path, capsys):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        code, _, err = run_cli(capsys, "run", "--trace", str(folder / "t.json"))
    finally:
        folder.chmod(0o755)
    assert code == 2
    assert err == f"overlapviz: error: cannot write {folder / 't.json'}: no permission to write in {folder}\n"


def test_fresh_output_needs_pageable(backends, capsys):
    code, _, err = run_cli(capsys, "run", "--fresh-output")
    assert code == 2 and err.startswith("overlapviz: error: --fresh-output: ")


def test_preset_chunks_need_not_divide_a_size_set_by_a_flag(backends, preset_dir, capsys):
    # the preset's 8 chunks of 3,073 elements: 384 each, the last one 385
    code, _, err = run_cli(capsys, "run", "--preset", "one", "--size", "12292")
    assert code == 0 and err == ""
    assert backends["sim"].calls[0][0].chunk_elements_of(7) == 385


def test_write_failure_after_the_run_is_one_line(backends, tmp_path, capsys, monkeypatch):
    def full_disk(trace, path):
        raise OSError(28, "No space left on device", str(path))

    monkeypatch.setattr("overlapviz.commands.outputs.export_chrome", full_disk)
    code, _, err = run_cli(capsys, "run", "--trace", str(tmp_path / "t.json"))
    assert code == 2
    assert err == f"overlapviz: error: [Errno 28] No space left on device: '{tmp_path / 't.json'}'\n"


def test_unusable_backend_is_exit_1(backends, capsys):
    code, out, err = run_cli(capsys, "run", "--backend", "cupy")
    assert (code, out) == (1, "")
    assert err == "overlapviz: error: the cupy backend is not here\n"


def test_interrupt_is_one_line(backends, capsys, monkeypatch):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr("overlapviz.commands.run.run_on", interrupted)
    code, _, err = run_cli(capsys, "run")
    assert (code, err) == (130, "overlapviz: error: interrupted\n")


def test_json_has_no_nan():
    cleaned = run_report.finite_json({"a": float("nan"), "b": [float("inf"), 1.5], "c": "x"})
    assert cleaned == {"a": None, "b": [None, 1.5], "c": "x"}


# --- devices, presets, help, the app -------------------------------------------------------


def test_devices_without_gpu(backends, capsys):
    code, out, _ = run_cli(capsys, "devices")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "backends"
    assert any(line.split()[:3] == ["cupy", "not", "usable"] and "is not here" in line for line in lines)
    assert any(line.split()[:2] == ["sim", "usable"] for line in lines)
    assert "  auto  picks sim" in lines
    assert lines[lines.index("GPUs") + 1] == "  none found"
    profiles = lines[lines.index("simulated profiles") + 1:]
    assert [p.split()[0] for p in profiles] == ["fake-gpu", "fake-old"]
    assert profiles[0].endswith("Fake fake-gpu, 2 copy engines")


def test_devices_with_gpu(backends, capsys):
    backends["cupy"] = FakeBackend("cupy", devices=("0",), simulated=False)
    _, out, _ = run_cli(capsys, "devices")
    lines = out.splitlines()
    assert "  auto  picks cupy" in lines
    assert lines[lines.index("GPUs") + 1].split() == ["0", "Fake", "0,", "2", "copy", "engines", "(cupy", "backend)"]


def test_devices_columns_line_up_for_any_name_length(backends, capsys, monkeypatch):
    backends["sim"] = FakeBackend("sim", devices=("a", "a-profile-with-a-long-name", "mid-length"))
    gpu = FakeBackend("cupy", devices=("0", "cuda:10"), simulated=False)
    facts = {"copy_engines": 1, "timing": "cupti"}
    monkeypatch.setattr(gpu, "devices", lambda: [DeviceInfo(k, f"Fake {k}", simulated=False, facts=facts)
                                                 for k in gpu.keys])
    backends["cupy"] = gpu
    _, out, _ = run_cli(capsys, "devices")
    lines = out.splitlines()
    profiles = lines[lines.index("simulated profiles") + 1:]
    assert len({line.index("Fake") for line in profiles}) == 1, profiles
    assert all(line.endswith(", 2 copy engines") for line in profiles)
    gpus = lines[lines.index("GPUs") + 1: lines.index("simulated profiles")]
    assert len({line.index(text) for line, text in zip(gpus, ["Fake", "timing", "Fake", "timing"], strict=True)}) == 1
    assert gpus[0].endswith("Fake 0, 1 copy engine (cupy backend)")
    backend_rows = lines[1: lines.index("GPUs")]
    assert len({line.index(word) for line, word in zip(backend_rows, ["usable", "usable", "picks"], strict=True)}) == 1


def test_presets_lessons_in_their_order(capsys):
    code, out, _ = run_cli(capsys, "presets", "--lessons")
    assert code == 0
    ordered = presets.lessons()
    lines = out.splitlines()
    assert [line.split()[:2] for line in lines] == [[str(p.lesson), p.name] for p in ordered]
    assert lines[0].split()[:2] == ["1", "copy-pinned-vs-pageable"] and len(lines) == len(ordered) == 25
    assert all(line.endswith(p.title) for line, p in zip(lines, ordered, strict=True))


def test_presets_one_per_line_name_first(capsys):
    code, out, _ = run_cli(capsys, "presets")
    assert code == 0
    shipped = presets.load_presets()
    lines = out.splitlines()
    assert [line.split()[0] for line in lines] == list(shipped)
    for line, preset in zip(lines, shipped.values(), strict=True):
        assert line.endswith(preset.title)


def test_help_and_version(capsys):
    code, out, _ = run_cli(capsys, "--help")
    assert code == 0 and "run" in out and "devices" in out and "presets" in out
    code, out, _ = run_cli(capsys, "run", "--help")
    assert code == 0 and "--kernel-iters" in out and '"runs"' in out
    code, out, _ = run_cli(capsys, "--version")
    assert code == 0 and out.startswith("overlapviz ")


def test_no_command_without_the_app_is_one_line_exit_1(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "overlapviz._qt.app", None)  # makes the import fail
    code, out, err = run_cli(capsys)
    assert (code, out) == (1, "")
    assert err.count("\n") == 1 and "the desktop app is not available in this build" in err


def test_no_command_starts_the_app(capsys, monkeypatch):
    started = []
    app = types.ModuleType("overlapviz._qt.app")
    app.main = lambda: started.append(True) or 0
    monkeypatch.setitem(sys.modules, "overlapviz._qt.app", app)
    assert main([]) == 0
    assert started == [True]


def test_python_dash_m(tmp_path):
    done = subprocess.run([sys.executable, "-m", "overlapviz", "--help"], capture_output=True, text=True)
    assert done.returncode == 0 and "usage: overlapviz" in done.stdout
    done = subprocess.run([sys.executable, "-m", "overlapviz", "run", "--memory", "x"], capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr.startswith("overlapviz: error: argument --memory") and done.stderr.count("\n") == 1


# --- with the real simulated backend ------------------------------------------------------


def test_sim_h200_json(capsys, monkeypatch):
    monkeypatch.delenv(registry.BACKEND_ENV, raising=False)
    report = run_json(capsys, "run", "--backend", "sim", "--device", "h200")
    assert set(report) >= JSON_KEYS
    assert (report["backend"], report["device"], report["timing"], report["simulated"]) == ("sim", "h200", "model",
                                                                                            True)
    assert 0 < report["lower_bound_ms"] <= report["makespan_ms"] < report["serial_ms"]
    assert report["copy_hidden_pct"] >= 80 and report["efficiency_pct"] >= 85
    assert report["time_saved_ms"] == pytest.approx(report["serial_ms"] - report["makespan_ms"], abs=1e-5)


def test_sim_every_shipped_preset_runs(capsys, monkeypatch):
    monkeypatch.delenv(registry.BACKEND_ENV, raising=False)
    monkeypatch.delenv(PINNED_SHARE_ENV, raising=False)
    for name, preset in presets.load_presets().items():
        if name == "pin-too-much":  # the lesson whose run the RAM guard refuses
            code, out, err = run_cli(capsys, "run", "--preset", name)
            assert (code, out) == (1, "") and err.count("\n") == 1
            assert err.startswith("overlapviz: error: refusing to pin 64 GiB of host memory")
            continue
        report = run_json(capsys, "run", "--preset", name)
        runs = report.get("runs", [report])
        assert len(runs) == len(preset.configs), name
        for run, device in zip(runs, preset.devices, strict=True):
            assert run["device"] == (device or "h200") and run["simulated"], name  # no GPU here: the h200 model
            for key in ("copy_hidden_pct", "engines_together_pct", "efficiency_pct"):
                assert run[key] is None or 0.0 <= run[key] <= 100.0, (name, key, run[key])


def test_sim_harris_issue_order_on_the_c1060(capsys):
    v1 = run_json(capsys, "run", "--preset", "harris-c1060-v1")
    v2 = run_json(capsys, "run", "--preset", "harris-c1060-v2")
    assert v2["makespan_ms"] < v1["makespan_ms"]  # one copy engine: breadth order wins


def test_sim_trace_file_is_the_run(capsys, tmp_path):
    code, _, _ = run_cli(capsys, "run", "--backend", "sim", "--chunks", "8", "--trace", str(tmp_path / "t.json"))
    assert code == 0
    direct = registry.load_backend("sim").run(PipelineConfig(chunks=8))
    loaded = import_chrome(tmp_path / "t.json")
    assert all((loaded[c] == direct[c]).all() for c in COLUMNS)
    assert loaded.names == direct.names


# --- bandwidth -------------------------------------------------------------------------------


def test_bandwidth_table_from_the_model(capsys, monkeypatch):
    monkeypatch.delenv(registry.BACKEND_ENV, raising=False)
    code, out, err = run_cli(capsys, "bandwidth", "--backend", "sim")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "device  NVIDIA H200 (model), sim backend, simulated"
    assert lines[1] == "link    PCIe Gen5 x16: theoretical limit 63.0 GB/s per direction"
    assert lines[2].split() == [
        "size", "pinned", "H2D", "pinned", "D2H", "pageable", "H2D", "pageable", "D2H",
        "write-combined", "H2D", "write-combined", "D2H", "(GB/s)",
    ]  # fmt: skip
    rows = [line.split() for line in lines[3:]]
    assert [" ".join(row[:2]) for row in rows] == ["64 KiB", "256 KiB", "1 MiB", "4 MiB", "16 MiB", "64 MiB",
                                                   "256 MiB", "1 GiB"]
    assert rows[-1][2:] == ["55.3", "55.3", "7.03", "11.2", "55.2", "55.1"]  # the profile's measured rates at 1 GiB


def test_bandwidth_json_for_a_tesla_model(capsys, monkeypatch):
    monkeypatch.delenv(registry.BACKEND_ENV, raising=False)
    report = run_json(capsys, "bandwidth", "--device", "tesla-c1060")
    assert (report["backend"], report["device"], report["simulated"]) == ("sim", "tesla-c1060", True)
    assert (report["link"], report["link_peak_gbps"]) == ("PCIe Gen2 x16", 8.0)
    assert len(report["points"]) == 8 * 2 * 2
    assert set(report["points"][0]) == {"size", "memory", "direction", "gbps", "seconds"}
    assert {p["memory"] for p in report["points"]} == {"pinned", "pageable"}


def test_bandwidth_on_a_backend_that_cannot_sweep_is_one_line_exit_1(backends, capsys):
    backends["cupy"] = FakeBackend("cupy", devices=("0",), simulated=False)
    code, out, err = run_cli(capsys, "bandwidth", "--backend", "cupy")
    assert (code, out) == (1, "")
    assert err == (
        "overlapviz: error: the cupy backend cannot sweep copy bandwidth in this version;"
        " 'overlapviz bandwidth --backend sim' gives the model's\n"
    )


def test_bandwidth_on_a_backend_that_sweeps(backends, capsys):
    gpu = FakeBackend("cupy", devices=("cuda:0",), simulated=False)
    asked = []

    def sweep(sizes, device, kinds=None):  # like the backends: no kinds, the device's own
        asked.append((tuple(sizes), kinds, device))
        kinds = ("pinned", "pageable")
        return [{"size": size, "memory": kind, "direction": d, "gbps": 50.0 if kind == "pinned" else float("nan"),
                 "seconds": 1.0} for kind in kinds for size in sizes for d in ("h2d", "d2h")]

    gpu.bandwidth_sweep = sweep
    backends["cupy"] = gpu
    code, out, _ = run_cli(capsys, "bandwidth", "--backend", "cupy", "--device", "cuda:0")
    assert code == 0 and asked[0][1:] == (None, "cuda:0") and len(asked[0][0]) == 8
    lines = out.splitlines()
    assert lines[0] == "device  Fake cuda:0, cupy backend, measured"  # no link line: the facts do not say
    assert lines[2].split()[2:] == ["50.0", "50.0", "-", "-"]
    report = run_json(capsys, "bandwidth", "--backend", "cupy")
    assert report["points"][-1]["gbps"] is None and report["link_peak_gbps"] is None


def test_bandwidth_bad_device_is_exit_2(capsys, monkeypatch):
    monkeypatch.delenv(registry.BACKEND_ENV, raising=False)
    code, _, err = run_cli(capsys, "bandwidth", "--backend", "sim", "--device", "nope")
    assert code == 2 and err.startswith("overlapviz: error: unknown device 'nope'") and err.count("\n") == 1


def test_devices_says_which_timing_a_gpu_uses_and_why(backends, capsys, monkeypatch):
    gpu = FakeBackend("cupy", devices=("0",), simulated=False)
    facts = {"copy_engines": 3, "timing": "cuda-events", "timing_reason": "CUPTI is not used: another profiler"}
    monkeypatch.setattr(gpu, "devices", lambda: [DeviceInfo("0", "Fake 0", simulated=False, facts=facts)])
    backends["cupy"] = gpu
    _, out, _ = run_cli(capsys, "devices")
    lines = out.splitlines()
    assert lines[lines.index("GPUs") + 2].split(maxsplit=1) == [
        "timing:", "cuda-events (CUPTI is not used: another profiler)"]


def test_sim_the_figures_read_as_the_picture_looks(capsys):
    pageable = run_json(capsys, "run", "--backend", "sim", "--memory", "pageable")
    assert pageable["copy_hidden_pct"] <= 10 and pageable["engines_together_pct"] <= 10
    default = run_json(capsys, "run", "--backend", "sim")
    two_chunks = run_json(capsys, "run", "--backend", "sim", "--chunks", "2")
    assert two_chunks["efficiency_pct"] <= 75 < default["efficiency_pct"]
    one_stream = run_json(capsys, "run", "--backend", "sim", "--streams", "1")
    assert one_stream["copy_hidden_pct"] <= 1


def test_sim_a_pageable_run_says_real_pageable_times_vary(capsys):
    code, out, _ = run_cli(capsys, "run", "--backend", "sim", "--memory", "pageable")
    notes = [line for line in out.splitlines() if line.startswith("note ")]
    assert code == 0 and len(notes) == 1 and "vary with the host's memory system" in notes[0]
    assert "measured" in notes[0] and "ms on H200 hosts" in notes[0]
    assert run_json(capsys, "run", "--backend", "sim", "--memory", "pageable")["caveat"].startswith("Real pageable")
    assert run_json(capsys, "run", "--backend", "sim")["caveat"] is None

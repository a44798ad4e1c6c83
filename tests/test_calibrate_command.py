"""``overlapviz calibrate`` without a GPU: its checks, its file, its report (the measuring is faked)."""

from __future__ import annotations

import json

import pytest

from overlapviz.backends import registry
from overlapviz.backends.cupy import calibrate as gpu_calibrate
from overlapviz.backends.sim.profile import load_profile
from overlapviz.commands import calibrate as calibrate_command
from overlapviz.commands.main import main
from overlapviz.core.run_errors import BackendError
from tests.backends.test_calibration import measurements_of_the_model


@pytest.fixture
def config_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    return tmp_path / "config" / "overlapviz" / "profiles"


@pytest.fixture
def gpu(monkeypatch, config_home):
    """One GPU, "Test GPU", whose measurements are those of the h200 model; records each measure call."""
    calls = []

    def measure(index, progress):
        calls.append(index)
        for share, step in ((0.0, "reading the device"), (0.5, "copies"), (1.0, "done")):
            progress(share, step)
        return measurements_of_the_model()

    monkeypatch.setattr(registry, "load_backend", lambda name: object())
    monkeypatch.setattr(gpu_calibrate, "gpu_names", lambda: ["Test GPU"])
    monkeypatch.setattr(gpu_calibrate, "measure", measure)
    return calls


def one_line_error(capsys, code, argv):
    assert main(argv) == code
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith("overlapviz: error: ")
    assert captured.err.count("\n") == 1
    return captured.err


def test_without_cupy_it_is_bad_input(capsys, monkeypatch):
    def no_cupy(name):
        raise BackendError("CuPy is not installed (install overlapviz[cuda12] or overlapviz[cuda13])")

    monkeypatch.setattr(registry, "load_backend", no_cupy)
    err = one_line_error(capsys, 2, ["calibrate"])
    assert "calibrate measures a real NVIDIA GPU" in err and "CuPy is not installed" in err


def test_without_a_gpu_it_is_bad_input(capsys, monkeypatch, gpu):
    monkeypatch.setattr(gpu_calibrate, "gpu_names", lambda: [])
    assert "CUDA finds none" in one_line_error(capsys, 2, ["calibrate"])
    assert gpu == []


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--device", "gpu0"], "'gpu0' is not a GPU; use cuda:0"),
        (["--device", "cuda:3"], "there is no GPU cuda:3; this machine has cuda:0 (Test GPU)"),
        (["--name", "h200"], "'h200' is a shipped profile's name"),
        (["--name", "../escape"], "is not a profile name"),
        (["-o", "profile.txt"], "must end in .toml"),
        (["-o", "nowhere/profile.toml"], "the folder nowhere does not exist"),
        (["--name", "a", "-o", "b.toml"], "not allowed with argument"),
    ],
)
def test_bad_arguments_are_one_line_before_anything_is_measured(capsys, gpu, argv, message):
    assert message in one_line_error(capsys, 2, ["calibrate", *argv])
    assert gpu == []


def test_an_output_that_is_a_folder_is_refused(capsys, gpu, tmp_path):
    (tmp_path / "dir.toml").mkdir()
    assert "is a folder" in one_line_error(capsys, 2, ["calibrate", "-o", str(tmp_path / "dir.toml")])


def test_it_writes_a_profile_the_model_runs_and_devices_lists(capsys, gpu, config_home, monkeypatch):
    assert main(["calibrate"]) == 0
    captured = capsys.readouterr()
    path = config_home / "test-gpu-calibrated.toml"
    assert path.is_file() and gpu == [0]
    assert f"wrote      {path}" in captured.out
    assert "run it     overlapviz run --device test-gpu-calibrated" in captured.out
    assert "pinned H2D 55.3 GB/s" in captured.out
    assert captured.err.splitlines()[-1].startswith("[##############################] 100% done")
    assert load_profile("test-gpu-calibrated").name == "Test GPU (calibrated 2026-12-01)"
    monkeypatch.undo()  # the real registry again: the model runs the profile by its name
    monkeypatch.setenv("XDG_CONFIG_HOME", str(config_home.parents[1]))
    assert main(["run", "--backend", "sim", "--device", "test-gpu-calibrated", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["device_name"] == "Test GPU (calibrated 2026-12-01)"


def test_an_existing_profile_is_kept_unless_forced(capsys, gpu, config_home):
    config_home.mkdir(parents=True)
    path = config_home / "mine.toml"
    path.write_text("# my own notes\n")
    assert "exists; --force replaces it" in one_line_error(capsys, 2, ["calibrate", "--name", "mine"])
    assert path.read_text() == "# my own notes\n" and gpu == []
    assert main(["calibrate", "--name", "mine", "--force"]) == 0
    assert load_profile("mine").sm_count == 132


def test_a_profile_written_to_a_path_is_run_by_that_path(capsys, gpu, tmp_path):
    path = tmp_path / "here.toml"
    assert main(["calibrate", "-o", str(path)]) == 0
    assert f"run it     overlapviz run --device {path}" in capsys.readouterr().out
    assert load_profile(str(path)).copy_engines == 3


def test_a_failed_measurement_writes_nothing(capsys, gpu, config_home, monkeypatch):
    def broken(index, progress):
        progress(0.1, "pinned copies by size")
        raise BackendError("CUDA error while calibrating: an illegal memory access was encountered")

    monkeypatch.setattr(gpu_calibrate, "measure", broken)
    assert main(["calibrate"]) == 1
    assert "illegal memory access" in capsys.readouterr().err
    assert not config_home.exists() or not list(config_home.iterdir())


@pytest.mark.parametrize(
    ("share", "line"),
    [(0.0, "[" + "." * 30 + "]   0% start"), (0.5, "[" + "#" * 15 + "." * 15 + "]  50% start"),
     (1.7, "[" + "#" * 30 + "] 100% start"), (-1, "[" + "." * 30 + "]   0% start")],
)
def test_the_progress_bar(share, line):
    assert calibrate_command.progress_line(share, "start") == line


@pytest.mark.parametrize(
    ("gpu_name", "name"),
    [("NVIDIA H200", "nvidia-h200-calibrated"), ("Tesla K20c", "tesla-k20c-calibrated"), ("???", "gpu-calibrated")],
)
def test_default_names(gpu_name, name):
    assert calibrate_command.default_name(gpu_name) == name

"""`overlapviz run --gpus 2` on the model, end to end."""

import json

from overlapviz.core.config import PipelineConfig
from tests.cli_runs import run_cli

SMALL = ("--size", "16MiB", "--chunks", "4", "--streams", "2")


def test_two_gpus_run_on_the_nvlink_profile(capsys, tmp_path):
    trace = tmp_path / "two.json"
    code, out, err = run_cli(capsys, "run", "--backend", "sim", "--device", "h200x2-nvlink", "--gpus", "2", *SMALL,
                             "--json", "--trace", trace)  # fmt: skip
    assert (code, err) == (0, "")
    report = json.loads(out)
    assert report["config"] == PipelineConfig(size_bytes=16 << 20, chunks=4, streams=2, gpus=2).to_dict()
    assert report["config"]["gpus"] == 2 and report["simulated"] is True
    events = json.loads(trace.read_text())
    events = events["traceEvents"] if isinstance(events, dict) else events
    assert any("PtoP" in str(event.get("name", "")) for event in events)


def test_peer_access_off_is_slower(capsys):
    spans = {}
    for flag in ("--peer-access", "--no-peer-access"):
        code, out, err = run_cli(capsys, "run", "--backend", "sim", "--device", "h200x2-nvlink", "--gpus", "2",
                                 *SMALL, flag, "--json")  # fmt: skip
        assert (code, err) == (0, "")
        spans[flag] = json.loads(out)["makespan_ms"]
    assert spans["--no-peer-access"] > spans["--peer-access"]


def test_two_gpus_on_a_one_gpu_profile_is_one_line_exit_1(capsys):
    """The settings are valid; the profile cannot run them: a failed run, as when the RAM guard refuses one."""
    code, out, err = run_cli(capsys, "run", "--backend", "sim", "--device", "h200", "--gpus", "2", *SMALL)
    assert code == 1 and out == "" and err.count("\n") == 1 and "h200x2-nvlink" in err


def test_bad_gpu_settings_are_one_line_exit_2(capsys):
    for argv in (("--gpus", "3"), ("--no-peer-access",), ("--gpus", "2", "--memory", "mapped")):
        code, out, err = run_cli(capsys, "run", "--backend", "sim", "--device", "h200x2-nvlink", *SMALL, *argv)
        assert code == 2 and out == "" and err.count("\n") == 1, (argv, err)


def test_devices_says_the_nvlink_profile_is_not_calibrated(capsys):
    code, out, _ = run_cli(capsys, "devices")
    line = next(line for line in out.splitlines() if "h200x2-nvlink" in line)
    assert code == 0 and "not calibrated on two real GPUs" in line


def test_devices_counts_the_copy_engines_of_each_gpu_of_a_two_gpu_profile(capsys):
    code, out, _ = run_cli(capsys, "devices")
    lines = {line.split()[0]: line for line in out.splitlines() if line.startswith("  ")}
    assert code == 0 and lines["h200x2-pcie"].endswith("3 copy engines per GPU")
    assert lines["h200"].endswith("3 copy engines")  # one GPU: no "per GPU"

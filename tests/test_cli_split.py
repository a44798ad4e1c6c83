"""`overlapviz run --gpus 2 --gpu-layout split` on the model, end to end, and the layout in a preset."""

import json

import pytest

from overlapviz.core.config import GpuLayout, PipelineConfig
from overlapviz.presets import PresetError, load_preset
from tests.cli_runs import run_cli

SMALL = ("--size", "16MiB", "--chunks", "4", "--streams", "2")
ON_TWO = ("run", "--backend", "sim", "--device", "h200x2-nvlink", *SMALL)


def test_split_runs_on_both_gpus_without_peer_copies(capsys, tmp_path):
    trace = tmp_path / "split.json"
    code, out, err = run_cli(capsys, *ON_TWO, "--gpus", "2", "--gpu-layout", "split", "--json", "--trace", trace)
    assert (code, err) == (0, "")
    report = json.loads(out)
    wanted = PipelineConfig(size_bytes=16 << 20, chunks=4, streams=2, gpus=2, gpu_layout="split")
    assert report["config"] == wanted.to_dict() and report["config"]["gpu_layout"] == "split"
    events = json.loads(trace.read_text())
    events = events["traceEvents"] if isinstance(events, dict) else events
    names = {str(event.get("name", "")) for event in events}
    assert any("HtoD" in name for name in names) and not any("PtoP" in name for name in names)


def test_the_summary_says_the_layout(capsys):
    code, out, err = run_cli(capsys, *ON_TWO, "--gpus", "2", "--gpu-layout", "split")
    assert (code, err) == (0, "") and "2 GPUs, split layout" in out
    code, out, err = run_cli(capsys, *ON_TWO, "--gpus", "2")
    assert (code, err) == (0, "") and "2 GPUs, chain layout, peer access on" in out


def test_bad_layout_settings_name_their_flag_on_one_line_exit_2(capsys):
    cases = {
        ("--gpu-layout", "split"): "--gpu-layout: the split layout shares the chunks between GPUs: it needs gpus = 2",
        ("--gpus", "2", "--gpu-layout", "split", "--no-peer-access"): "--peer-access: the split layout makes no peer",
        ("--gpus", "2", "--gpu-layout", "split", "--memory", "staged"): "--gpus: the two-GPU pipeline copies host",
        ("--gpus", "2", "--gpu-layout", "halves"): "invalid choice: 'halves'",
    }
    for argv, message in cases.items():
        code, out, err = run_cli(capsys, *ON_TWO, *argv)
        assert code == 2 and out == "" and err.count("\n") == 1 and message in err, (argv, err)


def test_a_preset_config_takes_the_layout(tmp_path):
    path = tmp_path / "split.toml"
    path.write_text(
        'title = "Split"\ntext = "Both GPUs pull from one pinned buffer."\ndevice = "h200x2-nvlink"\n'
        '[config]\nsize = "16MiB"\nchunks = 4\nstreams = 2\ngpus = 2\ngpu_layout = "split"\n'
    )
    (config,) = load_preset(path).configs
    assert config.gpu_layout is GpuLayout.SPLIT and config.is_split
    path.write_text(path.read_text().replace("gpus = 2\n", ""))
    with pytest.raises(PresetError, match=r"\[config\] gpu_layout: the split layout .* needs gpus = 2"):
        load_preset(path)

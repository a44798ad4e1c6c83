"""`overlapviz render` of real traces: the time the app opens them on, and `--window` as View ▸ Time window cuts."""

import re
from pathlib import Path

import pytest
from cli_runs import run_cli

from overlapviz.commands.pictures import PICTURE_FORMATS_HELP

DATA = Path(__file__).parent / "data"
NSYS = DATA / "nsys" / "test-cuda-2026.1-pinned-streams.sqlite.gz"
TRAIN_STEP = DATA / "torch" / "torch-train-step.json.gz"
DATALOADER = DATA / "torch" / "torch-dataloader.json.gz"


def _description(svg: bytes) -> str:
    """The caption the SVG carries as its description, its spaces plain."""
    found = re.search(rb"<desc>(.*?)</desc>", svg, re.DOTALL)
    assert found is not None
    return found.group(1).decode().replace("\xa0", " ")


def test_a_named_range_is_drawn_cut_to_it_and_named_in_the_caption(qapp, capsys, tmp_path):
    out = tmp_path / "step.svg"
    code, printed, err = run_cli(capsys, "render", TRAIN_STEP, "-o", out, "--window", "step 1")
    assert (code, err) == (0, "") and printed == f"wrote      {out}\n"
    caption = _description(out.read_bytes())
    assert "recorded by PyTorch profiler" in caption and "window step 1, 6.654 to 9.546 ms" in caption


def test_a_span_in_ms_is_drawn_as_the_app_shows_it(qapp, capsys, tmp_path):
    out = tmp_path / "span.svg"
    assert run_cli(capsys, "render", NSYS, "-o", out, "--window", "850:960")[0] == 0
    assert "window 850.000 to 960.000 ms" in _description(out.read_bytes())
    to_end = tmp_path / "end.svg"
    assert run_cli(capsys, "render", DATALOADER, "-o", to_end, "--window", "30:")[0] == 0
    assert re.search(r"window 30\.000 to 39\.5\d\d ms", _description(to_end.read_bytes()))


@pytest.mark.parametrize(
    ("path", "window", "words"),
    [
        (TRAIN_STEP, "5:2", "--window: the window 5:2 is empty: it must end after it starts"),
        (TRAIN_STEP, "4:4", "--window: the window 4:4 is empty"),
        (TRAIN_STEP, "a:b", "--window: 'a:b' is not START:END in ms (e.g. 2:4.5 or 10:); as a name: no range"),
        (TRAIN_STEP, "ProfilerStep#3", "no range is named 'ProfilerStep#3'; the trace has 'step 0', "
                                       "'Optimizer.zero_grad#SGD.zero_grad', 'Optimizer.step#SGD.step', 'step 1', "
                                       "'step 2' and 1 more"),
        (TRAIN_STEP, "step 1#2", "there is 1 range named 'step 1', so none is #2"),
        (NSYS, "main", "no range is named 'main'; this trace has no named ranges"),
        (NSYS, "2000:3000", "--window: no span of the trace lies in the window 2000.000 to 3000.000 ms"),
    ],
)  # fmt: skip
def test_a_bad_window_is_one_line_and_exit_2(qapp, capsys, tmp_path, path, window, words):
    code, out, err = run_cli(capsys, "render", path, "-o", tmp_path / "x.png", "--window", window)
    assert code == 2 and out == ""
    assert err.startswith("overlapviz: error: ") and err.count("\n") == 1 and words in err
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_the_help_says_where_a_trace_opens_and_what_window_takes(capsys):
    code, out, _err = run_cli(capsys, "render", "--help")
    text = " ".join(out.split())
    assert code == 0
    assert "a trace recorded by another tool (PyTorch, Nsight Systems) its GPU work" in text
    assert "--window START:END|NAME" in text and "ProfilerStep#3" in text
    assert PICTURE_FORMATS_HELP in text

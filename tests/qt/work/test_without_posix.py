"""The command line's main jobs on a system without POSIX's calls (Windows, a learner's laptop).

`core.files.posix` is switched off, and the calls only POSIX has are taken out of `os` (or, for
``os.kill``, which Windows has but where signal 0 ends the process, made to fail): every one
left in a path these jobs take would fail the test. The jobs are those a laptop runs: the
model (``run --backend sim``, writing its trace atomically over an older one), ``analyze`` of
a real PyTorch profiler trace, and a PNG drawn of the run.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from cli_runs import run_cli
from PySide6.QtGui import QImage

TORCH = Path(__file__).resolve().parents[2] / "data" / "torch" / "torch-pinned.json.gz"
POSIX_ONLY = ("O_NONBLOCK", "O_NOCTTY", "set_blocking", "fchmod", "fchown", "geteuid", "getuid", "sysconf")


@pytest.fixture
def without_posix(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("overlapviz.core.files.posix._POSIX", False)
    for name in POSIX_ONLY:
        monkeypatch.delattr(os, name, raising=False)

    def kill(pid: int, sig: int) -> None:
        raise AssertionError(f"os.kill({pid}, {sig}) called: on Windows it would end that process")

    monkeypatch.setattr(os, "kill", kill)


def test_run_analyze_and_a_picture_without_posix(without_posix, capsys, tmp_path):
    trace, png = tmp_path / "run.json", tmp_path / "run.png"
    trace.write_text("an older trace, replaced whole")
    code, out, err = run_cli(capsys, "run", "--backend", "sim", "--size", "16MiB", "--trace", trace, "--png", png)
    assert (code, err) == (0, "") and "makespan" in out
    assert trace.read_text().startswith("{") and QImage(str(png)).width() == 1920
    code, out, err = run_cli(capsys, "analyze", TORCH)
    assert (code, err) == (0, "") and out.startswith(f"trace      {TORCH}\nrecorded   by PyTorch profiler")
    code, out, err = run_cli(capsys, "render", TORCH, "-o", tmp_path / "torch.png", "--width", "1000")
    assert (code, err) == (0, "") and QImage(str(tmp_path / "torch.png")).width() == 1000

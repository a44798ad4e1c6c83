"""``overlapviz profile`` on a real GPU (``pytest -m gpu``): the two example scripts, pinned and pageable.

Skipped cleanly without a GPU, CuPy or cupti-python, and the PyTorch cases without PyTorch.
Each profile runs in a process of its own, as a user runs the command.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from overlapviz.core.trace.spans import MemoryKind, OpKind
from overlapviz.importers.read import read_trace_file

pytestmark = pytest.mark.gpu
SCRIPTS = Path(__file__).resolve().parents[2] / "data" / "scripts"
ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def gpu():
    cupy = pytest.importorskip("cupy", exc_type=ImportError)
    try:
        count = cupy.cuda.runtime.getDeviceCount()
    except Exception as error:  # CuPy installed but no driver or no device
        pytest.skip(f"no usable CUDA device: {error}")
    if count == 0:
        pytest.skip("no CUDA device")
    if importlib.util.find_spec("cupti") is None:
        pytest.skip("cupti-python is not installed")


def profile(script: str, memory: str, tmp_path: Path) -> tuple[dict, object]:
    """Profile `script` with `memory` host buffers in a fresh process; its JSON report and trace."""
    out = tmp_path / f"{memory}.json"
    done = subprocess.run(
        [sys.executable, "-m", "overlapviz", "profile", "--json", "--out", str(out), "--", str(SCRIPTS / script),
         memory],
        capture_output=True, text=True, timeout=300, cwd=ROOT, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout), read_trace_file(out)


def check(report: dict, trace, memory: MemoryKind) -> None:
    """Copies both ways, kernels and calls recorded; the copies' host memory as the script chose it."""
    kinds = trace["kind"]
    for kind in (OpKind.H2D, OpKind.D2H, OpKind.KERNEL, OpKind.API):
        assert (kinds == kind).sum() >= 8, kind
    copies = np.isin(kinds, [OpKind.H2D, OpKind.D2H])
    big = copies & (trace["bytes"] >= 16 << 20)  # the script's chunks, not a library's small copies
    assert big.sum() >= 16 and set(trace["memory"][big]) == {memory}
    assert report["recorded_by"].startswith("overlapviz profile (CUPTI)")


@pytest.mark.parametrize("script", ["cupy_streams.py", "torch_copies.py"])
def test_pageable_copies_are_recorded_as_such_and_the_finding_names_them(gpu, script, tmp_path):
    if script.startswith("torch"):
        pytest.importorskip("torch")
    report, trace = profile(script, "pageable", tmp_path)
    check(report, trace, MemoryKind.PAGEABLE)
    assert "host-blocked-pageable" in {f["code"] for f in report["findings"]}


@pytest.mark.parametrize("script", ["cupy_streams.py", "torch_copies.py"])
def test_pinned_copies_are_recorded_as_such_and_nothing_says_pageable(gpu, script, tmp_path):
    if script.startswith("torch"):
        pytest.importorskip("torch")
    report, trace = profile(script, "pinned", tmp_path)
    check(report, trace, MemoryKind.PINNED)
    assert "host-blocked-pageable" not in {f["code"] for f in report["findings"]}

"""Quitting stops every thread and child process the app started, whatever it was doing: exit 0, no abort.

Each state runs in a process of its own (`quit_states`), since a QThread left running aborts
the whole process as it is freed, which no test inside this one could survive.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from quit_states import EXIT_LEFT_RUNNING, STATES

ROOT = Path(__file__).parents[3]
HELPER = Path(__file__).parents[1] / "quit_states.py"
ABORT = "QThread: Destroyed"


def _quit_in(state: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update(QT_QPA_PLATFORM="offscreen", HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path / "config"),
               TMPDIR=str(tmp_path), PYTHONPATH=str(ROOT))  # fmt: skip
    return subprocess.run([sys.executable, str(HELPER), state], env=env, cwd=ROOT, capture_output=True, text=True,
                          timeout=120)  # fmt: skip


@pytest.mark.parametrize("state", sorted(STATES))
def test_quitting_stops_every_thread_and_child(state, tmp_path):
    done = _quit_in(state, tmp_path)
    assert ABORT not in done.stderr
    assert done.returncode != EXIT_LEFT_RUNNING, done.stderr
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr


def test_a_window_that_fails_to_start_leaves_no_thread_running(tmp_path):
    done = _quit_in("start-fails", tmp_path)
    assert ABORT not in done.stderr
    assert done.returncode == 1, done.stderr  # the failure itself, reported as Python reports it
    assert "RecursionError: maximum recursion depth exceeded" in done.stderr
    assert "still running" not in done.stderr

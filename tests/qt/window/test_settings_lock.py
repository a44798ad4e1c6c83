"""A lock on the settings file that a killed app left never holds up the next start.

Each lock here is left by a real child process killed with SIGKILL, in this test's own
settings folder. Qt itself sees through a lock whose owner's process number is free; these
are the two it cannot: the number taken since by another process of the same name (here this
test's own process), and a lock file the child made but was killed before writing its owner
into. The next start comes 5 s later (the lock file is dated back), as a person restarting
the app would.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings

from overlapviz._qt.qt_ports import QtSettingsStore

HOLD_THE_LOCK = """
import sys, time
from PySide6.QtCore import QCoreApplication, QLockFile
app = QCoreApplication([])
lock = QLockFile(sys.argv[1])
print(lock.lock(), flush=True)
time.sleep(60)
"""
MAKE_THE_LOCK_FILE_ONLY = """
import os, sys, time
os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)  # QLockFile's first step
print(True, flush=True)
time.sleep(60)
"""


def killed_holding(script: str, lock: Path) -> None:
    """Run `script` on `lock` in a child process until it says it has it, then kill it (SIGKILL)."""
    with subprocess.Popen([sys.executable, "-c", script, str(lock)], stdout=subprocess.PIPE, text=True) as child:
        assert child.stdout is not None and child.stdout.readline().strip() == "True"
        os.kill(child.pid, signal.SIGKILL)
    assert lock.exists()


def owner_taken_by_this_process(lock: Path) -> None:
    _dead_owner, *rest = lock.read_text().split("\n")
    lock.write_text("\n".join([str(os.getpid()), *rest]))


@pytest.mark.parametrize(
    ("script", "then"),
    [(HOLD_THE_LOCK, owner_taken_by_this_process), (MAKE_THE_LOCK_FILE_ONLY, lambda lock: None)],
    ids=["its-number-reused", "its-owner-unwritten"],
)
def test_a_lock_left_by_a_killed_app_does_not_hold_up_the_next_start(tmp_path, script, then):
    path = tmp_path / "overlapviz.ini"
    lock = Path(f"{path}.lock")
    killed_holding(script, lock)
    then(lock)
    five_seconds_ago = time.time() - 5
    os.utime(lock, (five_seconds_ago, five_seconds_ago))
    started = time.monotonic()
    settings = QSettings(str(path), QSettings.Format.IniFormat)
    QtSettingsStore(settings).put("controls/live", "false")
    settings.sync()
    assert time.monotonic() - started < 2.0
    assert settings.status() is QSettings.Status.NoError and not lock.exists()
    assert QSettings(str(path), QSettings.Format.IniFormat).value("controls/live") == "false"

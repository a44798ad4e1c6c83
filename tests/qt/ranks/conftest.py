"""A job's folder (two real ranks of a 128-rank job, tests/data/ranks/README.md) and a window without a first run."""

import shutil
from pathlib import Path

import pytest

from overlapviz._qt.main_window import MainWindow

REAL = Path(__file__).parents[2] / "data" / "torch-real"
RANK_FILES = (REAL / "hta-sampled-rank0-of-128.json.gz", REAL / "hta-sampled-rank1-of-128.json.gz")
READ_TIMEOUT_MS = 120_000  # two ranks, each read in a spawned worker, on a busy two-core machine


@pytest.fixture
def job_folder(tmp_path):
    """A folder as a job leaves it: the ranks' traces, and a file beside them that is no trace."""
    folder = tmp_path / "job"
    folder.mkdir()
    for file in RANK_FILES:
        shutil.copy(file, folder / file.name)
    (folder / "README.md").write_text("notes of the run\n")
    return folder


@pytest.fixture
def window(qtbot, settings):
    """The app's window, shown, with live mode off and nothing run."""
    window = MainWindow(settings, live=False)
    qtbot.addWidget(window)
    window.resize(1400, 800)
    window.show()
    return window


def open_folder_and_wait(qtbot, window, folder):
    """Open `folder` as a job; True once its overview is on show, False once the window said why not."""
    ranks, ended = window.ranks, []
    ranks.job_shown.connect(lambda: ended.append(True))
    ranks.job_failed.connect(lambda _text: ended.append(False))
    assert ranks.open_folder(folder)
    qtbot.waitUntil(lambda: bool(ended), timeout=READ_TIMEOUT_MS)
    return ended[0]

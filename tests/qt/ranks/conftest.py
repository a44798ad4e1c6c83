"""A job's folder (two real ranks of a 128-rank job, tests/data/ranks/README.md) and a window without a first run."""

import shutil

import pytest
from rank_folders import RANK_FILES

from overlapviz._qt.main_window import MainWindow


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

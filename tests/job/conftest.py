"""The real job of the tests (`rank_files`), in a folder of its own and summarised once."""

import shutil

import pytest
from rank_files import RANK_FILES

from overlapviz.job.worker import RankSource, summarise_file


@pytest.fixture(scope="session")
def job_folder(tmp_path_factory):
    """A folder as a job leaves it: the ranks' traces, and a file beside them that is no trace."""
    folder = tmp_path_factory.mktemp("job")
    for file in RANK_FILES:
        shutil.copy(file, folder / file.name)
    (folder / "README.md").write_text("notes of the run\n")
    return folder


@pytest.fixture(scope="session")
def real_summaries():
    """The two ranks' summaries, read once in this process."""
    return [summarise_file(RankSource(str(file))) for file in RANK_FILES]

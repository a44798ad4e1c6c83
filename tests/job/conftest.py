"""The real job of the tests: two ranks of one 128-rank job (tests/data/ranks/README.md), in a folder of their own."""

import shutil
from pathlib import Path

import pytest

from overlapviz.job.worker import RankSource, summarise_file

REAL = Path(__file__).parents[1] / "data" / "torch-real"
RANK_FILES = (REAL / "hta-sampled-rank0-of-128.json.gz", REAL / "hta-sampled-rank1-of-128.json.gz")


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

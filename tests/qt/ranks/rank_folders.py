"""The real job of these tests (two ranks of a 128-rank job, tests/data/ranks/README.md) and waiting for it to open."""

from pathlib import Path

REAL = Path(__file__).parents[2] / "data" / "torch-real"
RANK_FILES = (REAL / "hta-sampled-rank0-of-128.json.gz", REAL / "hta-sampled-rank1-of-128.json.gz")
READ_TIMEOUT_MS = 120_000  # two ranks, each read in a spawned worker, on a busy two-core machine


def open_folder_and_wait(qtbot, window, folder):
    """Open `folder` as a job; True once its overview is on show, False once the window said why not."""
    ranks, ended = window.ranks, []
    ranks.job_shown.connect(lambda: ended.append(True))
    ranks.job_failed.connect(lambda _text: ended.append(False))
    assert ranks.open_folder(folder)
    qtbot.waitUntil(lambda: bool(ended), timeout=READ_TIMEOUT_MS)
    return ended[0]

"""The real job of the tests: two ranks of one 128-rank job (tests/data/ranks/README.md).

A module of its own, not the folder's conftest: test folders each have a conftest, and only
one of them can be imported by that name in a run of the whole suite.
"""

from pathlib import Path

REAL = Path(__file__).parents[1] / "data" / "torch-real"
RANK_FILES = (REAL / "hta-sampled-rank0-of-128.json.gz", REAL / "hta-sampled-rank1-of-128.json.gz")

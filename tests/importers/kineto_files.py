"""The real PyTorch profiler traces in tests/data/torch and tests/data/torch-real, read once per test session."""

import json
from functools import cache
from pathlib import Path

from overlapviz.core.files.safe_read import read_input_bytes
from overlapviz.importers.kineto import read_kineto

TORCH = Path(__file__).resolve().parent.parent / "data" / "torch"
OTHERS = TORCH.parent / "torch-real"  # other projects' traces (README there)
ROCM = "hta-rocm6.2-mi250.json.gz"
OLD_SMALL, OLD_RESNET = "kineto-2021.5-gpu-metrics-capitalised.json.gz", "kineto-2021.6-resnet50-capitalised.json.gz"
RANKS = ("hta-sampled-rank0-of-128.json.gz", "hta-sampled-rank1-of-128.json.gz")
NAMES = sorted(path.name for path in TORCH.glob("*.json.gz"))
COPY_LOOPS = ("torch-pageable.json.gz", "torch-pinned.json.gz", "torch-blocking.json.gz", "torch-one-stream.json.gz")


@cache
def raw_of(name):
    """The decompressed bytes of one file."""
    return read_input_bytes(TORCH / name)


def document_of(name):
    """A fresh parse of one file (the caller may change it)."""
    return json.loads(raw_of(name))


@cache
def activities_of(name):
    """One file read by `read_kineto`."""
    return read_kineto(raw_of(name), name)


def encoded(document):
    """A document as the bytes of a file."""
    return json.dumps(document).encode()


@cache
def others_raw_of(name):
    """The decompressed bytes of one file of another project's."""
    return read_input_bytes(OTHERS / name)


def others_document_of(name):
    """A fresh parse of one file of another project's (the caller may change it)."""
    return json.loads(others_raw_of(name))


@cache
def others_activities_of(name):
    """One file of another project's read by `read_kineto`."""
    return read_kineto(others_raw_of(name), name)

"""The real PyTorch profiler traces in tests/data/torch, read once per test session."""

import json
from functools import cache
from pathlib import Path

from overlapviz.core.safe_read import read_input_bytes
from overlapviz.importers.kineto import read_kineto

TORCH = Path(__file__).resolve().parent.parent / "data" / "torch"
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

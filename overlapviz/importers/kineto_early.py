"""The helpers of a large PyTorch profiler trace's read started before the read (see `kineto_parallel`).

A helper takes a few tenths of a second to start (a fresh interpreter importing numpy and
msgspec). Started as the command begins, it starts while the reading process does what comes
before the read (importing the drawing modules, copying or unpacking the file), and the read
finds it waiting.
"""

from __future__ import annotations

import gzip
import os
import stat
import struct
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from overlapviz.importers.kineto import SNIFF_BYTES, looks_like_kineto
from overlapviz.importers.kineto_parallel import end_early, helper_count, start_early

_GZIP_MAGIC = b"\x1f\x8b"


@contextmanager
def kineto_helpers_started_for(path: Path) -> Iterator[None]:
    """Within: the helpers a read of the trace at `path` would start are started; on leaving, those unused are ended.

    Nothing is started for a file that is not a PyTorch profiler trace, or cannot be read: its
    read says what is wrong.
    """
    try:
        size = _kineto_size(path)
        if size:
            start_early(helper_count(size))
        yield
    finally:
        end_early()


def _kineto_size(path: Path) -> int:
    """The size of the trace at `path` unpacked (gzip counts it modulo 4 GiB); 0 for a file that is no Kineto trace."""
    try:
        if not stat.S_ISREG(path.stat().st_mode):  # a pipe's bytes, read here, would be lost to the read
            return 0
        with path.open("rb") as stream:
            packed = stream.read(len(_GZIP_MAGIC)) == _GZIP_MAGIC
            size = os.fstat(stream.fileno()).st_size
            if packed:
                stream.seek(-4, os.SEEK_END)
                size = max(size, struct.unpack("<I", stream.read(4))[0])
            stream.seek(0)
            start = gzip.GzipFile(fileobj=stream).read(SNIFF_BYTES) if packed else stream.read(SNIFF_BYTES)
    except (OSError, EOFError, zlib.error, struct.error):
        return 0
    return size if looks_like_kineto(start) else 0

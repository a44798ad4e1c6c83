"""Helpers started before a large trace's read: the read takes them, and those no read took are ended."""

import gzip
import os

import pytest
from kineto_files import NAMES, activities_of, raw_of
from test_kineto import same_activities

from overlapviz.importers import kineto_early, kineto_parallel
from overlapviz.importers.kineto import read_kineto
from overlapviz.importers.kineto_early import kineto_helpers_started_for


@pytest.fixture
def two_helpers(monkeypatch):
    """Two helpers for any trace; the sizes they were asked for, in a list."""
    sizes = []
    monkeypatch.setattr(kineto_early, "helper_count", lambda size: sizes.append(size) or 2)
    return sizes


@pytest.mark.parametrize("packed", [False, True])
def test_the_read_takes_the_helpers_started_early(packed, two_helpers, tmp_path):
    name = NAMES[0]
    path = tmp_path / "trace.json"
    path.write_bytes(gzip.compress(raw_of(name)) if packed else raw_of(name))
    with kineto_helpers_started_for(path):
        assert len(kineto_parallel._EARLY) == 2
        assert same_activities(read_kineto(raw_of(name), name), activities_of(name))  # a small file, read by them
        assert kineto_parallel._EARLY == []
    assert two_helpers == [len(raw_of(name))]  # gzip's count of the unpacked bytes


def test_helpers_no_read_took_are_ended(two_helpers, tmp_path):
    path = tmp_path / "trace.json"
    path.write_bytes(raw_of(NAMES[0]))
    with kineto_helpers_started_for(path):
        started = [process for process, _ in kineto_parallel._EARLY]
    assert kineto_parallel._EARLY == []
    assert len(started) == 2 and not any(process.is_alive() for process in started)


NO_PYTORCH_TRACE = [None, b"", b"\x1f\x8b not gzip", b'{"traceEvents": []}', b"SQLite format 3\0", "fifo"]


@pytest.mark.parametrize("content", NO_PYTORCH_TRACE)
def test_none_started_for_a_file_that_is_no_pytorch_trace(content, two_helpers, tmp_path):
    path = tmp_path / "trace.json"
    if content == "fifo":  # never opened: its bytes are the read's
        if not hasattr(os, "mkfifo"):
            pytest.skip("no named pipes here")
        os.mkfifo(path)
    elif content is not None:  # None: no file at all
        path.write_bytes(content)
    with kineto_helpers_started_for(path):
        assert kineto_parallel._EARLY == []
    assert two_helpers == []

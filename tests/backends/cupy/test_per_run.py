import itertools

import numpy as np

from overlapviz.backends.cupy.per_run import RunBuffers
from overlapviz.core.config import HostAlloc, HostMemory, PipelineConfig

MIB = 1 << 20


def config(**changes):
    return PipelineConfig(size_bytes=1 * MIB, chunks=4, memory=HostMemory.PAGEABLE, host_alloc=HostAlloc.PER_RUN,
                          **changes)


def buffers(cfg):
    reference = np.arange(cfg.elements, dtype=np.float32)
    ticks = itertools.count(0, 10)
    return RunBuffers(cfg, reference, lambda: next(ticks)), reference


def test_pageable_buffers_are_malloced_touched_and_freed_as_timed_steps():
    run, reference = buffers(config())
    host_in, host_out = run.allocate()
    assert (host_in == reference).all() and (host_out == 0).all()
    assert [s.name for s in run.steps] == ["malloc", "first touch", "malloc", "first touch"]
    run.free()
    assert [s.name for s in run.steps][-1] == "free" and run.arrays == []
    assert all(s.end_ns >= s.start_ns for s in run.steps)
    assert [s.start_ns for s in run.steps] == sorted(s.start_ns for s in run.steps)


def test_a_fresh_output_buffer_is_not_touched():
    run, _ = buffers(config(fresh_output=True))
    run.allocate()
    assert [s.name for s in run.steps] == ["malloc", "first touch", "malloc"]

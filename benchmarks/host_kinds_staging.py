"""A pinned staging ring for pageable data, and CUDA Graphs of the pipeline.

- staging: the host's memcpy rate between pageable and pinned memory per chunk size (each
  chunk of a 256 MiB pageable array copied in turn into one of two pinned slots, as a ring
  does); then the default pipeline from pageable host buffers through a ring of N pinned
  slots, next to the same pipeline from pinned buffers and straight from pageable ones.
- graphs: the default pipeline with many chunks, issued call by call and captured once into
  a CUDA Graph that is launched per run: the host's issue time and the wall time of each.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from benchmarks.host_kinds_copies import copy_ops, copy_pipeline, host_buffer
from benchmarks.host_kinds_gpu import (
    D2H,
    H2D,
    Allocations,
    FloatArray,
    Gpu,
    Issue,
    chunk_kernel,
    gbps,
    host_view,
    issue_all,
    issue_list,
    median,
    pipeline_shape,
)
from benchmarks.host_kinds_record import Part, Settings
from benchmarks.host_kinds_runs import Checked, RunSpec, poison, repeat_runs
from overlapviz.backends.cupy.plan import chunk_slices
from overlapviz.core.config import FLOAT32_BYTES, PipelineConfig


def staging(gpu: Gpu, settings: Settings, part: Part) -> None:
    for direction in ("pageable->pinned", "pinned->pageable", "pageable->pageable"):
        part.measure(f"host memcpy {direction}", lambda d=direction: host_memcpy(gpu, settings, d))
    for kind in ("pinned", "pageable"):
        part.measure(f"pipeline {kind}", lambda kind=kind: [copy_pipeline(gpu, settings, kind)])
    for slots in settings.ring_slots:
        part.measure(f"pipeline staged ring {slots}", lambda slots=slots: [staged_pipeline(gpu, settings, slots)])


MEMCPY_DIRECTIONS = {  # direction -> (the slots' memory, whether the big array is copied into the slots)
    "pageable->pinned": ("pinned", True),
    "pinned->pageable": ("pinned", False),
    "pageable->pageable": ("pageable", True),
}


def host_memcpy(gpu: Gpu, settings: Settings, direction: str) -> list[dict[str, Any]]:
    """``np.copyto`` of each chunk of a 256 MiB pageable array in turn, into (or out of) two alternating slots."""
    total = settings.pipeline_bytes
    slot_bytes = max(settings.chunk_sizes)
    slot_kind, into_slots = MEMCPY_DIRECTIONS[direction]
    rows = []
    with Allocations(gpu) as memory:
        big = memory.pageable(total)
        if slot_kind == "pinned":
            slots = [host_view(memory.host(slot_bytes), slot_bytes) for _ in range(2)]
        else:
            slots = [memory.pageable(slot_bytes) for _ in range(2)]
        for chunk in (c for c in settings.chunk_sizes if c <= total):
            n, count = chunk // FLOAT32_BYTES, total // chunk
            passes = []
            for _ in range(settings.warm_ups + max(1, settings.repeats // 2)):
                begin = time.perf_counter_ns()
                for i in range(count):
                    piece, slot = big[i * n : (i + 1) * n], slots[i % 2][:n]
                    if into_slots:
                        np.copyto(slot, piece)
                    else:
                        np.copyto(piece, slot)
                passes.append((time.perf_counter_ns() - begin) / 1e6)
            timed = passes[settings.warm_ups :]
            ms = median(timed)
            rows.append({
                "direction": direction, "chunk_bytes": chunk, "chunks": count, "ms_per_chunk": round(ms / count, 5),
                "gbps": gbps(count * chunk, ms), "pass_ms_runs": [round(t, 3) for t in timed],
            })  # fmt: skip
    return rows


def _buffers(memory: Allocations, checked: Checked, kind: str) -> tuple[FloatArray, FloatArray]:
    """Input (holding the reference) and output host buffers of `kind`."""
    nbytes = checked.config.size_bytes
    host_in, host_out = host_buffer(memory, kind, nbytes), host_buffer(memory, kind, nbytes)
    np.copyto(host_in, checked.reference)
    return host_in, host_out


class StagingRing:
    """Pageable chunks through `slots` pinned input and output slots, reused round robin.

    Chunk c uses slot c % slots. Before the host fills a slot it waits for the D2H of the
    chunk that used the slot before (that chunk's H2D came earlier on the same stream, so the
    input slot is free too) and copies that chunk's output from the output slot to the
    pageable output. So at most `slots` chunks are in flight, and the host's copies of one
    chunk overlap the device's work on the others.
    """

    def __init__(self, gpu: Gpu, config: PipelineConfig, memory: Allocations, slots: int, device: int) -> None:
        self.gpu, self.config, self.slots = gpu, config, slots
        self.slices = chunk_slices(config)
        slot_bytes = max(s.nbytes for s in self.slices)
        self.slot_in = [host_view(memory.host(slot_bytes), slot_bytes) for _ in range(slots)]
        self.slot_out = [host_view(memory.host(slot_bytes), slot_bytes) for _ in range(slots)]
        self.done = [gpu.cupy.cuda.Event(disable_timing=True) for _ in range(slots)]
        self.device = device
        self.kernel = chunk_kernel(gpu, config, device)
        self.host_in: FloatArray | None = None
        self.host_out: FloatArray | None = None
        self.counters = {"host_copy_ms": 0.0, "host_wait_ms": 0.0}

    def _drain(self, slot: int, chunk: int) -> None:
        assert self.host_out is not None
        s, clock = self.slices[chunk], time.perf_counter_ns
        begin = clock()
        self.done[slot].synchronize()
        waited = clock()
        np.copyto(self.host_out[s.offset : s.stop], self.slot_out[slot][: s.elements])
        self.counters["host_wait_ms"] += (waited - begin) / 1e6
        self.counters["host_copy_ms"] += (clock() - waited) / 1e6

    def run(self, streams: Sequence[Any]) -> None:
        """Every chunk through the ring, then the last slots drained (the host's whole part)."""
        assert self.host_in is not None
        self.counters = {"host_copy_ms": 0.0, "host_wait_ms": 0.0}
        memcpy, clock = self.gpu.runtime.memcpyAsync, time.perf_counter_ns
        pending: list[int | None] = [None] * self.slots
        for chunk, s in enumerate(self.slices):
            slot, stream = chunk % self.slots, streams[self.config.stream_of(chunk)]
            previous = pending[slot]
            if previous is not None:
                self._drain(slot, previous)
            begin = clock()
            np.copyto(self.slot_in[slot][: s.elements], self.host_in[s.offset : s.stop])
            self.counters["host_copy_ms"] += (clock() - begin) / 1e6
            memcpy(self.device + s.byte_offset, int(self.slot_in[slot].ctypes.data), s.nbytes, H2D, stream.ptr)
            self.kernel(chunk, stream)
            memcpy(int(self.slot_out[slot].ctypes.data), self.device + s.byte_offset, s.nbytes, D2H, stream.ptr)
            self.done[slot].record(stream)
            pending[slot] = chunk
        for chunk in sorted(c for c in pending if c is not None):
            self._drain(chunk % self.slots, chunk)


def staged_pipeline(gpu: Gpu, settings: Settings, slots: int) -> dict[str, Any]:
    """The default pipeline from pageable buffers through a staging ring of `slots` pinned slots."""
    config = settings.pipeline()
    checked = Checked.of(config)
    with Allocations(gpu) as memory:
        host_in, host_out = _buffers(memory, checked, "pageable")
        ring = StagingRing(gpu, config, memory, slots, memory.device(config.size_bytes))
        ring.host_in, ring.host_out = host_in, host_out
        streams = gpu.streams
        spec = RunSpec(lambda: ring.run(streams), host_out, poison(checked, host_out), lambda: dict(ring.counters))
        result = repeat_runs(gpu, streams, spec, checked, settings.repeats, settings.warm_ups)
        pinned_bytes = memory.pinned_bytes
    return {"memory": "staged", "ring_slots": slots, "pipeline": pipeline_shape(config), "pinned_bytes": pinned_bytes,
            **result}  # fmt: skip


# --- CUDA Graphs --------------------------------------------------------------------------------


def graphs(gpu: Gpu, settings: Settings, part: Part) -> None:
    for chunks in settings.graph_chunks:
        part.measure(f"chunks {chunks}", lambda chunks=chunks: graph_vs_calls(gpu, settings, chunks))


def capture(gpu: Gpu, streams: Sequence[Any], issue: Issue) -> Any:
    """A CUDA Graph of everything `issue` puts on `streams` (forked from and joined to the first)."""
    cuda = gpu.cupy.cuda
    origin = streams[0]
    origin.begin_capture()
    try:
        fork = cuda.Event(disable_timing=True)
        fork.record(origin)
        for stream in streams[1:]:
            stream.wait_event(fork)
        issue()
        for stream in streams[1:]:
            join = cuda.Event(disable_timing=True)
            join.record(stream)
            origin.wait_event(join)
    except BaseException:
        with contextlib.suppress(Exception):  # leave the stream usable; the partial graph is dropped
            origin.end_capture()
        raise
    return origin.end_capture()


def graph_vs_calls(gpu: Gpu, settings: Settings, chunks: int) -> list[dict[str, Any]]:
    """The pipeline with `chunks` chunks, issued call by call, then captured once and launched per run.

    Fresh streams, so that a capture that fails cannot leave the shared ones capturing.
    """
    config = settings.pipeline(chunks=chunks)
    checked = Checked.of(config)
    streams = gpu.new_streams(config.streams)
    with Allocations(gpu) as memory:
        host_in, host_out = _buffers(memory, checked, "pinned")
        ops = copy_ops(gpu, config, memory.device(config.size_bytes), host_in, host_out)
        issues = issue_list(config, streams, ops)
        issue, reset = issue_all(issues), poison(checked, host_out)
        calls = repeat_runs(gpu, streams, RunSpec(issue, host_out, reset), checked, settings.repeats, settings.warm_ups)
        gpu.runtime.deviceSynchronize()
        begin = time.perf_counter_ns()
        graph = capture(gpu, streams, issue)  # capture and instantiate
        capture_ms = (time.perf_counter_ns() - begin) / 1e6
        spec = RunSpec(lambda: graph.launch(stream=streams[0]), host_out, reset)
        launched = repeat_runs(gpu, streams, spec, checked, settings.repeats, settings.warm_ups)
    ops_count = len(issues)
    return [
        {"chunks": chunks, "mode": "calls", "ops": ops_count, **calls,
         "issue_us_per_op": round(calls["issue_ms"] * 1e3 / ops_count, 3)},
        {"chunks": chunks, "mode": "graph", "ops": ops_count, "capture_ms": round(capture_ms, 3), **launched,
         "issue_us_per_op": round(launched["issue_ms"] * 1e3 / ops_count, 3)},
    ]  # fmt: skip

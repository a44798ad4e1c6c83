"""Issues exactly the pipeline of a `PipelineConfig` on CuPy streams.

`prepare` does everything that must not happen inside a timed region: buffers, streams,
kernel arguments, the first launch of the kernel (which loads the module). The issue loops
then make only the calls the pipeline consists of: ``cudaMemcpyAsync`` for each copy and
``cuLaunchKernel`` for each kernel, on the chunk's stream.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from overlapviz.backends.cupy.buffers import BufferPool
from overlapviz.backends.cupy.event_trace import EventTimes
from overlapviz.backends.cupy.kernels import Kernels, kernel_args
from overlapviz.backends.cupy.nvtx_ranges import NvtxRanges
from overlapviz.backends.cupy.output_check import check_output, fill_input, sample_indices
from overlapviz.backends.cupy.plan import chunk_slices
from overlapviz.core.config import FLOAT32_BYTES, HostAlloc, HostMemory, PipelineConfig, StreamKind
from overlapviz.core.pipeline_plan import PipelinePlan, PlannedOp
from overlapviz.core.trace import OpKind

H2D, D2H = 1, 2  # cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost
SCRATCH_ELEMENTS = 1024  # a 4 KiB pinned buffer for the tiny copy before each timed region


Samples = tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]  # (inputs, outputs) at the sample


@dataclass
class Prepared:
    """One plan made ready to issue: pointers, arguments, streams, the output sample.

    With host buffers allocated per run, `host_in`/`host_out` and their pointers are set by
    `attach` inside each run and cleared by `detach`.
    """

    plan: PipelinePlan
    host_in: npt.NDArray[np.float32] | None
    host_out: npt.NDArray[np.float32] | None
    streams: list[Any]  # cupy.cuda.Stream per stream index
    stream_ptrs: list[int]
    in_ptrs: list[int]
    out_ptrs: list[int]
    dev_ptrs: list[int]
    kernel: Any  # cupy.cuda.function.Function of the chunk kernel
    grids: list[tuple[int]]  # per chunk
    block: tuple[int]
    args: list[tuple[Any, ...]]
    copy_bytes: list[int]  # per chunk: the last chunk may be longer than the others
    sample: npt.NDArray[np.int64]

    @property
    def config(self) -> PipelineConfig:
        """The pipeline of the plan."""
        return self.plan.config


class PipelineRunner:
    """Owns the streams, events and buffers of one device; used from one thread at a time."""

    def __init__(self, pool: BufferPool, kernels: Kernels, sm_count: int) -> None:
        self.pool = pool
        self.kernels = kernels
        self.sm_count = sm_count
        self._streams: list[Any] = []
        self._events: list[Any] = []
        self._warm_buffers: set[tuple[int, int, int, int]] = set()
        self._reference: npt.NDArray[np.float32] | None = None
        self.nvtx = NvtxRanges()

    def streams(self, config: PipelineConfig) -> list[Any]:
        """The config's streams: non-blocking ones (created once, reused), or the legacy one."""
        import cupy

        if config.stream_kind is StreamKind.LEGACY:
            return [cupy.cuda.Stream.null]
        while len(self._streams) < config.streams:
            self._streams.append(cupy.cuda.Stream(non_blocking=True))
        return self._streams[: config.streams]

    def events(self, count: int) -> list[Any]:
        """`count` timing events, created once and reused."""
        import cupy

        while len(self._events) < count:
            self._events.append(cupy.cuda.Event())
        return self._events[:count]

    def prepare(self, plan: PipelinePlan) -> Prepared:
        """Allocate (or reuse) everything the run of `plan` needs and warm the kernel up."""
        config = plan.config
        n, slices = config.elements, chunk_slices(config)
        per_run = config.host_alloc is HostAlloc.PER_RUN
        self.pool.check_host(2 * config.size_bytes, ("in", "out"))  # every kind, pageable too
        if per_run:  # the run allocates them; the guard speaks now, before anything is issued
            if config.memory is not HostMemory.PAGEABLE:
                self.pool.check_pin(2 * config.size_bytes)
            self._reference_input(n)
        device = self.pool.device("data", n)
        streams = self.streams(config)
        base = int(device.data.ptr)
        views = [device[s.offset : s.stop] for s in slices]
        prepared = Prepared(
            plan=plan,
            host_in=None,
            host_out=None,
            streams=streams,
            stream_ptrs=[int(s.ptr) for s in streams],
            in_ptrs=[],
            out_ptrs=[],
            dev_ptrs=[base + s.byte_offset for s in slices],
            kernel=self.kernels.chunk[config.kernel].kernel,  # the loaded function: no per-call look-up
            grids=[(blocks,) for blocks in plan.grids()],
            block=(plan.threads_per_block,),
            args=[kernel_args(config, c, views[c]) for c in range(config.chunks)],
            copy_bytes=[s.nbytes for s in slices],
            sample=sample_indices(config),
        )
        if not per_run:
            self.attach(prepared, self.pool.host(config.memory, "in", n, fill=fill_input).array, self._output(config))
        self._warm_up(prepared)
        return prepared

    def attach(
        self, prepared: Prepared, host_in: npt.NDArray[np.float32], host_out: npt.NDArray[np.float32]
    ) -> None:
        """Point the run's copies at these host buffers."""
        offsets = [s.byte_offset for s in chunk_slices(prepared.config)]
        prepared.host_in, prepared.host_out = host_in, host_out
        prepared.in_ptrs = [int(host_in.ctypes.data) + offset for offset in offsets]
        prepared.out_ptrs = [int(host_out.ctypes.data) + offset for offset in offsets]

    def detach(self, prepared: Prepared) -> Samples:
        """Let go of the run's host buffers, keeping copies of the sampled values for the check."""
        samples = self.samples(prepared)
        prepared.host_in = prepared.host_out = None
        prepared.in_ptrs, prepared.out_ptrs = [], []
        return samples

    def samples(self, prepared: Prepared) -> Samples:
        """The inputs and outputs at the sampled positions (copies)."""
        assert prepared.host_in is not None and prepared.host_out is not None
        s = prepared.sample
        return prepared.host_in[s].copy(), prepared.host_out[s].copy()

    def reference_input(self, config: PipelineConfig) -> npt.NDArray[np.float32]:
        """The input data of `config`'s size, to copy into buffers allocated inside a run."""
        return self._reference_input(config.elements)

    def _reference_input(self, elements: int) -> npt.NDArray[np.float32]:
        if self._reference is None or len(self._reference) != elements:
            self._reference = None  # let the old one go first
            reference = np.empty(elements, dtype=np.float32)
            fill_input(reference)
            self._reference = reference
        return self._reference

    def _output(self, config: PipelineConfig) -> npt.NDArray[np.float32]:
        if config.fresh_output:  # a never-touched pageable array: its page faults are the point
            return np.empty(config.elements, dtype=np.float32)
        return self.pool.host(config.memory, "out", config.elements).array

    def _warm_up(self, prepared: Prepared) -> None:
        """Load the kernel and put a copy through the stream before anything is timed.

        Buffers used for the first time are copied through once in full, both ways, so the
        first timed run does not pay for first use of the memory by the DMA engines.
        """
        import cupy

        stream = prepared.streams[0]
        prepared.kernel(prepared.grids[0], prepared.block, prepared.args[0], stream=stream)
        self.touch(prepared)
        config = prepared.config
        if not prepared.in_ptrs:  # buffers allocated per run: their first use is part of the run
            cupy.cuda.runtime.deviceSynchronize()
            return
        buffers = (prepared.in_ptrs[0], prepared.out_ptrs[0], prepared.dev_ptrs[0], config.size_bytes)
        if buffers not in self._warm_buffers:
            memcpy, s = cupy.cuda.runtime.memcpyAsync, prepared.stream_ptrs[0]
            memcpy(prepared.dev_ptrs[0], prepared.in_ptrs[0], config.size_bytes, H2D, s)
            if not config.fresh_output:  # a fresh output buffer must stay untouched
                memcpy(prepared.out_ptrs[0], prepared.dev_ptrs[0], config.size_bytes, D2H, s)
                self._warm_buffers.add(buffers)
        cupy.cuda.runtime.deviceSynchronize()

    def touch(self, prepared: Prepared) -> None:
        """A 4-byte copy: lets CUPTI fetch its next buffer here rather than in the timed region."""
        import cupy

        scratch = self.pool.host(HostMemory.PINNED, "scratch", SCRATCH_ELEMENTS, guard=False)
        stream = prepared.stream_ptrs[0]
        cupy.cuda.runtime.memcpyAsync(prepared.dev_ptrs[0], scratch.pointer, FLOAT32_BYTES, H2D, stream)

    def poison(self, prepared: Prepared) -> None:
        """Mark the sampled outputs unwritten (NaN), so the check sees every op's effect."""
        if not prepared.config.fresh_output and prepared.host_out is not None:
            prepared.host_out[prepared.sample] = np.nan

    def check(self, prepared: Prepared, samples: Samples) -> None:
        """Compare the sampled outputs with the host reference (`OutputMismatch` if wrong)."""
        check_output(prepared.config, prepared.sample, *samples)

    @staticmethod
    def _issuer(prepared: Prepared) -> Callable[[PlannedOp], None]:
        """A function that issues one op of `prepared`: its copy or its kernel launch, nothing else."""
        import cupy

        memcpy = cupy.cuda.runtime.memcpyAsync
        nbytes, kernel, grids, block = prepared.copy_bytes, prepared.kernel, prepared.grids, prepared.block
        streams, ptrs, dev, host_in, host_out = (
            prepared.streams, prepared.stream_ptrs, prepared.dev_ptrs, prepared.in_ptrs, prepared.out_ptrs)

        def issue_one(op: PlannedOp) -> None:
            c, s = op.chunk, op.stream
            if op.kind is OpKind.H2D:
                memcpy(dev[c], host_in[c], nbytes[c], H2D, ptrs[s])
            elif op.kind is OpKind.KERNEL:
                kernel(grids[c], block, prepared.args[c], stream=streams[s])
            else:
                memcpy(host_out[c], dev[c], nbytes[c], D2H, ptrs[s])

        return issue_one

    def issue(self, prepared: Prepared, plan: Sequence[PlannedOp]) -> None:
        """Issue every op (the timed region: nothing else happens here)."""
        issue_one, nvtx = self._issuer(prepared), self.nvtx
        nvtx.push_run()
        for op in plan:
            nvtx.push_op(op.index)
            issue_one(op)
            nvtx.pop()
        nvtx.pop()

    def issue_with_events(self, prepared: Prepared, plan: Sequence[PlannedOp]) -> EventTimes:
        """Issue every op between two events on its stream; read host clocks around each call."""
        import cupy

        issue_one, streams = self._issuer(prepared), prepared.streams
        events = self.events(2 * len(plan) + 1)
        origin, before, after = events[0], events[1 : len(plan) + 1], events[len(plan) + 1 :]
        clock = time.perf_counter_ns
        call_start, call_end = [0] * len(plan), [0] * len(plan)
        origin.record(streams[0])
        origin_host = clock()  # the stream is idle, so the origin event completes about now
        nvtx = self.nvtx
        nvtx.push_run()
        for op in plan:
            i, s = op.index, op.stream
            nvtx.push_op(i)
            before[i].record(streams[s])
            call_start[i] = clock()
            issue_one(op)
            call_end[i] = clock()
            after[i].record(streams[s])
            nvtx.pop()
        sync_start = clock()
        cupy.cuda.runtime.deviceSynchronize()
        sync_end = clock()
        nvtx.pop()
        elapsed = cupy.cuda.get_elapsed_time

        def at(event: Any) -> int:
            return origin_host + round(elapsed(origin, event) * 1e6)

        return EventTimes(
            call_start=call_start,
            call_end=call_end,
            ready=[at(before[op.index]) for op in plan],
            end=[at(after[op.index]) for op in plan],
            sync_start=sync_start,
            sync_end=sync_end,
        )

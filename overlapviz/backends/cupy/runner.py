"""Issues exactly the pipeline of a `PipelineConfig` on CuPy streams.

`prepare` does everything that must not happen inside a timed region: buffers, streams,
kernel arguments, the first launch of the kernel (which loads the module). The issue loops
then make only the calls the pipeline consists of (`op_issue`): ``cudaMemcpyAsync`` for each
copy, ``cuLaunchKernel`` for each kernel, ``cudaMemPrefetchAsync`` for each prefetch, on the
chunk's stream, and the host's own copies through a staging ring; or, for a CUDA Graph, the
one ``cudaGraphLaunch`` of the ops captured once (`graph_capture`).

Where the kernel works depends on the host memory: on the device buffer when the host
buffers are copied (pinned, pageable, registered, write-combined, staged), in place on the
host buffer itself when the kernel reaches it (mapped memory through its device address,
managed memory through page migration). An in-place buffer is restored from the reference
input before each run, so every run starts from host-resident input.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from overlapviz.backends.cupy import prefetch
from overlapviz.backends.cupy.buffers import BufferPool, HostBuffer
from overlapviz.backends.cupy.cupti_records import HostStep
from overlapviz.backends.cupy.event_trace import EventTimes
from overlapviz.backends.cupy.graph_capture import capture, external_record
from overlapviz.backends.cupy.kernels import Kernels, kernel_args
from overlapviz.backends.cupy.nvtx_ranges import NvtxRanges
from overlapviz.backends.cupy.op_issue import D2H, H2D, Clock, issuer
from overlapviz.backends.cupy.output_check import check_output, fill_input, sample_indices
from overlapviz.backends.cupy.plan import ChunkSlice, chunk_slices
from overlapviz.backends.cupy.prepared import CapturedGraph, Prepared, Samples
from overlapviz.backends.cupy.side_times import SideTimes, event_spans
from overlapviz.backends.cupy.staging_ring import RING_ROLE, StagingRing
from overlapviz.core.config import FLOAT32_BYTES, HostAlloc, HostMemory, PipelineConfig, StreamKind
from overlapviz.core.config.pipeline_plan import PipelinePlan, PlannedOp
from overlapviz.core.trace.spans import OpKind

SCRATCH_ELEMENTS = 1024  # a 4 KiB pinned buffer for the tiny copy before each timed region
# The kinds whose kernels work in place on the host buffer (no device buffer, no copies).
ON_HOST_BUFFER = frozenset({HostMemory.MAPPED, HostMemory.MANAGED, HostMemory.MANAGED_PREFETCH})
HOST_READ_BLOCK = 1 << 20  # float32 values read per step of the host read of a write-combined output
HOST_READ_NAME = "host read of the output"
GRAPH_LAUNCH_NAME = "cudaGraphLaunch"


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
        self._graph: CapturedGraph | None = None  # the last one captured: one graph is kept
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
        slices = chunk_slices(config)
        per_run = config.host_alloc is HostAlloc.PER_RUN
        self._before_allocating(config, per_run)
        if not config.uses_ring:
            self.pool.drop(RING_ROLE)
        in_place = self._in_place_buffer(config)
        base, views = self._kernel_memory(config, slices, in_place)
        streams = self.streams(config)
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
            in_place=in_place,
            done=self._done_events(plan),
        )
        self._add_host_side(prepared, slices, in_place, per_run)
        self._warm_up(prepared)
        if config.graph:
            prepared.graph = self._captured(prepared)
        return prepared

    def _before_allocating(self, config: PipelineConfig, per_run: bool) -> None:
        """The memory guard speaks before anything is allocated; a run that allocates its buffers gets its input."""
        self.pool.check_host(2 * config.size_bytes, ("in", "out"))  # every kind, pageable too
        if per_run:  # the run allocates them; the guard speaks now, before anything is issued
            if config.memory is not HostMemory.PAGEABLE:
                self.pool.check_pin(2 * config.size_bytes)
            self._reference_input(config.elements)

    def _kernel_memory(
        self, config: PipelineConfig, slices: list[ChunkSlice], in_place: HostBuffer | None
    ) -> tuple[int, list[Any]]:
        """Where the kernels work (the device buffer, or the in-place host buffer) and each chunk's view of it."""
        if in_place is None:
            device = self.pool.device("data", config.elements)
            base = int(device.data.ptr)
            views: list[Any] = [device[s.offset : s.stop] for s in slices]
        else:
            base = in_place.device_pointer
            views = [_device_pointer(base + s.byte_offset, s.nbytes) for s in slices]
        return base, views

    def _add_host_side(
        self, prepared: Prepared, slices: list[ChunkSlice], in_place: HostBuffer | None, per_run: bool
    ) -> None:
        """The prefetchers, the staging ring, and the host buffers of a run that does not allocate its own."""
        config = prepared.config
        if config.memory is HostMemory.MANAGED_PREFETCH:
            prepared.to_device, prepared.to_host = prefetch.to_device(_current_device()), prefetch.to_host()
        if config.uses_ring:
            slot_elements = max(s.elements for s in slices)
            prepared.ring = StagingRing(self.pool, config.ring_slots_used, slot_elements)
        if in_place is not None:
            self.attach(prepared, self._reference_input(config.elements), in_place.array)
        elif not per_run:
            n = config.elements
            self.attach(prepared, self.pool.host(config.memory, "in", n, fill=fill_input).array, self._output(config))

    def _in_place_buffer(self, config: PipelineConfig) -> HostBuffer | None:
        """The host buffer the kernels work on in place, for the kinds that have one; None for the others.

        Their device buffer and output buffer are let go: what is kept is what the last run needs.
        """
        if config.memory not in ON_HOST_BUFFER:
            return None
        self.pool.drop("out")
        self.pool.drop_device("data")
        return self.pool.host(config.memory, "in", config.elements)

    def _done_events(self, plan: PipelinePlan) -> dict[int, Any]:
        """An event for each op the host waits for (a staging ring's D2H copies), by plan row."""
        import cupy

        waited = sorted({int(row) for row in plan["waits_for"].tolist() if row >= 0})
        return {row: cupy.cuda.Event(disable_timing=True) for row in waited}

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
        """The output buffer of a pipeline whose kernels work on the device buffer."""
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
        # buffers allocated per run: their first use is part of the run; in place: nothing is copied
        if not prepared.in_ptrs or prepared.in_place is not None:
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
        target = prepared.dev_ptrs[0] if prepared.in_place is None else self._touch_target()
        cupy.cuda.runtime.memcpyAsync(target, scratch.pointer, FLOAT32_BYTES, H2D, stream)

    def _touch_target(self) -> int:
        """4 bytes of device memory for the touch copy when the pipeline has no device buffer."""
        return int(self.pool.device("touch", SCRATCH_ELEMENTS).data.ptr)

    def poison(self, prepared: Prepared) -> None:
        """Make the sampled outputs wrong until the run writes them, so the check sees every op's effect.

        Outputs are marked unwritten (NaN); a buffer the kernels change in place gets the
        input back instead (which also puts managed pages back on the host).
        """
        if prepared.in_place is not None:
            assert prepared.host_in is not None
            np.copyto(prepared.in_place.array, prepared.host_in)
        elif not prepared.config.fresh_output and prepared.host_out is not None:
            prepared.host_out[prepared.sample] = np.nan

    def after_sync(self, prepared: Prepared, clock: Clock) -> list[HostStep]:
        """Host work after the final synchronize that the run's lesson is about, timed on `clock`.

        Write-combined memory: the host reads the whole output (the H2D side gains, host
        reads are uncached and slow), in blocks into a small scratch buffer.
        """
        if prepared.config.memory is not HostMemory.WRITE_COMBINED or prepared.host_out is None:
            return []
        output = prepared.host_out
        scratch = np.empty(min(HOST_READ_BLOCK, len(output)), dtype=np.float32)
        start = clock()
        for begin in range(0, len(output), len(scratch)):
            piece = output[begin : begin + len(scratch)]
            np.copyto(scratch[: len(piece)], piece)
        return [HostStep(HOST_READ_NAME, start, clock())]

    def check(self, prepared: Prepared, samples: Samples) -> None:
        """Compare the sampled outputs with the host reference (`OutputMismatch` if wrong)."""
        check_output(prepared.config, prepared.sample, *samples)

    def _captured(self, prepared: Prepared) -> CapturedGraph:
        """The graph of `prepared`'s ops: the one kept if it was captured on the same buffers, else a new one."""
        import cupy

        config = prepared.config
        key = (config, tuple(prepared.stream_ptrs), prepared.dev_ptrs[0], tuple(prepared.in_ptrs[:1]),
               tuple(prepared.out_ptrs[:1]))  # fmt: skip
        if self._graph is not None and self._graph.key == key:
            return self._graph
        self._graph = None  # the old graph and its events go first
        plan = prepared.plan.ops()
        record = external_record()
        origin, after = cupy.cuda.Event(), [cupy.cuda.Event() for _ in plan]
        issue_one = issuer(prepared.targets(), SideTimes(), time.perf_counter_ns)
        streams = prepared.streams

        def issue() -> None:
            record(origin, streams[0])
            for op in plan:
                issue_one(op)
                record(after[op.index], streams[op.stream])

        cupy.cuda.runtime.deviceSynchronize()
        begin = time.perf_counter_ns()
        graph = capture(streams, issue)
        captured = CapturedGraph(key, graph, origin, after, time.perf_counter_ns() - begin)
        graph.upload(streams[0])  # the first launch would upload it: do it outside the timed region
        cupy.cuda.runtime.deviceSynchronize()
        self._graph = captured
        return captured

    def issue(self, prepared: Prepared, plan: Sequence[PlannedOp], clock: Clock = time.perf_counter_ns) -> SideTimes:
        """Issue every op (the timed region: nothing else happens here); the side ops' times.

        Under CUPTI: prefetches get an event before and after them on their stream (CUPTI
        reports no span for them), read against an origin event recorded first; their spans
        are known after `SideTimes.settle`, once the device is idle.
        """
        side = SideTimes()
        if prepared.ring is not None:
            prepared.ring.reset()
        if prepared.graph is not None:
            prepared.graph.graph.launch(stream=prepared.streams[0])
            return side
        issue_one, nvtx = issuer(prepared.targets(), side, clock), self.nvtx
        prefetches = [op.index for op in plan if op.kind is OpKind.PREFETCH]
        events = self.events(2 * len(prefetches) + 1)
        origin, marks = events[0], dict(zip(prefetches, zip(events[1::2], events[2::2], strict=True), strict=True))
        origin_host = 0
        if marks:
            origin.record(prepared.streams[0])
            origin_host = clock()  # the stream is idle, so the origin event completes about now
        nvtx.push_run()
        for op in plan:
            nvtx.push_op(op.index)
            mark = marks.get(op.index)
            if mark is not None:
                mark[0].record(prepared.streams[op.stream])
            issue_one(op)
            if mark is not None:
                mark[1].record(prepared.streams[op.stream])
            nvtx.pop()
        nvtx.pop()
        if marks:
            at = _event_clock(origin, origin_host)

            def read() -> None:
                ready = {row: at(before) for row, (before, _) in marks.items()}
                end = {row: at(after) for row, (_, after) in marks.items()}
                side.device = event_spans(plan, ready, end)

            side.pending.append(read)
        return side

    def issue_with_events(self, prepared: Prepared, plan: Sequence[PlannedOp]) -> tuple[EventTimes, SideTimes]:
        """Issue every op between two events on its stream; read host clocks around each call.

        A host copy gets no events: its span is the host clock's. A graph launch is one call
        for every op, timed by the events captured inside the graph.
        """
        import cupy

        if prepared.graph is not None:
            return self._launch_with_events(prepared.graph, prepared, plan)
        clock = time.perf_counter_ns
        side = SideTimes()
        if prepared.ring is not None:
            prepared.ring.reset()
        issue_one, streams = issuer(prepared.targets(), side, clock), prepared.streams
        events = self.events(2 * len(plan) + 1)
        origin, before, after = events[0], events[1 : len(plan) + 1], events[len(plan) + 1 :]
        call_start, call_end = [0] * len(plan), [0] * len(plan)
        origin.record(streams[0])
        origin_host = clock()  # the stream is idle, so the origin event completes about now
        nvtx = self.nvtx
        nvtx.push_run()
        for op in plan:
            i, s = op.index, op.stream
            nvtx.push_op(i)
            if not op.on_host:
                before[i].record(streams[s])
            call_start[i] = clock()
            issue_one(op)
            call_end[i] = clock()
            if not op.on_host:
                after[i].record(streams[s])
            nvtx.pop()
        sync_start = clock()
        cupy.cuda.runtime.deviceSynchronize()
        sync_end = clock()
        nvtx.pop()
        at = _event_clock(origin, origin_host)
        ready = [side.host[op.index].start_ns if op.on_host else at(before[op.index]) for op in plan]
        end = [side.host[op.index].end_ns if op.on_host else at(after[op.index]) for op in plan]
        return EventTimes(call_start, call_end, ready, end, sync_start, sync_end), side

    def _launch_with_events(
        self, graph: CapturedGraph, prepared: Prepared, plan: Sequence[PlannedOp]
    ) -> tuple[EventTimes, SideTimes]:
        import cupy

        clock = time.perf_counter_ns
        self.nvtx.push_run()
        launch_start = clock()  # the graph's first node, the origin event, runs right after the launch
        graph.graph.launch(stream=prepared.streams[0])
        launch_end = clock()
        sync_start = clock()
        cupy.cuda.runtime.deviceSynchronize()
        sync_end = clock()
        self.nvtx.pop()
        at = _event_clock(graph.origin, launch_start)
        end = [at(graph.after[op.index]) for op in plan]
        started, ready, last_end = at(graph.origin), list[int](), dict[int, int]()
        for op in plan:  # a stream reaches an op when the op before it in the stream has ended
            ready.append(last_end.get(op.stream, started))
            last_end[op.stream] = end[op.index]
        count = len(plan)
        times = EventTimes([launch_start] * count, [launch_end] * count, ready, end, sync_start, sync_end)
        side = SideTimes()
        side.waits.append(HostStep(GRAPH_LAUNCH_NAME, launch_start, launch_end))
        return times, side


def _event_clock(origin: Any, origin_host: int) -> Callable[[Any], int]:
    """Host-clock ns of an event, from its time after `origin`, which completed at `origin_host`."""
    import cupy

    elapsed = cupy.cuda.get_elapsed_time
    return lambda event: origin_host + round(elapsed(origin, event) * 1e6)


def _device_pointer(address: int, nbytes: int) -> Any:
    """A kernel argument for device-visible memory CuPy did not allocate (mapped or managed)."""
    import cupy

    memory = cupy.cuda.UnownedMemory(address, nbytes, None, _current_device())
    return cupy.cuda.MemoryPointer(memory, 0)


def _current_device() -> int:
    import cupy

    return int(cupy.cuda.Device().id)

"""No op left behind: the rules every simulated timeline keeps, and the check that enforces them."""

from __future__ import annotations

import dataclasses
import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from overlapviz.backends.sim import engine
from overlapviz.backends.sim.engine import GpuModel
from overlapviz.backends.sim.host_kinds import needs_host_kinds
from overlapviz.backends.sim.invariants import ModelInvariantError, check_timeline
from overlapviz.backends.sim.op_order import kernel_batches as _kernel_batches
from overlapviz.backends.sim.ops import Op, build_ops
from overlapviz.backends.sim.profile import available_profiles
from overlapviz.backends.sim.timeline_columns import Timeline
from overlapviz.core.config import (
    GRAPH_MEMORIES,
    IN_PLACE_MEMORIES,
    PER_RUN_MEMORIES,
    HostAlloc,
    HostMemory,
    IssueOrder,
    KernelKind,
    PipelineConfig,
    StreamKind,
)
from overlapviz.core.config.pipeline_plan import chunk_stages
from overlapviz.core.run_errors import BackendError
from overlapviz.core.trace.spans import OpKind, Trace
from tests.backends.simrun import SIM

PROFILES = tuple(available_profiles())  # h200 and its one-copy-engine what-if, tesla-c1060, -c2050, -k20c
SMALL = PipelineConfig(size_bytes=64 * 1024, chunks=2, streams=2)


def assert_every_op_ran(trace: Trace, config: PipelineConfig) -> None:
    stages = chunk_stages(config.memory, kernel_work=config.has_kernel_work)
    device = trace.device_mask
    assert int(device.sum()) == len(stages) * config.chunks
    start, end = trace["start_ns"][device], trace["end_ns"][device]
    assert (start >= 0).all() and (end >= start).all()
    for kind in {stage.kind for stage in stages}:
        per_chunk = sum(stage.kind is kind for stage in stages)
        assert sorted(trace["chunk"][trace.mask(kind)].tolist()) == sorted(list(range(config.chunks)) * per_chunk)
    host_copies = trace.mask(OpKind.HOST_COPY)
    assert int(host_copies.sum()) == 2 * config.chunks * config.uses_ring  # into its slot and out of it


def run_or_refuse(profile: str, **values: object) -> None:
    """Run the pipeline and check every op ran; where the profile lacks the kind, check the refusal."""
    config = PipelineConfig(**values)  # type: ignore[arg-type]
    if not needs_host_kinds(config) or SIM.profile(profile).host_kinds is not None:
        assert_every_op_ran(SIM.run(config, profile), config)
        return
    with pytest.raises(BackendError, match="has no measurements of"):
        SIM.run(config, profile)


# --- the check itself, fed broken timelines -------------------------------------------------


def small_run() -> tuple[list[Op], Timeline]:
    ops = build_ops(SMALL, SIM.profile("h200"))
    return ops, GpuModel(SIM.profile("h200"), ops).run()


def index_of(ops: list[Op], kind: OpKind, chunk: int) -> int:
    return next(i for i, op in enumerate(ops) if op.kind is kind and op.chunk == chunk)


def broken(timeline: Timeline, **times: list[float]) -> Timeline:
    return dataclasses.replace(timeline, **times)


def test_a_timeline_the_model_made_passes() -> None:
    ops, timeline = small_run()
    check_timeline(ops, timeline)


def test_an_op_that_never_started_is_named() -> None:
    ops, timeline = small_run()
    start, end = list(timeline.start_ns), list(timeline.end_ns)
    i = index_of(ops, OpKind.KERNEL, 1)
    start[i] = end[i] = -1.0
    with pytest.raises(ModelInvariantError, match="the kernel of chunk 1 on stream 1 never started"):
        check_timeline(ops, broken(timeline, start_ns=start, end_ns=end))


def test_an_op_that_started_but_never_ended_is_named() -> None:
    ops, timeline = small_run()
    end = list(timeline.end_ns)
    end[index_of(ops, OpKind.D2H, 0)] = -1.0
    with pytest.raises(ModelInvariantError, match="the d2h of chunk 0 on stream 0 never ended"):
        check_timeline(ops, broken(timeline, end_ns=end))


def test_a_negative_duration_is_refused() -> None:
    ops, timeline = small_run()
    end = list(timeline.end_ns)
    i = index_of(ops, OpKind.D2H, 1)
    end[i] = timeline.start_ns[i] - 1.0
    with pytest.raises(ModelInvariantError, match="the d2h of chunk 1 on stream 1 ended before it started"):
        check_timeline(ops, broken(timeline, end_ns=end))


def test_two_copies_at_once_on_one_engine_are_refused() -> None:
    ops, timeline = small_run()
    start, end = list(timeline.start_ns), list(timeline.end_ns)
    first, second = index_of(ops, OpKind.H2D, 0), index_of(ops, OpKind.H2D, 1)
    start[second] = start[first] + 1.0  # different streams: only the engine rule is broken
    with pytest.raises(ModelInvariantError, match=(
        "the h2d of chunk 1 on stream 1 started on the H2D engine while the h2d of chunk 0 on stream 0 was still"
    )):  # fmt: skip
        check_timeline(ops, broken(timeline, start_ns=start, end_ns=end))


def test_an_op_that_jumps_ahead_in_its_stream_is_refused() -> None:
    ops, timeline = small_run()
    start = list(timeline.start_ns)
    kernel, copy = index_of(ops, OpKind.KERNEL, 0), index_of(ops, OpKind.H2D, 0)
    start[kernel] = start[copy]  # kernels may share the SMs, but not run before their input arrived
    with pytest.raises(ModelInvariantError, match=(
        "the kernel of chunk 0 on stream 0 started before the h2d of chunk 0 on stream 0, issued before it"
    )):  # fmt: skip
        check_timeline(ops, broken(timeline, start_ns=start))


def test_times_for_the_wrong_number_of_ops_are_refused() -> None:
    ops, timeline = small_run()
    with pytest.raises(ModelInvariantError, match="times for 6 ops, but the pipeline has 5"):
        check_timeline(ops[:5], timeline)


def test_the_backend_returns_no_trace_from_a_broken_timeline(monkeypatch: pytest.MonkeyPatch) -> None:
    real_run = engine.GpuModel.run

    def loses_the_last_op(self: GpuModel, should_stop: object = None) -> Timeline:
        timeline = real_run(self)
        timeline.start_ns[-1] = timeline.end_ns[-1] = -1.0
        return timeline

    monkeypatch.setattr(engine.GpuModel, "run", loses_the_last_op)
    with pytest.raises(BackendError, match="no trace is shown: the d2h of chunk 1 on stream 1 never started"):
        SIM.run(SMALL, "h200")


# --- the model keeps the rules --------------------------------------------------------------


@pytest.mark.parametrize(("stream_kind", "chunks"), [("nonblocking", 16), ("legacy", 4)])
def test_fermi_breadth_with_more_kernels_than_streams_completes(stream_kind: str, chunks: int) -> None:
    config = PipelineConfig(order="breadth", stream_kind=stream_kind, streams=4, chunks=chunks)
    assert_every_op_ran(SIM.run(config, "tesla-c2050"), config)


def test_fermi_batches_hold_one_kernel_per_stream() -> None:
    """Kernels issued back to back share a held-back signal only while their streams differ."""
    profile = SIM.profile("tesla-c2050")
    breadth = build_ops(PipelineConfig(order="breadth", streams=4, chunks=16), profile)
    batch_of, sizes = _kernel_batches(breadth, delayed_signal=True)
    kernels = [i for i, op in enumerate(breadth) if op.kind is OpKind.KERNEL]
    assert sizes == [4, 4, 4, 4]
    assert [batch_of[i] for i in kernels] == [c // 4 for c in range(16)]
    legacy = build_ops(PipelineConfig(order="breadth", stream_kind="legacy", chunks=4), profile)
    assert _kernel_batches(legacy, delayed_signal=True)[1] == [1, 1, 1, 1]  # one stream: nothing beside it
    assert _kernel_batches(breadth, delayed_signal=False) == ([-1] * len(breadth), [])


def test_fermi_still_holds_a_copy_until_its_kernels_batch_has_finished() -> None:
    config = PipelineConfig(size_bytes=1 << 20, chunks=8, streams=4, order="breadth", kernel="sincos", iters=0)
    fermi = SIM.profile("tesla-c2050")
    ends: dict[bool, float] = {}
    for delayed in (True, False):
        profile = dataclasses.replace(fermi, delayed_kernel_signal=delayed)
        ops = build_ops(config, profile)
        timeline = GpuModel(profile, ops).run()
        check_timeline(ops, timeline)
        batch_end = max(timeline.end_ns[index_of(ops, OpKind.KERNEL, c)] for c in range(4, 8))
        ends[delayed] = timeline.start_ns[index_of(ops, OpKind.D2H, 0)] - batch_end
    assert ends[True] >= 0 > ends[False]  # chunk 0's copy waits for kernels 4-7 only where the signal is held


@pytest.mark.parametrize(
    ("profile", "memory", "order", "stream_kind"),
    [combination for combination in itertools.product(PROFILES, list(HostMemory), list(IssueOrder), list(StreamKind))
     if combination[1:3] != (HostMemory.STAGED, IssueOrder.BREADTH)],  # refused by the config
)  # fmt: skip
@pytest.mark.parametrize(("streams", "chunks"), [(1, 1), (4, 16), (3, 7), (32, 256)])
def test_every_profile_and_setting_runs_every_op(
    profile: str, memory: HostMemory, order: IssueOrder, stream_kind: StreamKind, streams: int, chunks: int
) -> None:
    run_or_refuse(profile, size_bytes=4 * 4099, chunks=chunks, streams=streams, memory=memory, order=order,
                  stream_kind=stream_kind, iters=64)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(
    profile=st.sampled_from(PROFILES),
    memory=st.sampled_from(list(HostMemory)),
    order=st.sampled_from(list(IssueOrder)),
    stream_kind=st.sampled_from(list(StreamKind)),
    chunks=st.integers(1, 256),
    streams=st.integers(1, 32),
    elements=st.integers(1024, 1 << 16),
    kernel=st.sampled_from(list(KernelKind)),
    iters=st.integers(0, 4096),
    host_alloc=st.sampled_from(list(HostAlloc)),
    fresh_output=st.booleans(),
    ring_slots=st.integers(1, 64),
    graph=st.booleans(),
)
def test_any_pipeline_on_any_profile_runs_every_op(
    profile: str, memory: HostMemory, order: IssueOrder, stream_kind: StreamKind, chunks: int, streams: int,
    elements: int, kernel: KernelKind, iters: int, host_alloc: HostAlloc, fresh_output: bool, ring_slots: int,
    graph: bool,
) -> None:  # fmt: skip
    if memory is HostMemory.STAGED:
        order = IssueOrder.DEPTH  # a ring issues chunk by chunk (the config refuses breadth)
    if memory not in PER_RUN_MEMORIES:
        host_alloc = HostAlloc.REUSE
    graph = graph and memory in GRAPH_MEMORIES and stream_kind is StreamKind.NONBLOCKING
    if memory in IN_PLACE_MEMORIES and kernel is KernelKind.FMA:
        iters = max(iters, 1)  # the kernel is the only op there: without work nothing would run (refused)
    run_or_refuse(
        profile, size_bytes=4 * elements, chunks=chunks, streams=streams, memory=memory, order=order,
        stream_kind=stream_kind, kernel=kernel, iters=iters, host_alloc=host_alloc,
        fresh_output=fresh_output and memory is HostMemory.PAGEABLE, ring_slots=ring_slots, graph=graph,
    )  # fmt: skip

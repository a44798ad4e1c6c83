"""The pipeline's plan: the ops in issue order with their streams, units, bytes, names and grids."""

from __future__ import annotations

import numpy as np
import pytest

from overlapviz.core.config import COPY_MEMORIES, HostMemory, IssueOrder, KernelKind, PipelineConfig, StreamKind
from overlapviz.core.config.pipeline_plan import (
    BLOCKS_PER_SM,
    THREADS_PER_BLOCK,
    chunk_stages,
    fma_blocks,
    kernel_blocks,
    memory_kind,
    pipeline_plan,
    sincos_blocks,
    unit_of,
)
from overlapviz.core.trace.spans import MemoryKind, OpKind, Unit

MIB = 1 << 20


def plan_of(config: PipelineConfig, copy_engines: int = 3, sm_count: int = 132):
    return pipeline_plan(config, copy_engines=copy_engines, sm_count=sm_count)


def test_depth_issues_each_chunk_through_all_stages():
    ops = plan_of(PipelineConfig(size_bytes=4 * MIB, chunks=2, streams=2)).ops()
    assert [(op.chunk, op.kind) for op in ops] == [
        (0, OpKind.H2D), (0, OpKind.KERNEL), (0, OpKind.D2H),
        (1, OpKind.H2D), (1, OpKind.KERNEL), (1, OpKind.D2H),
    ]  # fmt: skip
    assert [op.index for op in ops] == list(range(6))


def test_breadth_issues_stage_by_stage():
    ops = plan_of(PipelineConfig(size_bytes=4 * MIB, chunks=2, streams=2, order=IssueOrder.BREADTH)).ops()
    assert [(op.kind, op.chunk) for op in ops] == [
        (OpKind.H2D, 0), (OpKind.H2D, 1), (OpKind.KERNEL, 0), (OpKind.KERNEL, 1), (OpKind.D2H, 0), (OpKind.D2H, 1),
    ]  # fmt: skip


def test_chunks_go_round_robin_over_streams_unless_legacy():
    config = PipelineConfig(size_bytes=4 * MIB, chunks=4, streams=3)
    assert [op.stream for op in plan_of(config).ops() if op.kind is OpKind.H2D] == [0, 1, 2, 0]
    assert {op.stream for op in plan_of(config.replace(stream_kind=StreamKind.LEGACY)).ops()} == {0}
    every = plan_of(PipelineConfig(size_bytes=4 * MIB, chunks=64, streams=5))
    assert every["stream"].tolist() == [every.config.stream_of(c) for c in every["chunk"].tolist()]


def test_label_names_kind_chunk_and_stream():
    assert plan_of(PipelineConfig(size_bytes=4 * MIB, chunks=4, streams=2)).ops()[4].label == "kernel c1 s1"


def test_units_one_engine_per_direction_or_a_shared_one():
    assert unit_of(OpKind.H2D, 3) is Unit.H2D_ENGINE
    assert unit_of(OpKind.D2H, 2) is Unit.D2H_ENGINE
    assert unit_of(OpKind.KERNEL, 1) is Unit.COMPUTE
    assert unit_of(OpKind.H2D, 1) is Unit.COPY_ENGINE
    assert unit_of(OpKind.D2H, 1) is Unit.COPY_ENGINE
    config = PipelineConfig(size_bytes=4 * MIB, chunks=2)
    assert plan_of(config, copy_engines=1).units() == [Unit.COPY_ENGINE, Unit.COMPUTE, Unit.COPY_ENGINE] * 2
    assert plan_of(config, copy_engines=2).units() == [Unit.H2D_ENGINE, Unit.COMPUTE, Unit.D2H_ENGINE] * 2


def test_each_copy_moves_its_chunk_and_a_kernel_none():
    seven = PipelineConfig(size_bytes=4 * 10_000, chunks=7, streams=3)  # 1,428 per chunk, the last 1,432
    ops = plan_of(seven).ops()
    for op in ops:
        expected = 0 if op.kind is OpKind.KERNEL else 4 * (1432 if op.chunk == 6 else 1428)
        assert op.nbytes == expected
    assert sum(op.nbytes for op in ops if op.kind is OpKind.H2D) == 40_000


@pytest.mark.parametrize("memory", sorted(COPY_MEMORIES))
def test_copies_carry_the_host_memory_and_kernels_none(memory):
    fresh = memory is HostMemory.PAGEABLE
    ops = plan_of(PipelineConfig(size_bytes=4 * MIB, chunks=2, memory=memory, fresh_output=fresh)).ops()
    assert [op.memory for op in ops if op.kind is not OpKind.KERNEL] == [memory_kind(memory)] * 4
    assert {op.memory for op in ops if op.kind is OpKind.KERNEL} == {MemoryKind.NONE}
    assert memory_kind(memory).label == memory.value  # the trace's words are the config's


def test_names_are_the_kernels_and_the_copies():
    fma = plan_of(PipelineConfig(size_bytes=4 * MIB, chunks=1))
    assert [op.name for op in fma.ops()] == ["memcpy HtoD", "fma_chain", "memcpy DtoH"]
    sincos = plan_of(PipelineConfig(size_bytes=4 * MIB, chunks=1, kernel=KernelKind.SINCOS))
    assert sincos.kernel_name == "sincos_sqrt" and sincos.ops()[1].name == "sincos_sqrt"


def test_fma_grid_is_capped_at_eight_blocks_per_sm():
    assert fma_blocks(64 * MIB // 4 * 4, 132) == 8 * 132
    assert fma_blocks(1000, 132) == 4  # ceil(1000 / 256)
    assert fma_blocks(1, 132) == 1


def test_sincos_grid_has_a_thread_per_element_and_no_cap():
    assert sincos_blocks(1 << 20) == 4096
    assert sincos_blocks(257) == 2
    big = PipelineConfig(size_bytes=64 * MIB, chunks=1, kernel=KernelKind.SINCOS)
    assert kernel_blocks(big, 132) == big.elements // THREADS_PER_BLOCK > BLOCKS_PER_SM * 132


def test_each_kernel_gets_its_chunks_grid():
    odd = PipelineConfig(size_bytes=4 * 1025, chunks=2, kernel=KernelKind.SINCOS, iters=0)  # 512, then 513
    plan = plan_of(odd)
    assert plan.grids() == [2, 3]
    assert [op.blocks for op in plan.ops()] == [0, 2, 0, 0, 3, 0]
    assert plan.threads_per_block == THREADS_PER_BLOCK


def test_rows_and_columns_say_the_same_and_the_columns_are_read_only():
    plan = plan_of(PipelineConfig(size_bytes=4 * MIB, chunks=5, streams=2, order=IssueOrder.BREADTH), copy_engines=1)
    ops = plan.ops()
    assert len(plan) == len(ops) == 15
    assert [op.kind for op in ops] == plan.kinds() == plan["kind"].tolist()
    assert [op.chunk for op in ops] == plan["chunk"].tolist()
    assert [op.stream for op in ops] == plan["stream"].tolist()
    assert [op.unit for op in ops] == plan["unit"].tolist()
    assert [op.nbytes for op in ops] == plan["bytes"].tolist()
    assert [op.memory for op in ops] == plan.memories() == plan["memory"].tolist()
    assert [op.blocks for op in ops] == plan["blocks"].tolist()
    with pytest.raises(ValueError, match="read-only"):
        plan["chunk"][0] = 3


def test_the_largest_pipeline_is_planned_in_columns():
    config = PipelineConfig(chunks=65536, streams=128)
    plan = plan_of(config)
    assert len(plan) == 3 * 65536
    assert int(plan["bytes"].sum()) == 2 * config.size_bytes
    assert np.array_equal(np.bincount(plan["chunk"]), np.full(65536, 3))


# --- the other kinds of host memory ------------------------------------------------------------


def test_every_memory_kind_labels_as_its_config_name_where_the_trace_has_its_own_word():
    for memory in HostMemory:
        if memory not in (HostMemory.MANAGED_PREFETCH, HostMemory.STAGED):  # managed; pinned slots
            assert memory_kind(memory).label == memory.value
    assert memory_kind(HostMemory.MANAGED_PREFETCH) is MemoryKind.MANAGED
    assert memory_kind(HostMemory.STAGED) is MemoryKind.PINNED


@pytest.mark.parametrize(("memory", "link_bytes"), [(HostMemory.MAPPED, 2), (HostMemory.MANAGED, 1)])
def test_in_place_kinds_plan_kernels_only_with_their_bytes_over_the_link(memory, link_bytes):
    config = PipelineConfig(size_bytes=4 * 10_000, chunks=7, streams=3, memory=memory)
    plan = plan_of(config)
    assert plan.kinds() == [OpKind.KERNEL] * 7
    assert [op.nbytes for op in plan.ops()] == [link_bytes * config.chunk_bytes_of(c) for c in range(7)]
    assert set(plan.memories()) == {memory_kind(memory)}
    assert [op.stream for op in plan.ops()] == [0, 1, 2, 0, 1, 2, 0]


def test_managed_prefetch_moves_each_chunk_there_and_back_on_its_stream_and_the_engines():
    plan = plan_of(PipelineConfig(size_bytes=4 * MIB, chunks=2, streams=2, memory=HostMemory.MANAGED_PREFETCH))
    ops = plan.ops()
    assert [(op.kind, op.name, op.chunk, op.stream) for op in ops] == [
        (OpKind.PREFETCH, "prefetch to device", 0, 0), (OpKind.KERNEL, "fma_chain", 0, 0),
        (OpKind.PREFETCH, "prefetch to host", 0, 0),
        (OpKind.PREFETCH, "prefetch to device", 1, 1), (OpKind.KERNEL, "fma_chain", 1, 1),
        (OpKind.PREFETCH, "prefetch to host", 1, 1),
    ]  # fmt: skip
    assert plan.units()[:3] == [Unit.H2D_ENGINE, Unit.COMPUTE, Unit.D2H_ENGINE]
    assert plan_of(plan.config, copy_engines=1).units()[:3] == [Unit.COPY_ENGINE, Unit.COMPUTE, Unit.COPY_ENGINE]
    assert [op.nbytes for op in ops if op.kind is OpKind.PREFETCH] == [2 * MIB] * 4
    assert {op.memory for op in ops if op.kind is OpKind.PREFETCH} == {MemoryKind.MANAGED}


def test_managed_prefetch_in_breadth_order_prefetches_everything_first():
    config = PipelineConfig(size_bytes=4 * MIB, chunks=2, memory=HostMemory.MANAGED_PREFETCH, order=IssueOrder.BREADTH)
    assert [op.name for op in plan_of(config).ops()] == [
        "prefetch to device", "prefetch to device", "fma_chain", "fma_chain", "prefetch to host", "prefetch to host",
    ]  # fmt: skip


def _staged(chunks, slots, streams=2):
    return plan_of(PipelineConfig(size_bytes=4 * 1024 * chunks, chunks=chunks, streams=streams,
                                  memory=HostMemory.STAGED, ring_slots=slots))  # fmt: skip


def test_a_staged_chunk_is_copied_into_its_slot_then_copied_like_pinned_memory():
    ops = _staged(chunks=1, slots=2).ops()
    assert [(op.kind, op.name, op.unit, op.memory) for op in ops] == [
        (OpKind.HOST_COPY, "memcpy pageable->pinned", Unit.HOST, MemoryKind.PAGEABLE),
        (OpKind.H2D, "memcpy HtoD", Unit.H2D_ENGINE, MemoryKind.PINNED),
        (OpKind.KERNEL, "fma_chain", Unit.COMPUTE, MemoryKind.NONE),
        (OpKind.D2H, "memcpy DtoH", Unit.D2H_ENGINE, MemoryKind.PINNED),
        (OpKind.HOST_COPY, "memcpy pinned->pageable", Unit.HOST, MemoryKind.PAGEABLE),
    ]  # fmt: skip
    assert [op.stream for op in ops] == [-1, 0, 0, 0, -1]
    assert ops[0].on_host and not ops[1].on_host and ops[0].label == "host-copy c0 host"


def test_a_slot_is_emptied_only_after_the_copy_out_of_its_previous_chunk():
    plan = _staged(chunks=5, slots=2)
    ops = plan.ops()
    steps = [(op.name.split()[-1] if op.on_host else op.kind.label, op.chunk, op.slot) for op in ops]
    assert steps == [
        ("pageable->pinned", 0, 0), ("h2d", 0, 0), ("kernel", 0, -1), ("d2h", 0, 0),
        ("pageable->pinned", 1, 1), ("h2d", 1, 1), ("kernel", 1, -1), ("d2h", 1, 1),
        ("pinned->pageable", 0, 0), ("pageable->pinned", 2, 0), ("h2d", 2, 0), ("kernel", 2, -1), ("d2h", 2, 0),
        ("pinned->pageable", 1, 1), ("pageable->pinned", 3, 1), ("h2d", 3, 1), ("kernel", 3, -1), ("d2h", 3, 1),
        ("pinned->pageable", 2, 0), ("pageable->pinned", 4, 0), ("h2d", 4, 0), ("kernel", 4, -1), ("d2h", 4, 0),
        ("pinned->pageable", 3, 1), ("pinned->pageable", 4, 0),
    ]  # fmt: skip
    for op in ops:  # each copy out waits for its own chunk's D2H, issued before it; nothing else waits
        if op.name == "memcpy pinned->pageable":
            waited = ops[op.waits_for]
            assert (waited.kind, waited.chunk) == (OpKind.D2H, op.chunk) and waited.index < op.index
        else:
            assert op.waits_for == -1


@pytest.mark.parametrize(("chunks", "slots"), [(1, 1), (3, 8), (16, 2), (16, 4), (7, 3), (64, 1)])
def test_every_staged_chunk_goes_through_the_ring_once(chunks, slots):
    plan = _staged(chunks, slots, streams=3)
    for name in ("memcpy pageable->pinned", "memcpy HtoD", "fma_chain", "memcpy DtoH", "memcpy pinned->pageable"):
        rows = [op for op in plan.ops() if op.name == name]
        assert sorted(op.chunk for op in rows) == list(range(chunks))
    in_flight = 0  # chunks filled and not yet emptied never exceed the ring's slots
    for op in plan.ops():
        in_flight += {"memcpy pageable->pinned": 1, "memcpy pinned->pageable": -1}.get(op.name, 0)
        assert 0 <= in_flight <= min(slots, chunks)
    assert set(plan["slot"][plan["slot"] >= 0].tolist()) == set(range(min(slots, chunks)))


def test_chunk_stages_name_each_kinds_device_ops():
    assert [s.kind for s in chunk_stages(HostMemory.WRITE_COMBINED)] == [OpKind.H2D, OpKind.KERNEL, OpKind.D2H]
    assert [s.kind for s in chunk_stages(HostMemory.STAGED)] == [OpKind.H2D, OpKind.KERNEL, OpKind.D2H]
    assert [s.kind for s in chunk_stages(HostMemory.MAPPED)] == [OpKind.KERNEL]
    assert [s.name for s in chunk_stages(HostMemory.MANAGED_PREFETCH)] == [
        "prefetch to device", "kernel", "prefetch to host"]

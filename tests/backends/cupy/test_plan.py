from overlapviz.backends.cupy.plan import issue_plan, unit_of
from overlapviz.core.config import IssueOrder, PipelineConfig, StreamKind
from overlapviz.core.trace import OpKind, Unit

MIB = 1 << 20


def test_depth_issues_each_chunk_through_all_stages():
    plan = issue_plan(PipelineConfig(size_bytes=4 * MIB, chunks=2, streams=2))
    assert [(op.chunk, op.kind) for op in plan] == [
        (0, OpKind.H2D), (0, OpKind.KERNEL), (0, OpKind.D2H),
        (1, OpKind.H2D), (1, OpKind.KERNEL), (1, OpKind.D2H),
    ]  # fmt: skip
    assert [op.index for op in plan] == list(range(6))


def test_breadth_issues_stage_by_stage():
    plan = issue_plan(PipelineConfig(size_bytes=4 * MIB, chunks=2, streams=2, order=IssueOrder.BREADTH))
    assert [(op.kind, op.chunk) for op in plan] == [
        (OpKind.H2D, 0), (OpKind.H2D, 1), (OpKind.KERNEL, 0), (OpKind.KERNEL, 1), (OpKind.D2H, 0), (OpKind.D2H, 1),
    ]  # fmt: skip


def test_chunks_go_round_robin_over_streams_unless_legacy():
    plan = issue_plan(PipelineConfig(size_bytes=4 * MIB, chunks=4, streams=3))
    assert [op.stream for op in plan if op.kind is OpKind.H2D] == [0, 1, 2, 0]
    legacy = issue_plan(PipelineConfig(size_bytes=4 * MIB, chunks=4, streams=3, stream_kind=StreamKind.LEGACY))
    assert {op.stream for op in legacy} == {0}


def test_label_names_kind_chunk_and_stream():
    op = issue_plan(PipelineConfig(size_bytes=4 * MIB, chunks=4, streams=2))[4]
    assert op.label == "kernel c1 s1"


def test_units_one_engine_per_direction_or_a_shared_one():
    assert unit_of(OpKind.H2D, 3) is Unit.H2D_ENGINE
    assert unit_of(OpKind.D2H, 2) is Unit.D2H_ENGINE
    assert unit_of(OpKind.KERNEL, 1) is Unit.COMPUTE
    assert unit_of(OpKind.H2D, 1) is Unit.COPY_ENGINE
    assert unit_of(OpKind.D2H, 1) is Unit.COPY_ENGINE

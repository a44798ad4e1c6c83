"""The split layout of two GPUs: its settings, and a plan that shares the chunks out between the GPUs."""

import pytest

from overlapviz.core.config import ConfigError, GpuLayout, PipelineConfig
from overlapviz.core.config.pipeline_plan import pipeline_plan
from overlapviz.core.trace.spans import OpKind

SPLIT = PipelineConfig(size_bytes=1 << 20, chunks=8, streams=2, gpus=2, gpu_layout="split")


def plan_ops(config: PipelineConfig):
    return pipeline_plan(config, copy_engines=3, sm_count=132).ops()


def test_the_layout_is_written_only_when_split() -> None:
    chain = SPLIT.replace(gpu_layout="chain")
    assert "gpu_layout" not in PipelineConfig().to_dict() and "gpu_layout" not in chain.to_dict()
    assert SPLIT.gpu_layout is GpuLayout.SPLIT and SPLIT.to_dict()["gpu_layout"] == "split"
    assert PipelineConfig.from_dict(SPLIT.to_dict()) == SPLIT
    assert PipelineConfig.from_dict(chain.to_dict()) == chain


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"gpus": 1}, "gpu_layout", "split layout shares the chunks between GPUs: it needs gpus = 2"),
        ({"peer_access": False}, "peer_access", "split layout makes no peer copies"),
        ({"gpu_layout": "halves"}, "gpu_layout", "'halves' is not one of: chain, split"),
        ({"memory": "mapped"}, "gpus", "copies host buffers"),
        ({"memory": "staged"}, "gpus", "copies host buffers"),
        ({"graph": True}, "gpus", "CUDA Graph over two GPUs"),
    ],
)
def test_what_split_refuses(changes: dict[str, object], field: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message) as caught:
        SPLIT.replace(**changes)
    assert caught.value.field == field


@pytest.mark.parametrize("memory", ["pinned", "pageable", "registered", "write-combined"])
def test_split_copies_every_memory_the_chain_copies(memory: str) -> None:
    assert SPLIT.replace(memory=memory).is_split
    assert SPLIT.replace(memory=memory, gpu_layout="chain").gpus == 2


def test_describe_says_the_layout() -> None:
    assert SPLIT.describe().endswith(", 2 GPUs, split layout")
    assert "peer access" not in SPLIT.describe()
    assert SPLIT.replace(gpu_layout="chain").describe().endswith(", 2 GPUs, chain layout, peer access on")


def test_chunks_take_turns_on_the_gpus_and_each_gpu_its_streams() -> None:
    assert [SPLIT.gpu_of(c) for c in range(5)] == [0, 1, 0, 1, 0]
    # GPU 0 runs chunks 0, 2, 4, 6 on its streams 0, 1, 0, 1; GPU 1 chunks 1, 3, 5, 7 on its 2, 3, 2, 3
    assert [SPLIT.stream_of(c, SPLIT.gpu_of(c)) for c in range(8)] == [0, 2, 1, 3, 0, 2, 1, 3]
    legacy = SPLIT.replace(stream_kind="legacy")
    assert [legacy.stream_of(c, legacy.gpu_of(c)) for c in range(4)] == [0, 1, 0, 1]
    assert [SPLIT.replace(gpu_layout="chain").gpu_of(c) for c in range(3)] == [0, 0, 0]


def test_the_split_plan_runs_each_chunk_on_its_own_gpu_with_no_peer_copy() -> None:
    ops = plan_ops(SPLIT)
    assert len(ops) == 3 * SPLIT.chunks and OpKind.PEER not in {op.kind for op in ops}
    for op in ops:
        assert op.device == op.chunk % 2 and op.stream == SPLIT.stream_of(op.chunk, op.device)
        assert op.after == -1  # no chunk waits for another GPU
    for gpu in (0, 1):
        mine = [op for op in ops if op.device == gpu]
        assert sorted({op.chunk for op in mine}) == list(range(gpu, SPLIT.chunks, 2))
        assert {op.stream for op in mine} == {2 * gpu, 2 * gpu + 1}  # both of its streams carry work
        assert sorted(op.kind for op in mine) == sorted([OpKind.H2D, OpKind.KERNEL, OpKind.D2H] * 4)


def test_split_issue_orders() -> None:
    depth = plan_ops(SPLIT)
    assert [(op.kind, op.chunk) for op in depth[:6]] == [
        (OpKind.H2D, 0), (OpKind.KERNEL, 0), (OpKind.D2H, 0), (OpKind.H2D, 1), (OpKind.KERNEL, 1), (OpKind.D2H, 1),
    ]  # fmt: skip
    breadth = plan_ops(SPLIT.replace(order="breadth"))
    n = SPLIT.chunks
    assert [op.kind for op in breadth] == [OpKind.H2D] * n + [OpKind.KERNEL] * n + [OpKind.D2H] * n
    assert [op.device for op in breadth[:n]] == [0, 1] * (n // 2)  # the GPUs' copies in turn


def test_split_without_kernels_is_copies_on_both_gpus() -> None:
    ops = plan_ops(SPLIT.replace(iters=0))
    assert [(op.kind, op.device) for op in ops[:4]] == [
        (OpKind.H2D, 0), (OpKind.D2H, 0), (OpKind.H2D, 1), (OpKind.D2H, 1),
    ]  # fmt: skip
    assert all(op.after == -1 for op in ops)


def test_an_odd_chunk_count_gives_gpu_0_the_extra_chunk_and_the_last_its_remainder() -> None:
    odd = SPLIT.replace(size_bytes=4 * 1025, chunks=3)
    ops = plan_ops(odd)
    copies_in = {op.chunk: (op.device, op.nbytes) for op in ops if op.kind is OpKind.H2D}
    assert copies_in == {0: (0, 4 * 341), 1: (1, 4 * 341), 2: (0, 4 * 343)}

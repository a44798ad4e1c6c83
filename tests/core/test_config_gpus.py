"""The settings of two GPUs: what they allow, and that one GPU reads as it always has."""

import pytest

from overlapviz.core.config import ConfigError, PipelineConfig
from overlapviz.core.config.pipeline_plan import PEER_COPY, pipeline_plan
from overlapviz.core.trace.spans import OpKind, Unit

TWO = PipelineConfig(size_bytes=1 << 20, chunks=4, streams=2, gpus=2)


def test_one_gpu_keeps_its_dict_and_two_round_trip() -> None:
    one = PipelineConfig()
    assert "gpus" not in one.to_dict() and "peer_access" not in one.to_dict()
    assert PipelineConfig.from_dict(one.to_dict()) == one
    off = TWO.replace(peer_access=False)
    assert off.to_dict()["gpus"] == 2 and off.to_dict()["peer_access"] is False
    assert PipelineConfig.from_dict(off.to_dict()) == off
    assert PipelineConfig.from_dict({"gpus": 1}) == one


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"gpus": 0}, "gpus", "out of range"),
        ({"gpus": 3}, "gpus", "out of range"),
        ({"gpus": True}, "gpus", "whole number"),
        ({"peer_access": "yes"}, "peer_access", "true or false"),
        ({"gpus": 1, "peer_access": False}, "peer_access", "needs gpus = 2"),
        ({"memory": "mapped"}, "gpus", "copies host buffers"),
        ({"memory": "managed"}, "gpus", "copies host buffers"),
        ({"memory": "managed-prefetch"}, "gpus", "copies host buffers"),
        ({"memory": "staged"}, "gpus", "copies host buffers"),
        ({"graph": True}, "gpus", "CUDA Graph over two GPUs"),
    ],
)
def test_bad_combinations_are_refused(changes: dict[str, object], field: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message) as caught:
        TWO.replace(**changes)
    assert caught.value.field == field


@pytest.mark.parametrize("memory", ["pinned", "pageable", "registered", "write-combined"])
def test_two_gpus_copy_every_copy_kind(memory: str) -> None:
    assert TWO.replace(memory=memory).gpus == 2


def test_describe_says_the_gpus_only_when_two() -> None:
    assert "GPU" not in PipelineConfig().describe()
    assert TWO.describe().endswith(", 2 GPUs, chain layout, peer access on")
    assert TWO.replace(peer_access=False).describe().endswith("peer access off")


def test_streams_are_numbered_on_across_gpus() -> None:
    assert [TWO.stream_of(c, gpu) for gpu in (0, 1) for c in range(4)] == [0, 1, 0, 1, 2, 3, 2, 3]
    assert [TWO.replace(stream_kind="legacy").stream_of(0, gpu) for gpu in (0, 1)] == [0, 1]


def test_the_two_gpu_plan() -> None:
    plan = pipeline_plan(TWO, copy_engines=3, sm_count=132)
    ops = plan.ops()
    assert [(op.kind, op.device) for op in ops[:5]] == [
        (OpKind.H2D, 0), (OpKind.KERNEL, 0), (OpKind.PEER, 0), (OpKind.KERNEL, 1), (OpKind.D2H, 1),
    ]  # fmt: skip
    peers = [op for op in ops if op.stage is PEER_COPY]
    assert len(peers) == TWO.chunks and {op.unit for op in peers} == {Unit.DEVICE_COPY}
    waiting = [op for op in ops if op.after >= 0]
    # the first op of each chunk on GPU 1 waits for that chunk's peer copy, nothing else waits
    assert [(op.kind, op.device, ops[op.after].stage, ops[op.after].chunk) for op in waiting] == [
        (OpKind.KERNEL, 1, PEER_COPY, c) for c in range(TWO.chunks)
    ]
    assert all(op.stream == TWO.stream_of(op.chunk, op.device) for op in ops)


def test_the_two_gpu_plan_without_kernels_waits_with_the_copy_out() -> None:
    ops = pipeline_plan(TWO.replace(iters=0), copy_engines=3, sm_count=132).ops()
    assert [(op.kind, op.device) for op in ops if op.after >= 0] == [(OpKind.D2H, 1)] * TWO.chunks


def test_one_gpu_plans_have_no_peer_and_no_events() -> None:
    plan = pipeline_plan(PipelineConfig(), copy_engines=3, sm_count=132)
    assert not plan["device"].any() and (plan["after"] == -1).all()
    assert OpKind.PEER not in plan.kinds()

"""The CuPy backend issues the pipeline's one plan: the model's, for the same device facts."""

import pytest

from overlapviz.backends.cupy.plan import device_plan
from overlapviz.backends.sim.ops import build_ops, kernel_cost
from overlapviz.backends.sim.profile import available_profiles, load_profile
from overlapviz.core.config import HostMemory, IssueOrder, KernelKind, PipelineConfig, StreamKind
from overlapviz.core.config.pipeline_plan import THREADS_PER_BLOCK, pipeline_plan
from overlapviz.core.trace.spans import OpKind
from tests.backends.cupy.fakes import H200_FACTS

MIB = 1 << 20
UNEVEN = PipelineConfig(size_bytes=4 * 10_000, chunks=7, streams=3)
CONFIGS = [
    PipelineConfig(size_bytes=16 * MIB, chunks=8, streams=4),
    UNEVEN,
    UNEVEN.replace(kernel=KernelKind.SINCOS, iters=0),
    UNEVEN.replace(order=IssueOrder.BREADTH),
    UNEVEN.replace(stream_kind=StreamKind.LEGACY),
    UNEVEN.replace(memory=HostMemory.PAGEABLE, fresh_output=True),
    UNEVEN.replace(memory=HostMemory.REGISTERED),
    PipelineConfig(size_bytes=64 * MIB, chunks=2, kernel=KernelKind.SINCOS),  # grids past 8 blocks per SM
]


def test_the_device_plan_reads_engines_and_sms_from_the_device_facts():
    plan = device_plan(UNEVEN, {**H200_FACTS, "name": "NVIDIA H200"})
    assert (plan.copy_engines, plan.sm_count) == (3, 132)
    same = pipeline_plan(UNEVEN, copy_engines=3, sm_count=132)
    assert plan.ops() == same.ops()


@pytest.mark.parametrize("key", available_profiles())
@pytest.mark.parametrize("config", CONFIGS, ids=range(len(CONFIGS)))
def test_the_gpu_issues_the_ops_the_model_runs(key, config):
    profile = load_profile(key)
    issued = device_plan(config, profile.facts()).ops()  # what the CuPy backend would issue there
    modelled = build_ops(config, profile)
    assert [(op.kind, op.chunk, op.stream, op.unit, op.nbytes, op.memory, op.name) for op in issued] == [
        (op.kind, op.chunk, op.stream, op.unit, op.nbytes, op.memory, op.name) for op in modelled
    ]


@pytest.mark.parametrize("key", available_profiles())
@pytest.mark.parametrize("config", CONFIGS, ids=range(len(CONFIGS)))
def test_the_model_costs_each_kernel_on_the_grid_the_gpu_launches(key, config):
    profile = load_profile(key)
    capacity = profile.sm_count * profile.blocks_per_sm * THREADS_PER_BLOCK
    for op in device_plan(config, profile.facts()).ops():
        if op.kind is OpKind.KERNEL:
            _, occupancy = kernel_cost(config, profile, op.chunk)
            assert occupancy == min(1.0, op.blocks * THREADS_PER_BLOCK / capacity)

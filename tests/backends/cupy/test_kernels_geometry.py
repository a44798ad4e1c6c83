import numpy as np

from overlapviz import resources
from overlapviz.backends.cupy.kernels import (
    KERNEL_NAMES,
    SOURCE,
    blocks_for,
    fills_device,
    fma_blocks,
    kernel_args,
    sincos_blocks,
)
from overlapviz.core.config import KernelKind, PipelineConfig

MIB = 1 << 20


def test_fma_grid_is_capped_at_eight_blocks_per_sm():
    assert fma_blocks(64 * MIB // 4 * 4, 132) == 8 * 132
    assert fma_blocks(1000, 132) == 4  # ceil(1000 / 256)
    assert fma_blocks(1, 132) == 1


def test_sincos_grid_has_a_thread_per_element():
    assert sincos_blocks(1 << 20) == 4096
    assert sincos_blocks(257) == 2


def test_default_chunk_fills_the_h200_but_a_small_one_does_not():
    assert fills_device(PipelineConfig(), 132)
    small = PipelineConfig(size_bytes=1 * MIB, chunks=16)  # 16384 elements: 64 blocks
    assert blocks_for(small, 132) == 64
    assert not fills_device(small, 132)


def test_kernel_arguments_match_the_c_signatures():
    cfg = PipelineConfig(size_bytes=4 * MIB, chunks=4, iters=1860)
    ptr, n, iters = kernel_args(cfg, 2, "ptr")
    assert (ptr, n.dtype, int(n), iters.dtype, int(iters)) == ("ptr", np.uint64, cfg.chunk_elements, np.int32, 1860)
    sincos = cfg.replace(kernel=KernelKind.SINCOS)
    _, n, offset = kernel_args(sincos, 2, "ptr")
    assert offset.dtype == np.uint64 and int(offset) == 2 * cfg.chunk_elements


def test_source_defines_every_kernel_as_extern_c():
    text = resources.kernel_source(SOURCE)
    for name in [*KERNEL_NAMES.values(), "scale_copy"]:
        assert f'extern "C" __global__ void {name}(' in text

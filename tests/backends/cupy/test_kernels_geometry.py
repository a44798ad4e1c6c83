import numpy as np

from overlapviz import resources
from overlapviz.backends.cupy.kernels import COPY_KERNEL, SOURCE, fills_device, kernel_args
from overlapviz.backends.cupy.plan import device_plan
from overlapviz.core.config import KernelKind, PipelineConfig
from overlapviz.core.config.pipeline_plan import KERNEL_NAMES
from tests.backends.cupy.fakes import H200_FACTS

MIB = 1 << 20


def test_default_chunk_fills_the_h200_but_a_small_one_does_not():
    assert fills_device(device_plan(PipelineConfig(), H200_FACTS))
    small = device_plan(PipelineConfig(size_bytes=1 * MIB, chunks=16), H200_FACTS)  # 16384 elements: 64 blocks
    assert small.grids()[0] == 64
    assert not fills_device(small)


def test_kernel_arguments_match_the_c_signatures():
    cfg = PipelineConfig(size_bytes=4 * MIB, chunks=4, iters=1860)
    ptr, n, iters = kernel_args(cfg, 2, "ptr")
    assert (ptr, n.dtype, int(n), iters.dtype, int(iters)) == ("ptr", np.uint64, cfg.chunk_elements, np.int32, 1860)
    sincos = cfg.replace(kernel=KernelKind.SINCOS)
    _, n, offset = kernel_args(sincos, 2, "ptr")
    assert offset.dtype == np.uint64 and int(offset) == 2 * cfg.chunk_elements


def test_source_defines_every_kernel_as_extern_c():
    text = resources.kernel_source(SOURCE)
    for name in [*KERNEL_NAMES.values(), COPY_KERNEL]:
        assert f'extern "C" __global__ void {name}(' in text


def test_the_sincos_kernel_has_no_grid_stride_loop_so_its_grid_is_not_capped():
    # The plan launches one thread per element for it; a stride loop would allow a cap.
    text = resources.kernel_source(SOURCE)
    body = text[text.index("void sincos_sqrt(") :]
    body = body[: body.index("\n}\n")]
    assert "stride" not in body and "if (local < n)" in body

"""The pipeline's CUDA kernels: one source file, loaded by one function, compiled in warm-up.

The launch geometry is the pipeline plan's (`overlapviz.core.config.pipeline_plan`), tested without
a GPU; `load_kernels` needs CuPy and imports it when called.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from overlapviz import resources
from overlapviz.core.config import KernelKind, PipelineConfig
from overlapviz.core.config.pipeline_plan import BLOCKS_PER_SM, KERNEL_NAMES, PipelinePlan

SOURCE = "pipeline.cu"
COPY_KERNEL = "scale_copy"


def fills_device(plan: PipelinePlan) -> bool:
    """Whether one chunk's kernel occupies every thread slot of every SM.

    Then a second kernel cannot run beside it (only at its edges), so compute behaves as
    one FIFO unit; this is what the CUDA-events fallback relies on. The last chunk is never
    smaller than the others, so the first chunk answers for all of them.
    """
    return plan.grids()[0] >= BLOCKS_PER_SM * plan.sm_count


def kernel_args(config: PipelineConfig, chunk: int, pointer: Any) -> tuple[Any, ...]:
    """Arguments of the chunk kernel, typed to match the C signatures in pipeline.cu."""
    n = np.uint64(config.chunk_elements_of(chunk))
    if config.kernel is KernelKind.SINCOS:
        return (pointer, n, np.uint64(config.chunk_offset_of(chunk)))
    return (pointer, n, np.int32(config.iters))


@dataclass(frozen=True)
class Kernels:
    """The compiled kernels of pipeline.cu (CuPy `RawKernel` objects)."""

    chunk: dict[KernelKind, Any]
    scale_copy: Any


def load_kernels() -> Kernels:
    """Compile pipeline.cu with NVRTC (CuPy caches the binary on disk) and fetch its kernels.

    The first launch of a CuPy kernel still loads the module: launch each once in warm-up.
    """
    import cupy

    module = cupy.RawModule(code=resources.kernel_source(SOURCE), options=("-std=c++17",))
    chunk = {kind: module.get_function(name) for kind, name in KERNEL_NAMES.items()}
    return Kernels(chunk=chunk, scale_copy=module.get_function(COPY_KERNEL))

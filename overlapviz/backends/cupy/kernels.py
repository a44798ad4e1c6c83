"""The pipeline's CUDA kernels: one source file, loaded by one function, compiled in warm-up.

The launch geometry is pure arithmetic and is tested without a GPU; `load_kernels` needs
CuPy and imports it when called.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from overlapviz import resources
from overlapviz.core.config import KernelKind, PipelineConfig

SOURCE = "pipeline.cu"
THREADS_PER_BLOCK = 256
BLOCKS_PER_SM = 8  # 8 x 256 threads = 2048, the most an SM of Volta to Hopper holds at once
KERNEL_NAMES = {KernelKind.FMA: "fma_chain", KernelKind.SINCOS: "sincos_sqrt"}
COPY_KERNEL = "scale_copy"


def fma_blocks(elements: int, sm_count: int) -> int:
    """Grid of the FMA chain: min(ceil(n / 256), 8 x SMs) blocks (grid-stride beyond that)."""
    return max(1, min(math.ceil(elements / THREADS_PER_BLOCK), BLOCKS_PER_SM * sm_count))


def sincos_blocks(elements: int) -> int:
    """Grid of the sincos kernel: one thread per element, as in the blog post."""
    return max(1, math.ceil(elements / THREADS_PER_BLOCK))


def blocks_for(config: PipelineConfig, sm_count: int, chunk: int = 0) -> int:
    """Blocks of the kernel of `chunk` (every chunk but the last has the same grid)."""
    elements = config.chunk_elements_of(chunk)
    if config.kernel is KernelKind.SINCOS:
        return sincos_blocks(elements)
    return fma_blocks(elements, sm_count)


def fills_device(config: PipelineConfig, sm_count: int) -> bool:
    """Whether one chunk's kernel occupies every thread slot of every SM.

    Then a second kernel cannot run beside it (only at its edges), so compute behaves as
    one FIFO unit; this is what the CUDA-events fallback relies on. The last chunk is never
    smaller than the others, so the first chunk answers for all of them.
    """
    return blocks_for(config, sm_count) >= BLOCKS_PER_SM * sm_count


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

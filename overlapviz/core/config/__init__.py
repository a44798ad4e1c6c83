"""The pipeline a user asks for: its settings, declared once, and the config they make.

`settings` declares every setting (type, range, default, help, control); `PipelineConfig`
checks a set of them, `refusals` says which combinations cannot run and why, `cli_flags`
and `docs_table` write the command line's flags and the docs' table from the declarations.
"""

from overlapviz.core.config.kinds import (
    COPY_KINDS_TEXT,
    COPY_MEMORIES,
    GRAPH_MEMORIES,
    IN_PLACE_MEMORIES,
    MULTI_GPU_MEMORIES,
    PER_RUN_MEMORIES,
    GpuLayout,
    HostAlloc,
    HostMemory,
    IssueOrder,
    KernelKind,
    StreamKind,
)
from overlapviz.core.config.pipeline import PipelineConfig
from overlapviz.core.config.settings import (
    DEFAULT_CHUNKS,
    DEFAULT_ITERS,
    DEFAULT_RING_SLOTS,
    DEFAULT_SIZE_BYTES,
    DEFAULT_STREAMS,
    MAX_CHUNKS,
    MAX_GPUS,
    MAX_ITERS,
    MAX_RING_SLOTS,
    MAX_STREAMS,
    MULTI_GPU_DEFAULTS,
)
from overlapviz.core.config.values import (
    FLOAT32_BYTES,
    GIB,
    KIB,
    MAX_SIZE_BYTES,
    MIB,
    MIN_SIZE_BYTES,
    ConfigError,
    format_size,
    parse_count,
    parse_size,
)

__all__ = [
    "COPY_KINDS_TEXT",
    "COPY_MEMORIES",
    "DEFAULT_CHUNKS",
    "DEFAULT_ITERS",
    "DEFAULT_RING_SLOTS",
    "DEFAULT_SIZE_BYTES",
    "DEFAULT_STREAMS",
    "FLOAT32_BYTES",
    "GIB",
    "GRAPH_MEMORIES",
    "IN_PLACE_MEMORIES",
    "KIB",
    "MAX_CHUNKS",
    "MAX_GPUS",
    "MAX_ITERS",
    "MAX_RING_SLOTS",
    "MAX_SIZE_BYTES",
    "MAX_STREAMS",
    "MIB",
    "MIN_SIZE_BYTES",
    "MULTI_GPU_DEFAULTS",
    "MULTI_GPU_MEMORIES",
    "PER_RUN_MEMORIES",
    "ConfigError",
    "GpuLayout",
    "HostAlloc",
    "HostMemory",
    "IssueOrder",
    "KernelKind",
    "PipelineConfig",
    "StreamKind",
    "format_size",
    "parse_count",
    "parse_size",
]

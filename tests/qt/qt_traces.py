"""Traces for the Qt tests, with spans at times a test can aim at exactly."""

from __future__ import annotations

from overlapviz.core.config import PipelineConfig
from overlapviz.core.trace import MemoryKind, OpKind, Trace, TraceBuilder, Unit
from overlapviz.core.trace_meta import TraceMeta

US = 1_000
MS = 1_000_000
MIB = 1024 * 1024
CHUNK_BYTES = 4 * MIB


def meta(chunks: int, streams: int, memory: str = "pinned") -> TraceMeta:
    config = PipelineConfig(size_bytes=chunks * CHUNK_BYTES, chunks=chunks, streams=streams, memory=memory)
    return TraceMeta(
        backend="test", device="test-gpu", device_name="Test GPU", timing="model",
        config=config.to_dict(), version="0", device_facts={"copy_engines": 2}, simulated=True,
    )  # fmt: skip


def two_chunk_trace() -> Trace:
    """Two chunks on two streams; 1 ms per op; chunk 1's H2D waits 1 ms for the engine.

    Rows: 0 H2D c0 [0,1], 1 kernel c0 [1,2], 2 D2H c0 [2,3], 3 H2D c1 ready 0 start 1 end 2,
    4 kernel c1 [2,3], 5 D2H c1 [3,4] (pageable), then host calls; the call that issued row 5
    is blocked from 3 to 4 ms.
    """
    b = TraceBuilder()
    pinned, pageable = MemoryKind.PINNED, MemoryKind.PAGEABLE
    b.add(OpKind.H2D, Unit.H2D_ENGINE, 0, MS, name="memcpy HtoD", stream=0, chunk=0, enqueue_ns=0, ready_ns=0,
          nbytes=CHUNK_BYTES, memory=pinned)  # fmt: skip
    b.add(OpKind.KERNEL, Unit.COMPUTE, MS, 2 * MS, name="fma_chain", stream=0, chunk=0, enqueue_ns=0, ready_ns=MS)
    b.add(OpKind.D2H, Unit.D2H_ENGINE, 2 * MS, 3 * MS, name="memcpy DtoH", stream=0, chunk=0, enqueue_ns=0,
          ready_ns=2 * MS, nbytes=CHUNK_BYTES, memory=pinned)  # fmt: skip
    b.add(OpKind.H2D, Unit.H2D_ENGINE, MS, 2 * MS, name="memcpy HtoD", stream=1, chunk=1, enqueue_ns=0, ready_ns=0,
          nbytes=CHUNK_BYTES, memory=pinned)  # fmt: skip
    b.add(OpKind.KERNEL, Unit.COMPUTE, 2 * MS, 3 * MS, name="fma_chain", stream=1, chunk=1, enqueue_ns=0,
          ready_ns=2 * MS)  # fmt: skip
    b.add(OpKind.D2H, Unit.D2H_ENGINE, 3 * MS, 4 * MS, name="memcpy DtoH", stream=1, chunk=1, enqueue_ns=0,
          ready_ns=3 * MS, nbytes=CHUNK_BYTES, memory=pageable)  # fmt: skip
    for row in range(5):
        b.add(OpKind.API, Unit.HOST, row * 10 * US, row * 10 * US + 5 * US, name="cudaMemcpyAsync", op=row)
    b.add(OpKind.API, Unit.HOST, 50 * US, 4 * MS, name="cudaMemcpyAsync", op=5)
    return b.build(meta(2, 2), origin_ns=0)


def kernels_only_trace() -> Trace:
    """Two 1 ms kernels back to back on one stream, and no copies."""
    b = TraceBuilder()
    for chunk in range(2):
        b.add(OpKind.KERNEL, Unit.COMPUTE, chunk * MS, (chunk + 1) * MS, name="fma_chain", stream=0, chunk=chunk,
              enqueue_ns=0, ready_ns=chunk * MS)  # fmt: skip
    return b.build(meta(2, 1), origin_ns=0)


def long_trace(chunks: int = 4096, streams: int = 4, op_ns: int = 20 * US) -> Trace:
    """A long pipeline: every op `op_ns`, engines back to back, one host call per op."""
    b = TraceBuilder()
    units = {OpKind.H2D: Unit.H2D_ENGINE, OpKind.KERNEL: Unit.COMPUTE, OpKind.D2H: Unit.D2H_ENGINE}
    for chunk in range(chunks):
        for stage, kind in enumerate(units):
            start = (chunk + stage) * op_ns
            row = b.add(kind, units[kind], start, start + op_ns, name=kind.label, stream=chunk % streams,
                        chunk=chunk, ready_ns=start, nbytes=0 if kind is OpKind.KERNEL else CHUNK_BYTES,
                        memory=MemoryKind.NONE if kind is OpKind.KERNEL else MemoryKind.PINNED)  # fmt: skip
            b.add(OpKind.API, Unit.HOST, row * US, row * US + US // 2, name="call", op=row)
    return b.build(meta(chunks, streams), origin_ns=0)

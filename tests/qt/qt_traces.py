"""Traces for the Qt tests, with spans at times a test can aim at exactly."""

from __future__ import annotations

from overlapviz.core.config import PipelineConfig
from overlapviz.core.trace.meta import TraceMeta
from overlapviz.core.trace.spans import MemoryKind, OpKind, Trace, TraceBuilder, Unit

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


def two_gpu_trace() -> Trace:
    """Two GPUs, each with a stream and every kind of work that is not the pipeline's; nested ranges.

    GPU 0, stream 0: H2D [0,1], kernel [1,2], memset [2,3], D2D copy [3,4] ms. GPU 1,
    stream 0: kernel [0,2], peer copy to GPU 0 [2,3]; and a unified-memory migration [1,2]
    on no stream. On the host: the range "step" [0,4] holding "forward" [0,2] holding
    "attention" [0.5,1.5]; and "backward" [2,4]; then one call per device op.
    """
    b = TraceBuilder()
    gpu0 = ((OpKind.H2D, Unit.H2D_ENGINE, "memcpy HtoD"), (OpKind.KERNEL, Unit.COMPUTE, "gemm"),
            (OpKind.MEMSET, Unit.MEMSET, "Memset (Device)"), (OpKind.D2D, Unit.DEVICE_COPY, "Memcpy DtoD"))  # fmt: skip
    for index, (kind, unit, name) in enumerate(gpu0):
        b.add(kind, unit, index * MS, (index + 1) * MS, name=name, stream=0, enqueue_ns=0, ready_ns=index * MS,
              nbytes=0 if kind is OpKind.KERNEL else CHUNK_BYTES,
              memory=MemoryKind.PINNED if kind is OpKind.H2D else MemoryKind.NONE, device=0)  # fmt: skip
    b.add(OpKind.KERNEL, Unit.COMPUTE, 0, 2 * MS, name="allreduce", stream=0, enqueue_ns=0, ready_ns=0, device=1)
    b.add(OpKind.PEER, Unit.DEVICE_COPY, 2 * MS, 3 * MS, name="Memcpy PtoP", stream=0, enqueue_ns=0, ready_ns=2 * MS,
          nbytes=CHUNK_BYTES, device=1)  # fmt: skip
    b.add(OpKind.MIGRATION, Unit.MIGRATION, MS, 2 * MS, name="Unified memory HtoD", nbytes=2 * MIB, device=1,
          thread=-1)  # fmt: skip
    for name, start, end in (("step", 0, 4 * MS), ("forward", 0, 2 * MS), ("attention", MS // 2, 3 * MS // 2),
                             ("backward", 2 * MS, 4 * MS)):  # fmt: skip
        b.add(OpKind.ANNOTATION, Unit.HOST, start, end, name=name, device=-1)
    for row, device in enumerate((0, 0, 0, 0, 1, 1)):
        b.add(OpKind.API, Unit.HOST, row * 10 * US, row * 10 * US + 5 * US, name="cudaLaunchKernel", op=row,
              device=device)  # fmt: skip
    return b.build(meta(1, 1).replace(simulated=False), origin_ns=0)


def many_streams_trace(streams: int = 24, busy: int = 3) -> Trace:
    """One GPU with `streams` streams: the first `busy` run a 10 ms kernel each, the rest a 10 µs kernel.

    Stream s's kernel is called ``kernel_s``; every stream is busy less than 1% of the run but the first `busy`.
    """
    b = TraceBuilder()
    for stream in range(streams):
        length = 10 * MS if stream < busy else 10 * US
        start = stream * 100 * US
        b.add(OpKind.KERNEL, Unit.COMPUTE, start, start + length, name=f"kernel_{stream}", stream=stream,
              enqueue_ns=0, ready_ns=start)  # fmt: skip
    return b.build(meta(1, 1), origin_ns=0)

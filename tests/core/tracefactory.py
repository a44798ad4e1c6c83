"""Small pipeline-like traces for tests, from a handful of parameters.

`pipeline_trace` plays a chunked H2D -> kernel -> D2H pipeline through a minimal model: the
host issues one API call per op (each costs `call_ns`), every stream and every hardware unit
runs its ops one at a time in issue order, and a pageable copy keeps its call blocked until
the copy has finished. It is no substitute for the simulated backend; it only makes traces
whose shape a test can reason about exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from overlapviz.core.config import PipelineConfig
from overlapviz.core.trace.meta import TraceMeta
from overlapviz.core.trace.spans import MemoryKind, OpKind, Trace, TraceBuilder, Unit

MS = 1_000_000
US = 1_000
MIB = 1024 * 1024

API_NAMES = {OpKind.H2D: "cudaMemcpyAsync", OpKind.KERNEL: "cuLaunchKernel", OpKind.D2H: "cudaMemcpyAsync"}
OP_NAMES = {OpKind.H2D: "memcpy HtoD", OpKind.KERNEL: "fma_chain", OpKind.D2H: "memcpy DtoH"}
STAGES = (OpKind.H2D, OpKind.KERNEL, OpKind.D2H)


def pipeline_trace(
    chunks: int = 4,
    streams: int = 4,
    *,
    h2d_ns: int | Sequence[int] = 1 * MS,
    kernel_ns: int | Sequence[int] = 1 * MS,
    d2h_ns: int | Sequence[int] = 1 * MS,
    chunk_bytes: int = 4 * MIB,
    copy_engines: int = 2,
    memory: str = "pinned",
    legacy: bool = False,
    order: str = "depth",
    call_ns: int = 5 * US,
    concurrent_kernels: bool = False,
    host: bool = True,
    ready: bool = True,
    sync: bool = True,
) -> Trace:
    """A pipeline trace; durations are one value for every chunk or one per chunk."""
    durations = {
        OpKind.H2D: _per_chunk(h2d_ns, chunks),
        OpKind.KERNEL: _per_chunk(kernel_ns, chunks),
        OpKind.D2H: _per_chunk(d2h_ns, chunks),
    }
    units = _units(copy_engines)
    memory_kind = MemoryKind.PAGEABLE if memory == "pageable" else MemoryKind.PINNED
    builder = TraceBuilder()
    clock = 0
    stream_tail: dict[int, int] = {}
    unit_free: dict[Unit, int] = {}
    for chunk, kind in _issue_order(chunks, order):
        stream = 0 if legacy else chunk % streams
        enqueue = clock + call_ns
        ready_ns = max(enqueue, stream_tail.get(stream, 0))
        shares_unit = not (kind is OpKind.KERNEL and concurrent_kernels)
        start = max(ready_ns, unit_free.get(units[kind], 0)) if shares_unit else ready_ns
        end = start + durations[kind][chunk]
        stream_tail[stream] = end
        if shares_unit:
            unit_free[units[kind]] = end
        is_copy = kind is not OpKind.KERNEL
        row = builder.add(
            kind, units[kind], start, end, name=OP_NAMES[kind], stream=stream, chunk=chunk,
            enqueue_ns=enqueue, ready_ns=ready_ns if ready else -1,
            nbytes=chunk_bytes if is_copy else 0,
            memory=memory_kind if is_copy else MemoryKind.NONE,
        )
        call_end = max(enqueue, end) if is_copy and memory_kind is MemoryKind.PAGEABLE else enqueue
        if host:
            builder.add(OpKind.API, Unit.HOST, clock, call_end, name=API_NAMES[kind], op=row)
        clock = call_end
    last_end = max(stream_tail.values(), default=clock)
    if host and sync and last_end > clock:
        builder.add(OpKind.API, Unit.HOST, clock, last_end, name="cudaDeviceSynchronize")
    meta = _meta(chunks, streams, chunk_bytes, copy_engines, memory, legacy, order)
    return builder.build(TraceMeta.from_dict(meta), origin_ns=0)


def _per_chunk(value: int | Sequence[int], chunks: int) -> list[int]:
    if isinstance(value, int):
        return [value] * chunks
    if len(value) != chunks:
        raise ValueError(f"{len(value)} durations for {chunks} chunks")
    return list(value)


def _units(copy_engines: int) -> dict[OpKind, Unit]:
    if copy_engines < 2:
        return {OpKind.H2D: Unit.COPY_ENGINE, OpKind.KERNEL: Unit.COMPUTE, OpKind.D2H: Unit.COPY_ENGINE}
    return {OpKind.H2D: Unit.H2D_ENGINE, OpKind.KERNEL: Unit.COMPUTE, OpKind.D2H: Unit.D2H_ENGINE}


def _issue_order(chunks: int, order: str) -> list[tuple[int, OpKind]]:
    if order == "breadth":
        return [(chunk, kind) for kind in STAGES for chunk in range(chunks)]
    return [(chunk, kind) for chunk in range(chunks) for kind in STAGES]


def _meta(
    chunks: int, streams: int, chunk_bytes: int, copy_engines: int, memory: str, legacy: bool, order: str
) -> dict[str, Any]:
    config = PipelineConfig(
        size_bytes=chunks * chunk_bytes, chunks=chunks, streams=streams, memory=memory,
        order=order, stream_kind="legacy" if legacy else "nonblocking",
    )
    return {
        "backend": "test",
        "device": "test",
        "device_name": "Test GPU",
        "timing": "model",
        "config": config.to_dict(),
        "version": "0",
        "device_facts": {"copy_engines": copy_engines},
        "simulated": True,
    }


def alloc_trace(
    before: Sequence[tuple[str, int]] = (("cudaMallocHost", 90 * MS), ("cudaMallocHost", 90 * MS)),
    after: Sequence[tuple[str, int]] = (("cudaFreeHost", 25 * MS), ("cudaFreeHost", 25 * MS)),
) -> Trace:
    """Host calls `before` the work, one chunk's H2D, kernel, D2H (1 ms each, one after the
    other), a synchronize, then the host calls `after` it: a run that allocates its buffers."""
    builder = TraceBuilder()
    clock = 0
    for name, ns in before:
        builder.add(OpKind.API, Unit.HOST, clock, clock + ns, name=name)
        clock += ns
    for kind, unit in _units(2).items():
        row = builder.add(kind, unit, clock + 10, clock + 10 + MS, name=OP_NAMES[kind], chunk=0, stream=0)
        builder.add(OpKind.API, Unit.HOST, clock, clock + 5, name=API_NAMES[kind], op=row)
        clock += MS + 10
    builder.add(OpKind.API, Unit.HOST, clock - MS, clock, name="cudaDeviceSynchronize")
    for name, ns in after:
        builder.add(OpKind.API, Unit.HOST, clock, clock + ns, name=name)
        clock += ns
    return builder.build(TraceMeta(device_facts={"copy_engines": 2}), origin_ns=0)


def on_gpus(*traces: Trace, meta: TraceMeta | None = None) -> Trace:
    """`traces` as one program's trace, the i-th on GPU i: each keeps its times, its device ops
    and the calls that issued them go to its GPU, its other host spans to no GPU (-1), and its
    streams are numbered after the streams of the traces before it."""
    import numpy as np

    columns: dict[str, list[Any]] = {}
    names: list[str] = []
    rows_before, streams_before = 0, 0
    for device, trace in enumerate(traces):
        part = {name: values.copy() for name, values in trace.columns.items()}
        ops = trace.device_mask
        issuing = (trace["kind"] == OpKind.API) & (trace["op"] >= 0)
        part["device"] = np.where(ops | issuing, device, -1).astype(part["device"].dtype)
        part["op"] = np.where(trace["op"] >= 0, trace["op"] + rows_before, -1).astype(part["op"].dtype)
        part["stream"] = np.where(trace["stream"] >= 0, trace["stream"] + streams_before, -1).astype(np.int32)
        part["name"] = (trace["name"] + len(names)).astype(np.int32)
        names += trace.names
        for name, values in part.items():
            columns.setdefault(name, []).append(values)
        rows_before += len(trace)
        streams_before += int(trace["stream"].max(initial=-1)) + 1
    merged = {name: np.concatenate(parts) for name, parts in columns.items()}
    return Trace(merged, tuple(names), traces[0].meta if meta is None else meta)

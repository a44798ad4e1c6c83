"""Fake CUPTI records for a pipeline: what CUPTI would report for a simple schedule.

Every op is issued by one API call (runtime cudaMemcpyAsync, or driver cuLaunchKernel for
kernels) with a growing correlation id; each stream and each unit runs its ops in order.
"""

from __future__ import annotations

from overlapviz.backends.cupy.cupti_records import ApiRecord, CuptiMemory, DeviceRecord
from overlapviz.backends.cupy.plan import device_plan
from overlapviz.core.config import PipelineConfig
from overlapviz.core.config.pipeline_plan import PlannedOp
from overlapviz.core.trace.spans import OpKind

US = 1_000
BASE = 1_700_000_000_000_000_000  # CUPTI timestamps are wall-clock ns
THREAD = 4242
H200_FACTS = {"copy_engines": 3, "sm_count": 132}  # what `device_facts` reads on the H200


def planned_ops(config: PipelineConfig, copy_engines: int = 3) -> list[PlannedOp]:
    """The ops the backend issues for `config` on an H200, or on one with `copy_engines` engines."""
    return device_plan(config, {**H200_FACTS, "copy_engines": copy_engines}).ops()


def fake_records(
    plan: list[PlannedOp],
    *,
    op_ns: int = 100 * US,
    call_ns: int = 5 * US,
    chunk_bytes: int = 1 << 20,
    host_kind: int = CuptiMemory.PINNED,
    first_correlation: int = 100,
    stream_ids: dict[int, int] | None = None,
) -> tuple[list[ApiRecord], list[DeviceRecord]]:
    """(API records, device records) of `plan` on a machine with one engine per direction."""
    stream_ids = stream_ids or {}
    apis, devices = [], []
    host = BASE
    unit_free: dict[OpKind, int] = {}
    stream_free: dict[int, int] = {}
    for op in plan:
        correlation = first_correlation + 2 * op.index  # ids skip: other calls happen between
        runtime = op.kind is not OpKind.KERNEL
        name = "cudaMemcpyAsync_v3020" if runtime else "cuLaunchKernel"
        apis.append(ApiRecord(name, host, host + call_ns, correlation, THREAD, runtime))
        start = max(host + call_ns, unit_free.get(op.kind, 0), stream_free.get(op.stream, 0))
        end = start + op_ns
        unit_free[op.kind] = stream_free[op.stream] = end
        cupti_stream = stream_ids.get(op.stream, 13 + op.stream)
        if op.kind is OpKind.KERNEL:
            devices.append(DeviceRecord(op.kind, start, end, correlation, cupti_stream, name="fma_chain"))
        else:
            src, dst = (host_kind, CuptiMemory.DEVICE) if op.kind is OpKind.H2D else (CuptiMemory.DEVICE, host_kind)
            devices.append(DeviceRecord(op.kind, start, end, correlation, cupti_stream, nbytes=chunk_bytes,
                                        src_kind=src, dst_kind=dst))
        host += call_ns + 1 * US
    last = max(d.end_ns for d in devices)
    apis.append(ApiRecord("cudaDeviceSynchronize_v3020", host, last + 2 * US, first_correlation + 2 * len(plan),
                          THREAD, True))
    return apis, devices

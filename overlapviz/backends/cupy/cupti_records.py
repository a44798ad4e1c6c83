"""Plain copies of CUPTI activity records, taken inside CUPTI's buffer callback.

CUPTI reuses its buffers once the callback returns, so the fields the trace needs are copied
into these small frozen objects there. Being plain data, they also let the conversion to a
trace be tested with fake records on a machine with no GPU.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from overlapviz.core.config import HostMemory
from overlapviz.core.trace.spans import MemoryKind, OpKind


class CuptiMemory(IntEnum):
    """CUPTI's ``ActivityMemoryKind`` values that a pipeline's copies carry."""

    UNKNOWN = 0
    PAGEABLE = 1
    PINNED = 2
    DEVICE = 3


class CuptiCopyKind(IntEnum):
    """CUPTI's ``ActivityMemcpyKind`` values of the pipeline's copies."""

    HTOD = 1
    DTOH = 2


@dataclass(frozen=True, slots=True)
class ApiRecord:
    """A runtime or driver API call as the host thread spent it (CUPTI timestamps, ns)."""

    name: str
    start_ns: int
    end_ns: int
    correlation_id: int
    thread_id: int
    runtime: bool  # False: a driver API call (cuLaunchKernel from CuPy's RawKernel)


@dataclass(frozen=True, slots=True)
class DeviceRecord:
    """A copy or kernel as the hardware ran it (CUPTI timestamps, ns)."""

    kind: OpKind
    start_ns: int
    end_ns: int
    correlation_id: int
    stream_id: int
    name: str = ""
    nbytes: int = 0
    src_kind: int = CuptiMemory.UNKNOWN
    dst_kind: int = CuptiMemory.UNKNOWN


def copy_op_kind(copy_kind: int) -> OpKind | None:
    """H2D or D2H for CUPTI's copy kind; None for any other copy (device to device, ...)."""
    if copy_kind == CuptiCopyKind.HTOD:
        return OpKind.H2D
    if copy_kind == CuptiCopyKind.DTOH:
        return OpKind.D2H
    return None


def host_memory_of(record: DeviceRecord, configured: HostMemory) -> MemoryKind:
    """The host side of a copy, from CUPTI's source/destination kinds.

    CUPTI reports memory pinned with ``cudaHostRegister`` or allocated write-combined as
    pinned too; the configured memory tells them apart. A kernel's record says nothing of
    host memory (what it reaches is the plan's).
    """
    if record.kind is OpKind.KERNEL:
        return MemoryKind.NONE
    host_side = record.src_kind if record.kind is OpKind.H2D else record.dst_kind
    if host_side == CuptiMemory.PAGEABLE:
        return MemoryKind.PAGEABLE
    if host_side == CuptiMemory.PINNED:
        return _PINNED_AS.get(configured, MemoryKind.PINNED)
    return MemoryKind.NONE


# Page-locked kinds CUPTI reports as plain pinned memory, by the configured host memory.
_PINNED_AS = {HostMemory.REGISTERED: MemoryKind.REGISTERED, HostMemory.WRITE_COMBINED: MemoryKind.WRITE_COMBINED}


@dataclass(frozen=True, slots=True)
class HostStep:
    """Host work of a run that is no device op's issuing call (allocating, touching, freeing)."""

    name: str
    start_ns: int
    end_ns: int

"""What the coded numbers of an Nsight Systems export mean: its ENUM_* tables, else the known values.

Newer exports explain each coded column in a table of its own (``ENUM_CUDA_MEMCPY_OPER`` with
``id``, ``name`` and ``label``), and the reader goes by those names, whatever the numbers.
Older exports have no such tables; for them the numbering below is used. It is the one the
ENUM tables of Nsight Systems 2024.6, 2025.5 and 2026.1 give (the same in all three: the
exports in tests/data/nsys), and the 2021 export there, which has no ENUM tables, agrees:
its ``cudaMemcpy`` calls from pageable memory are copy kind 1 from memory kind 0 to 2.

Nsight numbers memory kinds its own way (0 pageable, 1 pinned, 2 device, ..., 7 unknown),
**not** as CUPTI does (1 pageable, 2 pinned, 3 device).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from overlapviz.importers.activity import CopyKind, HostMemory
from overlapviz.importers.untrusted_sqlite import Column, UntrustedDatabase

_Meaning = TypeVar("_Meaning")


@dataclass(frozen=True)
class Enum:
    """One coded column's table, and its numbering in exports without the table."""

    table: str
    known: Mapping[int, str]


MEMCPY_OPER = Enum(
    "ENUM_CUDA_MEMCPY_OPER",
    {
        0: "CUDA_MEMCPY_KIND_UNKNOWN", 1: "CUDA_MEMCPY_KIND_HTOD", 2: "CUDA_MEMCPY_KIND_DTOH",
        3: "CUDA_MEMCPY_KIND_HTOA", 4: "CUDA_MEMCPY_KIND_ATOH", 5: "CUDA_MEMCPY_KIND_ATOA",
        6: "CUDA_MEMCPY_KIND_ATOD", 7: "CUDA_MEMCPY_KIND_DTOA", 8: "CUDA_MEMCPY_KIND_DTOD",
        9: "CUDA_MEMCPY_KIND_HTOH", 10: "CUDA_MEMCPY_KIND_PTOP", 11: "CUDA_MEMCPY_KIND_UVM_HTOD",
        12: "CUDA_MEMCPY_KIND_UVM_DTOH", 13: "CUDA_MEMCPY_KIND_UVM_DTOD",
    },
)  # fmt: skip
MEM_KIND = Enum(
    "ENUM_CUDA_MEM_KIND",
    {
        0: "CUDA_MEMOPR_MEMORY_KIND_PAGEABLE", 1: "CUDA_MEMOPR_MEMORY_KIND_PINNED",
        2: "CUDA_MEMOPR_MEMORY_KIND_DEVICE", 3: "CUDA_MEMOPR_MEMORY_KIND_ARRAY",
        4: "CUDA_MEMOPR_MEMORY_KIND_MANAGED", 5: "CUDA_MEMOPR_MEMORY_KIND_DEVICE_STATIC",
        6: "CUDA_MEMOPR_MEMORY_KIND_MANAGED_STATIC", 7: "CUDA_MEMOPR_MEMORY_KIND_UNKNOWN",
    },
)  # fmt: skip
EVENT_CLASS = Enum(
    "ENUM_NSYS_EVENT_CLASS", {0: "TRACE_PROCESS_EVENT_CUDA_RUNTIME", 1: "TRACE_PROCESS_EVENT_CUDA_DRIVER"}
)
SYNC_TYPE = Enum(
    "ENUM_CUPTI_SYNC_TYPE",
    {
        0: "CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_UNKNOWN", 1: "CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE",
        2: "CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT",
        3: "CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE",
        4: "CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE",
    },
)  # fmt: skip
# Only the NVTX range types: the reader keeps ranges, not marks or the other event types.
EVENT_TYPE = Enum(
    "ENUM_NSYS_EVENT_TYPE",
    {59: "NvtxPushPopRange", 60: "NvtxStartEndRange", 70: "NvtxtPushPopRange", 71: "NvtxtStartEndRange"},
)

# How each stream was created: the legacy default stream is the "NULL" one.
STREAM_TYPE = Enum(
    "ENUM_CUPTI_STREAM_TYPE",
    {
        0: "CUPTI_ACTIVITY_STREAM_CREATE_FLAG_UNKNOWN", 1: "CUPTI_ACTIVITY_STREAM_CREATE_FLAG_DEFAULT",
        2: "CUPTI_ACTIVITY_STREAM_CREATE_FLAG_NON_BLOCKING", 3: "CUPTI_ACTIVITY_STREAM_CREATE_FLAG_NULL",
    },
)  # fmt: skip

DRIVER_CLASS = "TRACE_PROCESS_EVENT_CUDA_DRIVER"
NULL_STREAM_TYPE = "CUPTI_ACTIVITY_STREAM_CREATE_FLAG_NULL"
_RANGE_TYPE_ENDINGS = ("PushPopRange", "StartEndRange")
# A copy kind's name after ``..._KIND_``: what it is here, and the word Kineto's names use for it.
_COPY_KINDS = {
    "HTOD": (CopyKind.H2D, "HtoD"), "HTOA": (CopyKind.H2D, "HtoA"),
    "DTOH": (CopyKind.D2H, "DtoH"), "ATOH": (CopyKind.D2H, "AtoH"),
    "DTOD": (CopyKind.D2D, "DtoD"), "DTOA": (CopyKind.D2D, "DtoA"), "ATOD": (CopyKind.D2D, "AtoD"),
    "ATOA": (CopyKind.D2D, "AtoA"), "HTOH": (CopyKind.H2H, "HtoH"), "PTOP": (CopyKind.PEER, "PtoP"),
    "UVM_HTOD": (CopyKind.UVM_H2D, "HtoD"), "UVM_DTOH": (CopyKind.UVM_D2H, "DtoH"),
    "UVM_DTOD": (CopyKind.UVM_D2D, "DtoD"),
}  # fmt: skip
UNIFIED = frozenset({CopyKind.UVM_H2D, CopyKind.UVM_D2H, CopyKind.UVM_D2D})
_MEMORY = {
    "PAGEABLE": (HostMemory.PAGEABLE, "Pageable"), "PINNED": (HostMemory.PINNED, "Pinned"),
    "DEVICE": (HostMemory.DEVICE, "Device"), "DEVICE_STATIC": (HostMemory.DEVICE, "Device Static"),
    "ARRAY": (HostMemory.DEVICE, "Array"), "MANAGED": (HostMemory.MANAGED, "Managed"),
    "MANAGED_STATIC": (HostMemory.MANAGED, "Managed Static"),
}  # fmt: skip
_SYNC_WORDS = {
    "EVENT_SYNCHRONIZE": "Event synchronize",
    "STREAM_WAIT_EVENT": "Stream wait event",
    "STREAM_SYNCHRONIZE": "Stream synchronize",
    "CONTEXT_SYNCHRONIZE": "Context synchronize",
}
UNKNOWN_WORD = "Unknown"


def meanings(database: UntrustedDatabase, enum: Enum) -> dict[int, str]:
    """The name of each code: from the export's table where it has one, else the known numbering."""
    if enum.table not in database.tables:
        return dict(enum.known)
    return {int(code): str(name) for code, name in database.rows(enum.table, [Column("id"), Column("name", "text")])}


def copy_kind(name: str | None) -> tuple[CopyKind, str]:
    """A copy kind's meaning and word; unknown for a name not listed."""
    return _COPY_KINDS.get(_after(name, "KIND_"), (CopyKind.UNKNOWN, UNKNOWN_WORD))


def memory(name: str | None) -> tuple[HostMemory, str]:
    """A memory kind's meaning and word; unknown for a name not listed."""
    return _MEMORY.get(_after(name, "KIND_"), (HostMemory.UNKNOWN, UNKNOWN_WORD))


def sync_words(name: str | None) -> str:
    """What a synchronisation type is called here."""
    return _SYNC_WORDS.get(_after(name, "TYPE_"), "Synchronization")


def is_range_type(name: str) -> bool:
    """Whether an event type is an NVTX range (push/pop or start/end), as against a mark or other."""
    return name.endswith(_RANGE_TYPE_ENDINGS)


def translate(
    codes: npt.NDArray[np.int64], names: Mapping[int, str], meaning: Callable[[str | None], _Meaning]
) -> tuple[npt.NDArray[np.intp], list[_Meaning]]:
    """Each row's code, as an index into the meanings of the distinct codes.

    A code the names do not list means what ``meaning(None)`` says. The work is per
    distinct code, not per row.
    """
    distinct, per_row = np.unique(codes, return_inverse=True)
    return per_row.reshape(codes.shape), [meaning(names.get(int(code))) for code in distinct]


def _after(name: str | None, marker: str) -> str:
    """The part of an enum name after `marker` (``CUDA_MEMCPY_KIND_HTOD`` -> ``HTOD``)."""
    if name is None:
        return ""
    head, found, tail = name.partition(marker)
    return tail if found else head

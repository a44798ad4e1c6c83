"""What a CUPTI recording of the user's own code collected, as `Activities` (pure: fake records test it).

It lives above both the importers and the CuPy backend because it joins the two: the
backend collects the records (`overlapviz.backends.cupy.cupti_recording`), and from here on they
take the road every other tool's trace takes (`activities_to_trace`, then the analysis).
Copies are named as PyTorch's profiler names the same CUPTI records, so that a recording
and a torch.profiler trace of one program read alike.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from overlapviz.backends.cupy.cupti_recording import TOOL, Recorded
from overlapviz.backends.cupy.cupti_records import CuptiMemory
from overlapviz.backends.cupy.cupti_trace import api_name
from overlapviz.core.trace.spans import OpKind
from overlapviz.importers.activity import Activities, ActivityKind, CopyKind, HostMemory, empty_columns

_COPY_KINDS = {OpKind.H2D: CopyKind.H2D, OpKind.D2H: CopyKind.D2H}
_COPY_WORDS = {CopyKind.H2D: "HtoD", CopyKind.D2H: "DtoH"}
_MEMORY = {
    int(CuptiMemory.PAGEABLE): HostMemory.PAGEABLE,
    int(CuptiMemory.PINNED): HostMemory.PINNED,
    int(CuptiMemory.DEVICE): HostMemory.DEVICE,
}
_MEMORY_WORDS = {
    HostMemory.PAGEABLE: "Pageable",
    HostMemory.PINNED: "Pinned",
    HostMemory.DEVICE: "Device",
    HostMemory.UNKNOWN: "Unknown",
}


def recorded_activities(recorded: Recorded, source: str) -> Activities:
    """The copies, kernels and API calls of `recorded` as one row each; `source` names what ran."""
    names: dict[str, int] = {}
    columns = empty_columns(len(recorded.devices) + len(recorded.apis))
    for row, op in enumerate(recorded.devices):
        _set(
            columns,
            row,
            start_ns=op.start_ns,
            end_ns=op.end_ns,
            device=recorded.device,
            stream=op.stream_id,
            correlation=op.correlation_id,
        )
        if op.kind is OpKind.KERNEL:
            _set(columns, row, kind=ActivityKind.KERNEL, name=_index(names, op.name or "kernel"))
            continue
        copy_kind = _COPY_KINDS[op.kind]
        src, dst = _memory(op.src_kind), _memory(op.dst_kind)
        title = f"Memcpy {_COPY_WORDS[copy_kind]} ({_MEMORY_WORDS[src]} -> {_MEMORY_WORDS[dst]})"
        _set(
            columns,
            row,
            kind=ActivityKind.MEMCPY,
            bytes=op.nbytes,
            copy_kind=copy_kind,
            src_memory=src,
            dst_memory=dst,
            name=_index(names, title),
        )
    for row, call in enumerate(recorded.apis, start=len(recorded.devices)):
        _set(
            columns,
            row,
            kind=ActivityKind.RUNTIME if call.runtime else ActivityKind.DRIVER,
            start_ns=call.start_ns,
            end_ns=call.end_ns,
            thread=call.thread_id,
            correlation=call.correlation_id,
            name=_index(names, api_name(call.name)),
        )
    meta: dict[str, Any] = {
        "tool": TOOL,
        "recorded": recorded.recorded,
        "devices": {recorded.device: recorded.device_name},
        "source": source,
        "caveat": recorded.caveat,
    }
    return Activities(columns, tuple(names), meta)


def _memory(cupti_kind: int) -> HostMemory:
    return _MEMORY.get(cupti_kind, HostMemory.UNKNOWN)


def _index(names: dict[str, int], name: str) -> int:
    return names.setdefault(name, len(names))


def _set(columns: dict[str, np.ndarray[Any, Any]], row: int, **values: int) -> None:
    for column, value in values.items():
        columns[column][row] = int(value)

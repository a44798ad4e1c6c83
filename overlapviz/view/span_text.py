"""What the hover tooltip says about one span."""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from overlapviz.core.trace.communication import communication_rule
from overlapviz.core.trace.spans import MemoryKind, OpKind, Trace, Unit
from overlapviz.view.formatting import format_bandwidth, format_bytes, format_duration

KIND_TITLES = {
    OpKind.H2D: "H2D copy", OpKind.KERNEL: "Kernel", OpKind.D2H: "D2H copy", OpKind.API: "Host API call",
    OpKind.MEMSET: "Memset", OpKind.D2D: "D2D copy", OpKind.PEER: "Peer copy",
    OpKind.MIGRATION: "Unified-memory migration", OpKind.ANNOTATION: "Range", OpKind.PREFETCH: "Prefetch",
    OpKind.HOST_COPY: "Host copy", OpKind.COMMUNICATION: "Communication",
}  # fmt: skip
_KIND_NOTES = {
    OpKind.MIGRATION: "Moved by the driver (unified memory), not a copy the program issued",
    OpKind.PREFETCH: "Managed pages moved by cudaMemPrefetchAsync: on a copy engine, not counted as copy bytes",
    OpKind.HOST_COPY: "The host thread's own memcpy into or out of a pinned staging slot",
}
_KERNELS = (OpKind.KERNEL, OpKind.COMMUNICATION)  # ran on the SMs: no copy bytes of their own
HOST_SIDED = (OpKind.H2D, OpKind.D2H)  # the kinds whose host memory is worth a line even when not known


def describe_span(
    trace: Trace,
    row: int,
    *,
    waiting: bool = False,
    bandwidth_gbps: npt.NDArray[np.float64] | None = None,
    blocked_ns: npt.NDArray[np.int64] | None = None,
) -> str:
    """Plain lines: kind, stream, chunk, bytes, duration, bandwidth, memory, time waited."""
    span = trace.row(row)
    kind = OpKind(span["kind"])
    if kind is OpKind.API:
        return "\n".join(_host_lines(trace, span, 0 if blocked_ns is None else int(blocked_ns[row])))
    if kind is OpKind.ANNOTATION:
        return "\n".join(_range_lines(span))
    lines = [f"{KIND_TITLES[kind]}: {span['name']}" + (" (waiting)" if waiting else "")]
    lines.append(_place_line(span))
    lines.append(f"Duration {format_duration(span['end_ns'] - span['start_ns'])}")
    if kind is OpKind.COMMUNICATION:
        lines.append(communication_rule(span["name"]))
    if kind not in _KERNELS:
        lines.append(f"Bytes {format_bytes(span['bytes'])}")
        bandwidth = math.nan if bandwidth_gbps is None else float(bandwidth_gbps[row])
        if kind in _RATE_OF_OWN and math.isnan(bandwidth):
            bandwidth = _rate_gbps(span)
        lines.append(f"Bandwidth {format_bandwidth(bandwidth)}")
    elif span["bytes"] > 0:  # a kernel reaching host memory itself (mapped, managed)
        lines.append(f"Over the link {format_bytes(span['bytes'])} at {format_bandwidth(_rate_gbps(span))}")
    if kind in HOST_SIDED or span["memory"] != MemoryKind.NONE:
        lines.append(f"Host memory {MemoryKind(span['memory']).label}")
    if kind in _KIND_NOTES:
        lines.append(_KIND_NOTES[kind])
    lines.append(_waited_line(span))
    lines.append(f"Ran {format_duration(span['start_ns'])} \u2192 {format_duration(span['end_ns'])}")
    return "\n".join(lines)


_RATE_OF_OWN = (OpKind.PREFETCH, OpKind.HOST_COPY)  # no copy bandwidth of the metrics: their own rate


def _rate_gbps(span: dict[str, int]) -> float:
    """Bytes over duration, GB/s (NaN for an instant span)."""
    duration = span["end_ns"] - span["start_ns"]
    return span["bytes"] / duration if duration > 0 else math.nan


def _place_line(span: dict[str, int]) -> str:
    """Where a device op ran: its stream and chunk where it has them (its lane names its GPU)."""
    parts = ["Host thread"] if span["unit"] == Unit.HOST else []  # its own copy (a staging ring's)
    if span["stream"] >= 0:
        parts.append(f"Stream {span['stream']}")
    if span["chunk"] >= 0 or span["stream"] >= 0:
        parts.append(f"chunk {span['chunk']}" if span["chunk"] >= 0 else "no chunk")
    return ", ".join(parts) if parts else "No stream"


def _range_lines(span: dict[str, int]) -> list[str]:
    lines = [f"{KIND_TITLES[OpKind.ANNOTATION]}: {span['name']}"]
    if span["thread"] >= 0:
        lines.append(f"Host thread {span['thread']}")
    lines.append(f"Duration {format_duration(span['end_ns'] - span['start_ns'])}")
    lines.append(f"From {format_duration(span['start_ns'])} \u2192 {format_duration(span['end_ns'])}")
    return lines


def _waited_line(span: dict[str, int]) -> str:
    if span["ready_ns"] < 0:
        return "Waited: not recorded"
    return f"Waited {format_duration(span['start_ns'] - span['ready_ns'])} (ready \u2192 start)"


def _host_lines(trace: Trace, span: dict[str, int], blocked: int) -> list[str]:
    lines = [
        f"{KIND_TITLES[OpKind.API]}: {span['name']}",
        f"Duration {format_duration(span['end_ns'] - span['start_ns'])}",
    ]
    if blocked > 0:
        lines.append(f"Host blocked {format_duration(blocked)} while its op ran")
    if span["op"] >= 0:
        op = trace.row(span["op"])
        lines.append(f"Issued {KIND_TITLES[OpKind(op['kind'])]} of chunk {op['chunk']} on stream {op['stream']}")
    lines.append(f"Called {format_duration(span['start_ns'])} \u2192 {format_duration(span['end_ns'])}")
    return lines

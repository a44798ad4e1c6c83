"""What the hover tooltip says about one span."""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from overlapviz.core.i18n import N_, _, pgettext
from overlapviz.core.trace.communication import communication_rule
from overlapviz.core.trace.spans import MemoryKind, OpKind, Trace, Unit
from overlapviz.view.formatting import format_bandwidth, format_bytes, format_duration

# Each kind's title and note, said with `_` where a tooltip shows them
KIND_TITLES = {
    OpKind.H2D: N_("H2D copy"), OpKind.KERNEL: N_("Kernel"), OpKind.D2H: N_("D2H copy"),
    OpKind.API: N_("Host API call"), OpKind.MEMSET: N_("Memset"), OpKind.D2D: N_("D2D copy"),
    OpKind.PEER: N_("Peer copy"), OpKind.MIGRATION: N_("Unified-memory migration"), OpKind.ANNOTATION: N_("Range"),
    OpKind.PREFETCH: N_("Prefetch"), OpKind.HOST_COPY: N_("Host copy"), OpKind.COMMUNICATION: N_("Communication"),
}  # fmt: skip
_KIND_NOTES = {
    OpKind.MIGRATION: N_("Moved by the driver (unified memory), not a copy the program issued"),
    OpKind.PREFETCH: N_("Managed pages moved by cudaMemPrefetchAsync: on a copy engine, not counted as copy bytes"),
    OpKind.HOST_COPY: N_("The host thread's own memcpy into or out of a pinned staging slot"),
}
# The host memory a copy reached, as the tooltip's "Host memory ..." line names it
MEMORY_WORDS = {
    MemoryKind.NONE: N_("none"), MemoryKind.PAGEABLE: N_("pageable"), MemoryKind.PINNED: N_("pinned"),
    MemoryKind.REGISTERED: N_("registered"), MemoryKind.WRITE_COMBINED: N_("write-combined"),
    MemoryKind.MAPPED: N_("mapped"), MemoryKind.MANAGED: N_("managed"),
}  # fmt: skip
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
    said = _("{kind}: {name} (waiting)") if waiting else _("{kind}: {name}")
    lines = [said.format(kind=_(KIND_TITLES[kind]), name=span["name"])]
    lines.append(_place_line(span))
    lines.append(_duration_line(span))
    if kind is OpKind.COMMUNICATION:
        lines.append(communication_rule(span["name"]))
    if kind not in _KERNELS:
        lines.append(_("Bytes {size}").format(size=format_bytes(span["bytes"])))
        bandwidth = math.nan if bandwidth_gbps is None else float(bandwidth_gbps[row])
        if kind in _RATE_OF_OWN and math.isnan(bandwidth):
            bandwidth = _rate_gbps(span)
        lines.append(_("Bandwidth {rate}").format(rate=format_bandwidth(bandwidth)))
    elif span["bytes"] > 0:  # a kernel reaching host memory itself (mapped, managed)
        lines.append(
            _("Over the link {size} at {rate}").format(
                size=format_bytes(span["bytes"]), rate=format_bandwidth(_rate_gbps(span))
            )
        )
    if kind in HOST_SIDED or span["memory"] != MemoryKind.NONE:
        lines.append(_("Host memory {memory}").format(memory=_(MEMORY_WORDS[MemoryKind(span["memory"])])))
    if kind in _KIND_NOTES:
        lines.append(_(_KIND_NOTES[kind]))
    lines.append(_waited_line(span))
    lines.append(_("Ran {start} \u2192 {end}").format(**_ends(span)))
    return "\n".join(lines)


_RATE_OF_OWN = (OpKind.PREFETCH, OpKind.HOST_COPY)  # no copy bandwidth of the metrics: their own rate


def _rate_gbps(span: dict[str, int]) -> float:
    """Bytes over duration, GB/s (NaN for an instant span)."""
    duration = span["end_ns"] - span["start_ns"]
    return span["bytes"] / duration if duration > 0 else math.nan


def _place_line(span: dict[str, int]) -> str:
    """Where a device op ran: its stream and chunk where it has them (its lane names its GPU)."""
    parts = [_("Host thread")] if span["unit"] == Unit.HOST else []  # its own copy (a staging ring's)
    if span["stream"] >= 0:
        parts.append(_("Stream {stream}").format(stream=span["stream"]))
    if span["chunk"] >= 0 or span["stream"] >= 0:
        parts.append(_("chunk {chunk}").format(chunk=span["chunk"]) if span["chunk"] >= 0 else _("no chunk"))
    return pgettext("list", ", ").join(parts) if parts else _("No stream")


def _duration_line(span: dict[str, int]) -> str:
    return _("Duration {duration}").format(duration=format_duration(span["end_ns"] - span["start_ns"]))


def _ends(span: dict[str, int]) -> dict[str, str]:
    """The span's start and end as the tooltip writes them."""
    return {"start": format_duration(span["start_ns"]), "end": format_duration(span["end_ns"])}


def _range_lines(span: dict[str, int]) -> list[str]:
    lines = [_("{kind}: {name}").format(kind=_(KIND_TITLES[OpKind.ANNOTATION]), name=span["name"])]
    if span["thread"] >= 0:
        lines.append(_("Host thread {thread}").format(thread=span["thread"]))
    lines.append(_duration_line(span))
    lines.append(_("From {start} \u2192 {end}").format(**_ends(span)))
    return lines


def _waited_line(span: dict[str, int]) -> str:
    if span["ready_ns"] < 0:
        return _("Waited: not recorded")
    return _("Waited {duration} (ready \u2192 start)").format(
        duration=format_duration(span["start_ns"] - span["ready_ns"])
    )


def _host_lines(trace: Trace, span: dict[str, int], blocked: int) -> list[str]:
    lines = [_("{kind}: {name}").format(kind=_(KIND_TITLES[OpKind.API]), name=span["name"]), _duration_line(span)]
    if blocked > 0:
        lines.append(_("Host blocked {duration} while its op ran").format(duration=format_duration(blocked)))
    if span["op"] >= 0:
        op = trace.row(span["op"])
        lines.append(
            _("Issued {kind} of chunk {chunk} on stream {stream}").format(
                kind=_(KIND_TITLES[OpKind(op["kind"])]), chunk=op["chunk"], stream=op["stream"]
            )
        )
    lines.append(_("Called {start} \u2192 {end}").format(**_ends(span)))
    return lines

"""Which lanes a trace is drawn in, and which spans each lane shows.

A lane is a descriptor (key, title, group); drawing it is the view's business. In order:

- the host: one lane per host thread, with its API calls (a trace of one thread has the one
  lane ``host``, whatever its thread id);
- the annotations: one lane of the named ranges (NVTX, ``record_function``,
  ``ProfilerStep#N``), where the trace has any;
- per GPU, its group: a lane per stream present, then one per hardware unit present (H2D
  engine, compute, D2H engine, then communication (NCCL / RCCL), peer / D2D copies, memsets,
  unified memory).

Each device op appears twice: in its stream's lane and in its unit's lane. A trace of one GPU
keeps the keys and titles it always had (``stream-0``, ``Stream 0``, ``unit-compute``); with
several GPUs each lane says its GPU (``gpu1-stream-0``, ``GPU 1: Stream 0``) and carries it
in `Lane.device`, so a view can band the lanes of each GPU together.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

import numpy as np
import numpy.typing as npt

from overlapviz.core.i18n import N_, _
from overlapviz.core.trace.answer_cache import kept_per_trace
from overlapviz.core.trace.frozen_columns import few_distinct
from overlapviz.core.trace.meta import TraceMeta
from overlapviz.core.trace.spans import HOST_KINDS, OpKind, Trace, Unit

# Hardware lanes in the order data flows through them; the single copy engine of a device
# that copies one direction at a time sits where the H2D engine would. Work that is not the
# pipeline's (communication between GPUs, copies within and between GPUs, memsets, page
# migrations) comes after; communication first, beside the compute it is weighed against.
UNIT_ORDER = (
    Unit.H2D_ENGINE, Unit.COPY_ENGINE, Unit.COMPUTE, Unit.D2H_ENGINE, Unit.COMMUNICATION, Unit.DEVICE_COPY,
    Unit.MEMSET, Unit.MIGRATION,
)  # fmt: skip
ANNOTATION_TITLE = N_("Annotations")
LEGACY_STREAM_TITLE = N_("Legacy default stream")
MAX_TABLE = 1 << 20  # values this close together are told apart by a table, not by sorting them all
LEGACY_STREAMS_META = "legacy_streams"  # the stream indices a file names as the legacy default stream


class LaneGroup(StrEnum):
    """The band of the timeline a lane belongs to (in the order the bands are drawn)."""

    HOST = "host"
    ANNOTATIONS = "annotations"
    STREAMS = "streams"
    HARDWARE = "hardware"


@dataclass(frozen=True, slots=True)
class Lane:
    """One row of the timeline: what it is called and which spans it selects.

    `device` and `thread` narrow the lane to one GPU or host thread; None takes every one
    (a trace of one GPU and one thread). `streams` is set on a lane that stands for several
    quiet streams at once (see `overlapviz.core.analysis.many_streams`), whose `stream` is None.
    """

    key: str
    title: str
    group: LaneGroup
    unit: Unit | None
    stream: int | None
    device: int | None = None
    thread: int | None = None
    streams: tuple[int, ...] = ()


def host_lane() -> Lane:
    """The one host lane of a trace of one host thread (titled in the active language, hence made when asked)."""
    return Lane(key="host", title=Unit.HOST.title, group=LaneGroup.HOST, unit=Unit.HOST, stream=None)


def annotation_lane() -> Lane:
    """The lane of the named ranges (titled in the active language, hence made when asked)."""
    return Lane(key="annotations", title=_(ANNOTATION_TITLE), group=LaneGroup.ANNOTATIONS, unit=None, stream=None)


def lanes_of(trace: Trace) -> list[Lane]:
    """List the host lanes, the annotation lane, then each GPU's stream and hardware lanes."""
    devices = gpus_of(trace)
    several = len(devices) > 1
    lanes = [*_host_lanes(trace), *_annotation_lanes(trace)]
    for device in devices:
        lanes += _gpu_lanes(trace, device if several else None)
    return lanes


@kept_per_trace
def gpus_of(trace: Trace) -> tuple[int, ...]:
    """The GPUs that ran the trace's device ops, by index (kept: tens of ms at 10^6 spans, asked often)."""
    return tuple(int(d) for d in few_distinct(trace["device"][trace.device_mask]))


def lane_rows(trace: Trace, lane: Lane) -> npt.NDArray[np.intp]:
    """Row indices of the spans drawn in `lane`, sorted by start time."""
    rows = np.flatnonzero(_selects(trace, lane))
    return rows[np.argsort(trace["start_ns"][rows], kind="stable")]


def _selects(trace: Trace, lane: Lane) -> npt.NDArray[np.bool_]:
    if lane.group in (LaneGroup.HOST, LaneGroup.ANNOTATIONS):
        kinds = HOST_KINDS if lane.group is LaneGroup.HOST else (OpKind.ANNOTATION,)
        selected: npt.NDArray[np.bool_] = trace.mask(*kinds)
        return selected if lane.thread is None else selected & (trace["thread"] == lane.thread)
    selected = trace.device_mask.copy()
    if lane.device is not None:
        selected = selected & (trace["device"] == lane.device)
    if lane.group is LaneGroup.STREAMS:
        selected &= np.isin(trace["stream"], lane.streams) if lane.streams else trace["stream"] == lane.stream
    else:
        selected &= trace["unit"] == (-1 if lane.unit is None else int(lane.unit))
    return selected


def _host_lanes(trace: Trace) -> list[Lane]:
    """One lane per host thread that made calls, in the order each first called; one for one thread."""
    calls = np.flatnonzero(trace.mask(*HOST_KINDS))
    threads = _in_order_of_first(trace["thread"][calls], trace["start_ns"][calls])
    if len(threads) <= 1:
        return [host_lane()]
    return [
        Lane(key=f"host-{t}", title=_("Host thread {thread}").format(thread=t if t >= 0 else _("(unknown)")),
             group=LaneGroup.HOST, unit=Unit.HOST, stream=None, thread=t)
        for t in threads
    ]  # fmt: skip


def _annotation_lanes(trace: Trace) -> list[Lane]:
    return [annotation_lane()] if trace.mask(OpKind.ANNOTATION).any() else []


def _gpu_lanes(trace: Trace, device: int | None) -> list[Lane]:
    """One GPU's stream lanes, then its unit lanes; `device` None for the one GPU of a trace."""
    ops = trace.device_mask if device is None else trace.device_mask & (trace["device"] == device)
    streams = few_distinct(trace["stream"][ops])
    units = set(few_distinct(trace["unit"][ops]).tolist())
    stream_lanes = [stream_lane(int(s), device, is_legacy_stream(trace.meta, int(s))) for s in streams if s >= 0]
    unit_lanes = [_unit_lane(unit, device) for unit in UNIT_ORDER if int(unit) in units]
    return [*stream_lanes, *unit_lanes]


def stream_lane(stream: int, device: int | None, legacy: bool = False) -> Lane:
    """The lane of one stream (`device` None for the one GPU of a trace)."""
    title = _(LEGACY_STREAM_TITLE) if legacy else _("Stream {stream}").format(stream=stream)
    return Lane(
        key=_on_gpu_key(f"stream-{stream}", device), title=_on_gpu_title(title, device), group=LaneGroup.STREAMS,
        unit=None, stream=stream, device=device,
    )  # fmt: skip


def _unit_lane(unit: Unit, device: int | None) -> Lane:
    key = "unit-" + unit.name.lower().replace("_", "-")
    return Lane(
        key=_on_gpu_key(key, device), title=_on_gpu_title(unit.title, device), group=LaneGroup.HARDWARE, unit=unit,
        stream=None, device=device,
    )  # fmt: skip


def _on_gpu_key(key: str, device: int | None) -> str:
    return key if device is None else f"gpu{device}-{key}"


def _on_gpu_title(title: str, device: int | None) -> str:
    return title if device is None else f"GPU {device}: {title}"


def is_legacy_stream(meta: TraceMeta, stream: int) -> bool:
    """Whether a stream is the legacy default stream: every one of a legacy pipeline run, else those the file names."""
    config = meta.config
    if config is not None and config.get("stream_kind") == "legacy":
        return True
    return stream in meta.legacy_streams


def _in_order_of_first(values: npt.NDArray[np.int64], times: npt.NDArray[np.int64]) -> list[int]:
    """The distinct `values`, ordered by the earliest time each has (of two at once, the lower value first)."""
    counted = _counted(values)
    if counted is None:
        present, inverse = np.unique(values, return_inverse=True)
    else:
        low, counts = counted
        present = np.flatnonzero(counts) + low
        inverse = (np.cumsum(counts > 0) - 1)[values - low]  # each value's place among those present
    first = np.full(present.size, np.iinfo(np.int64).max, dtype=np.int64)
    np.minimum.at(first, inverse.reshape(-1), times)
    return [int(present[i]) for i in np.argsort(first, kind="stable")]


def _counted(values: npt.NDArray[np.integer]) -> tuple[int, npt.NDArray[np.intp]] | None:
    """How many times each value comes, by its distance from the lowest (and that lowest); None if they lie far apart.

    Values that lie close together (streams, units, threads numbered from 0) are counted in a
    table, which reads them twice instead of sorting them all: tens of ms at 10^7 spans.
    """
    low, high = (int(values.min()), int(values.max())) if len(values) else (0, 0)
    if high - low >= MAX_TABLE:
        return None
    offsets = values.astype(np.intp)
    offsets -= low
    return low, np.bincount(offsets, minlength=high - low + 1)

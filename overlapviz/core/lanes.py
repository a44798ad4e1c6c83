"""Which lanes a trace is drawn in, and which spans each lane shows.

A lane is a descriptor (key, title, group); drawing it is the view's business. The host
thread has one lane, every stream present has one, and every hardware unit present has one,
so each device op appears twice: in its stream's lane and in its unit's lane.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import numpy as np
import numpy.typing as npt

from overlapviz.core.trace import HOST_KINDS, Trace, Unit

# Hardware lanes in the order data flows through them; the single copy engine of a device
# that copies one direction at a time sits where the H2D engine would.
UNIT_ORDER = (Unit.H2D_ENGINE, Unit.COPY_ENGINE, Unit.COMPUTE, Unit.D2H_ENGINE)


class LaneGroup(StrEnum):
    """The band of the timeline a lane belongs to."""

    HOST = "host"
    STREAMS = "streams"
    HARDWARE = "hardware"


@dataclass(frozen=True, slots=True)
class Lane:
    """One row of the timeline: what it is called and which spans it selects."""

    key: str
    title: str
    group: LaneGroup
    unit: Unit | None
    stream: int | None


HOST_LANE = Lane(key="host", title=Unit.HOST.title, group=LaneGroup.HOST, unit=Unit.HOST, stream=None)


def lanes_of(trace: Trace) -> list[Lane]:
    """List the host lane, then one lane per stream present, then one per hardware unit."""
    device = trace.device_mask
    streams = np.unique(trace["stream"][device])
    units = set(np.unique(trace["unit"][device]).tolist())
    legacy = _is_legacy(trace.meta)
    stream_lanes = [_stream_lane(int(s), legacy) for s in streams if s >= 0]
    unit_lanes = [_unit_lane(unit) for unit in UNIT_ORDER if int(unit) in units]
    return [HOST_LANE, *stream_lanes, *unit_lanes]


def lane_rows(trace: Trace, lane: Lane) -> npt.NDArray[np.intp]:
    """Row indices of the spans drawn in `lane`, sorted by start time."""
    if lane.group is LaneGroup.HOST:
        selected = trace.mask(*HOST_KINDS)
    elif lane.group is LaneGroup.STREAMS:
        selected = trace.device_mask & (trace["stream"] == lane.stream)
    else:
        selected = trace.device_mask & (trace["unit"] == (-1 if lane.unit is None else int(lane.unit)))
    rows = np.flatnonzero(selected)
    return rows[np.argsort(trace["start_ns"][rows], kind="stable")]


def _stream_lane(stream: int, legacy: bool) -> Lane:
    title = "Legacy default stream" if legacy else f"Stream {stream}"
    return Lane(key=f"stream-{stream}", title=title, group=LaneGroup.STREAMS, unit=None, stream=stream)


def _unit_lane(unit: Unit) -> Lane:
    key = "unit-" + unit.name.lower().replace("_", "-")
    return Lane(key=key, title=unit.title, group=LaneGroup.HARDWARE, unit=unit, stream=None)


def _is_legacy(meta: dict[str, Any]) -> bool:
    config = meta.get("config")
    return isinstance(config, dict) and config.get("stream_kind") == "legacy"

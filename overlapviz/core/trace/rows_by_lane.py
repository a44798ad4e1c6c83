"""The rows of many lanes at once: each group's spans picked once and told apart by a small table.

`lanes.lane_rows` reads every column whole for one lane; a trace of 10^7 spans in twenty lanes
would be read twenty times over. Here the spans a group of lanes can show (host calls,
annotation ranges, device ops) are picked once, each is given the one lane of the group that
selects it by a small table of (device, stream, unit or thread) values, and each lane's rows
are those of its number. The rows are exactly those `lane_rows` gives, in its
order; lanes this cannot tell apart by a table (two lanes of a group selecting one span, or
values too far apart for a table) are found lane by lane as before. Pure: no Qt here.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from overlapviz.core.trace.lanes import Lane, LaneGroup, lane_rows
from overlapviz.core.trace.spans import HOST_KINDS, OpKind, Trace

IntpArray = npt.NDArray[np.intp]
MAX_TABLE = 1 << 20  # (device, value) pairs a table may hold: 2 MB of lane numbers
NO_LANE = -1
VALUE_COLUMN = {LaneGroup.HOST: "thread", LaneGroup.ANNOTATIONS: "thread", LaneGroup.STREAMS: "stream",
                LaneGroup.HARDWARE: "unit"}  # fmt: skip


def rows_of_lanes(trace: Trace, lanes: Sequence[Lane]) -> list[IntpArray]:
    """`lanes.lane_rows(trace, lane)` for each of `lanes`, found a group at a time."""
    found: dict[int, IntpArray] = {}
    for group in LaneGroup:
        members = [index for index, lane in enumerate(lanes) if lane.group is group]
        if members:
            found.update(zip(members, _group_rows(trace, group, [lanes[i] for i in members]), strict=True))
    return [found[index] for index in range(len(lanes))]


def _group_rows(trace: Trace, group: LaneGroup, lanes: list[Lane]) -> list[IntpArray]:
    """The rows of `lanes`, all of `group`: one stable sort of the group's spans by lane, sliced."""
    candidates = np.flatnonzero(_group_mask(trace, group))
    if len(lanes) == 1 and _wanted_values(lanes[0]) is None and lanes[0].device is None:
        return [_by_start(trace, candidates)]  # the one lane of the group (one host thread's, say) takes them all
    keys = _lane_keys(trace, group, lanes, candidates)
    if keys is None:
        return [lane_rows(trace, lane) for lane in lanes]
    # one look at the small keys per lane: measured quicker than sorting them by lane, for up to tens of lanes
    return [_by_start(trace, candidates.take(np.flatnonzero(keys == i))) for i in range(len(lanes))]


def _group_mask(trace: Trace, group: LaneGroup) -> npt.NDArray[np.bool_]:
    if group is LaneGroup.HOST:
        return trace.mask(*HOST_KINDS)
    if group is LaneGroup.ANNOTATIONS:
        return trace.mask(OpKind.ANNOTATION)
    return trace.device_mask


def _lane_keys(
    trace: Trace, group: LaneGroup, lanes: list[Lane], candidates: IntpArray
) -> npt.NDArray[np.int16] | None:
    """Which of `lanes` (by position) selects each candidate, `NO_LANE` for none; None where a table cannot tell."""
    wanted = [_wanted_values(lane) for lane in lanes]
    devices = [lane.device for lane in lanes]
    if not len(candidates):
        return np.zeros(0, dtype=np.int16)
    values = trace[VALUE_COLUMN[group]].take(candidates)
    device = trace["device"].take(candidates) if any(d is not None for d in devices) else None
    v_low, v_span = _range(values)
    d_low, d_span = (0, 1) if device is None else _range(device)
    if v_span * d_span > MAX_TABLE:
        return None
    table = np.full((d_span, v_span), NO_LANE, dtype=np.int16)
    grid_devices = np.arange(d_low, d_low + d_span)
    for position, (values_wanted, lane_device) in enumerate(zip(wanted, devices, strict=True)):
        on_value = np.ones(v_span, bool) if values_wanted is None else _on_values(values_wanted, v_low, v_span)
        on_device = np.ones(d_span, bool) if lane_device is None else grid_devices == lane_device
        cells = on_device[:, None] & on_value[None, :]
        if (table[cells] != NO_LANE).any():
            return None  # two lanes select one span
        table[cells] = position
    code = values.astype(np.intp)
    code -= v_low
    if device is not None:
        code += (device.astype(np.intp) - d_low) * v_span
    keys: npt.NDArray[np.int16] = table.reshape(-1)[code]
    return keys


def _on_values(wanted: tuple[int, ...], low: int, span: int) -> npt.NDArray[np.bool_]:
    """Which of the values `low` .. `low + span - 1` are `wanted` (a lane's few, set by index, not searched)."""
    on = np.zeros(span, dtype=bool)
    on[[value - low for value in wanted if 0 <= value - low < span]] = True
    return on


def _wanted_values(lane: Lane) -> tuple[int, ...] | None:
    """The values of the group's column the lane selects (None: any), as `lanes._selects` reads them."""
    if lane.group in (LaneGroup.HOST, LaneGroup.ANNOTATIONS):
        return None if lane.thread is None else (lane.thread,)
    if lane.group is LaneGroup.STREAMS:
        return lane.streams if lane.streams else (() if lane.stream is None else (lane.stream,))
    return (NO_LANE if lane.unit is None else int(lane.unit),)


def _range(values: npt.NDArray[np.integer]) -> tuple[int, int]:
    low = int(values.min())
    return low, int(values.max()) - low + 1


def _by_start(trace: Trace, rows: IntpArray) -> IntpArray:
    """`rows` (ascending) sorted by start, stably; as they are where they already are."""
    starts = trace["start_ns"][rows]
    if len(rows) > 1 and bool((starts[1:] < starts[:-1]).any()):
        return rows[np.argsort(starts, kind="stable")]
    return rows

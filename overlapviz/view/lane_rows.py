"""The lanes of a trace with the rows each shows: found once per trace, read by every view part.

Finding a lane's rows scans the whole trace, so the lanes are found once, when a trace is
prepared for the timeline (see `prepared`), and the layout, the span sets, the hover index
and the callouts all read them from there. Pure: no Qt here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from overlapviz.core.trace.lanes import Lane, LaneGroup, lanes_of
from overlapviz.core.trace.rows_by_lane import rows_of_lanes
from overlapviz.core.trace.spans import Trace
from overlapviz.view.annotation_depth import split_by_depth


@dataclass(frozen=True, slots=True)
class LaneRows:
    """A lane and the trace rows it shows, sorted by start."""

    lane: Lane
    rows: npt.NDArray[np.intp]

    @property
    def key(self) -> str:
        """The lane's key."""
        return self.lane.key


def lanes_with_rows(trace: Trace, lanes: Iterable[Lane] | None = None) -> tuple[LaneRows, ...]:
    """Every lane of `trace` (host, annotations, streams, hardware; or `lanes`) with its rows.

    The annotation lane comes as one lane per depth of nesting (`annotation_depth`).
    """
    found: list[LaneRows] = []
    chosen = lanes_of(trace) if lanes is None else list(lanes)
    for lane, rows in zip(chosen, rows_of_lanes(trace, chosen), strict=True):
        parts = split_by_depth(trace, lane, rows) if lane.group is LaneGroup.ANNOTATIONS else [(lane, rows)]
        found += [LaneRows(each, each_rows) for each, each_rows in parts]
    return tuple(found)

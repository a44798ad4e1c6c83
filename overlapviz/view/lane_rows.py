"""The lanes of a trace with the rows each shows: found once per trace, read by every view part.

Finding a lane's rows scans the whole trace, so the lanes are found once, when a trace is
prepared for the timeline (see `prepared`), and the layout, the span sets, the hover index
and the callouts all read them from there. Pure: no Qt here.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from overlapviz.core.lanes import Lane, lane_rows, lanes_of
from overlapviz.core.trace import Trace


@dataclass(frozen=True, slots=True)
class LaneRows:
    """A lane and the trace rows it shows, sorted by start."""

    lane: Lane
    rows: npt.NDArray[np.intp]

    @property
    def key(self) -> str:
        """The lane's key."""
        return self.lane.key


def lanes_with_rows(trace: Trace) -> tuple[LaneRows, ...]:
    """Every lane of `trace` (host, streams, hardware) with its rows."""
    return tuple(LaneRows(lane, lane_rows(trace, lane)) for lane in lanes_of(trace))

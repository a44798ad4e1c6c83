"""Which stream lanes to show when a GPU has many: a text they must mention, the quiet ones folded.

The filter is a value a prepared view keeps (`PreparedView.stream_filter`); the view it makes
is `overlapviz.view.filtered_view`'s. Pure: no Qt here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from overlapviz.core.trace.lanes import LaneGroup
from overlapviz.view.lane_rows import LaneRows


@dataclass(frozen=True, slots=True)
class StreamFilter:
    """Which stream lanes to show: those that mention `text`; the quiet ones folded into one if `hide_quiet`."""

    text: str = ""
    hide_quiet: bool = True


def stream_lane_count(lanes: Sequence[LaneRows]) -> int:
    """How many stream lanes there are (of every GPU)."""
    return sum(lane.lane.group is LaneGroup.STREAMS for lane in lanes)

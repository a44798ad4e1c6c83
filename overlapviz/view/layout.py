"""Where each lane sits on the timeline's vertical axis.

Lanes come from `core.trace.lanes` (host threads, annotations, streams, hardware units), found with
their rows once per trace (`lane_rows`); here they get a vertical position: one unit of height
per lane (a thinner row per depth of nested annotation ranges), a header row above each group,
a small gap between groups, and above a lane one short row per explanation (callout) that
points at its spans, so that a callout never covers what it explains. With several GPUs each
GPU's groups (its streams, its hardware) sit together under a header of their own naming it.
y grows downwards (the view inverts its y axis), so the host lane is on top.
A callout row is as tall as its words need: the timeline measures its font in pixels and
turns that into lane heights for the plot's height (`callout_row_height`), so the words
never shrink to fit a row. Placing is cheap (a few numbers per lane): it is done again
whenever the theme, the font, the plot's height or the callouts change, on the prepared lanes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import groupby

import numpy as np
import numpy.typing as npt

from overlapviz.core.i18n import N_, _
from overlapviz.core.trace.lanes import Lane, LaneGroup
from overlapviz.view.gpus_drawn import not_drawn_title
from overlapviz.view.lane_rows import LaneRows

LANE_HEIGHT = 1.0
HEADER_HEIGHT = 0.75
GROUP_GAP = 0.3
SPAN_MARGIN = 0.14  # empty space above and below the spans of a lane, in lane heights
CALLOUT_HEIGHT = 0.7  # one callout row, in lane heights, until the plot's pixels are known
ANNOTATION_ROW_HEIGHT = 0.6  # one depth of nested annotation ranges, in lane heights
VIEW_PAD = 0.1  # empty space above the first lane and below the last, in lane heights
MAX_CALLOUT_SHARE = 0.5  # of the plot's height: the lanes keep at least the rest

GROUP_TITLES = {
    LaneGroup.HOST: N_("HOST"), LaneGroup.ANNOTATIONS: N_("ANNOTATIONS"), LaneGroup.STREAMS: N_("STREAMS"),
    LaneGroup.HARDWARE: N_("HARDWARE"),
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class PlacedLane:
    """A lane, its vertical position and the trace rows it shows (sorted by start)."""

    lane: Lane
    top: float
    rows: npt.NDArray[np.intp]
    margin: float = SPAN_MARGIN  # above and below the spans, in lane heights
    callouts: int = 0  # callout rows just above the lane
    callout_height: float = CALLOUT_HEIGHT  # each, in lane heights
    height: float = LANE_HEIGHT

    @property
    def bottom(self) -> float:
        """Where the lane ends."""
        return self.top + self.height

    @property
    def centre(self) -> float:
        """The middle of the lane."""
        return self.top + self.height / 2

    @property
    def span_top(self) -> float:
        """Where the lane's spans begin."""
        return self.top + self.margin * self.height

    @property
    def span_bottom(self) -> float:
        """Where the lane's spans end."""
        return self.top + (1 - self.margin) * self.height

    def callout_row(self, index: int) -> tuple[float, float]:
        """Top and bottom of callout row `index` (0 is the highest) above the lane."""
        if not 0 <= index < self.callouts:
            raise IndexError(f"lane {self.lane.key} has {self.callouts} callout rows, not {index + 1}")
        top = self.top - (self.callouts - index) * self.callout_height
        return top, top + self.callout_height


@dataclass(frozen=True, slots=True)
class GroupBand:
    """One group of lanes with its header row."""

    group: LaneGroup
    title: str
    top: float  # the header's top
    bottom: float  # the last lane's bottom

    @property
    def header_centre(self) -> float:
        """The middle of the header row."""
        return self.top + HEADER_HEIGHT / 2


@dataclass(frozen=True, slots=True)
class DeviceBand:
    """The groups of one GPU, under a header row naming it (drawn only with several GPUs)."""

    device: int
    title: str
    top: float  # the header's top
    bottom: float  # its last lane's bottom

    @property
    def header_centre(self) -> float:
        """The middle of the header row."""
        return self.top + HEADER_HEIGHT / 2


@dataclass(frozen=True, slots=True)
class TimelineLayout:
    """Every lane and group of one trace, placed."""

    lanes: tuple[PlacedLane, ...]
    groups: tuple[GroupBand, ...]
    height: float
    callout_rows: int = 0  # in all, above every lane
    callout_height: float = CALLOUT_HEIGHT  # each, in lane heights

    @property
    def lanes_height(self) -> float:
        """The height without the callout rows."""
        return self.height - self.callout_rows * self.callout_height

    @property
    def nominal_height(self) -> float:
        """The height with callout rows of `CALLOUT_HEIGHT`: what to share a picture's space by.

        Unlike `height` it does not depend on the pixels the plot was given, so sizing a
        plot by it does not feed back into the layout.
        """
        return self.lanes_height + self.callout_rows * CALLOUT_HEIGHT
    devices: tuple[DeviceBand, ...] = ()  # empty for a trace of one GPU

    def lane_at(self, y: float) -> PlacedLane | None:
        """The lane whose row contains `y`, if any."""
        for placed in self.lanes:
            if placed.top <= y < placed.bottom:
                return placed
        return None

    def lanes_of_group(self, group: LaneGroup) -> tuple[PlacedLane, ...]:
        """The lanes of `group`, top to bottom."""
        return tuple(placed for placed in self.lanes if placed.lane.group is group)


def layout_lanes(
    lanes: Sequence[LaneRows],
    *,
    callout_rows: Mapping[str, int] | None = None,
    span_margin: float = SPAN_MARGIN,
    callout_height: float = CALLOUT_HEIGHT,
    gpus_not_drawn: Sequence[int] = (),
) -> TimelineLayout:
    """Place `lanes` (a trace's lanes with their rows): host, annotations, then each GPU's streams and hardware.

    `callout_rows` gives, by lane key, how many callout rows (each `callout_height` tall) go
    above that lane; `span_margin` the space above and below each lane's spans (thinner:
    thicker spans). `gpus_not_drawn` get one header row below the rest that names them.
    """
    rows_above = callout_rows or {}
    several = len({lane.lane.device for lane in lanes if lane.lane.device is not None}) > 1
    nested = sum(lane.lane.group is LaneGroup.ANNOTATIONS for lane in lanes) > 1
    placed: list[PlacedLane] = []
    groups: list[GroupBand] = []
    devices: list[DeviceBand] = []
    y = 0.0
    for (device, group), run in groupby(_in_band_order(lanes), key=lambda lane: (lane.lane.device, lane.lane.group)):
        if several and device is not None and (not devices or devices[-1].device != device):
            devices.append(DeviceBand(device, f"GPU {device}", y, y))
            y += HEADER_HEIGHT
        top = y
        y += HEADER_HEIGHT
        height = ANNOTATION_ROW_HEIGHT if nested and group is LaneGroup.ANNOTATIONS else LANE_HEIGHT
        for member in run:
            callouts = rows_above.get(member.key, 0)
            y += callouts * callout_height
            placed.append(PlacedLane(member.lane, y, member.rows, span_margin, callouts, callout_height, height))
            y += height
        groups.append(GroupBand(group, _(GROUP_TITLES[group]), top, y))
        if devices and devices[-1].device == device:
            devices[-1] = DeviceBand(device, devices[-1].title, devices[-1].top, y)
        y += GROUP_GAP
    if gpus_not_drawn:
        devices.append(DeviceBand(gpus_not_drawn[0], not_drawn_title(gpus_not_drawn), y, y + HEADER_HEIGHT))
        y += HEADER_HEIGHT + GROUP_GAP
    rows = sum(lane.callouts for lane in placed)
    return TimelineLayout(tuple(placed), tuple(groups), max(y - GROUP_GAP, 0.0), rows, callout_height, tuple(devices))


def callout_row_height(row_px: float, plot_px: float, lanes_height: float, rows: int) -> float:
    """The height, in lane heights, that makes each of `rows` callout rows `row_px` tall.

    The plot is `plot_px` tall and shows lanes `lanes_height` tall plus the callout rows and
    `VIEW_PAD` above and below, so one lane height is ``plot_px / (lanes_height + 2 * VIEW_PAD
    + rows * height)`` pixels. Solved for the height; the callout rows together never take
    more than `MAX_CALLOUT_SHARE` of the plot (a row shorter than `row_px` is the result then).
    Before the plot has pixels (or with no rows), `CALLOUT_HEIGHT`.
    """
    if rows <= 0 or plot_px <= 0 or row_px <= 0:
        return CALLOUT_HEIGHT
    fixed = lanes_height + 2 * VIEW_PAD
    cap = MAX_CALLOUT_SHARE * fixed / (rows * (1 - MAX_CALLOUT_SHARE))
    room_px = plot_px - rows * row_px
    if room_px <= 0:
        return cap
    return min(row_px * fixed / room_px, cap)


def _in_band_order(lanes: Sequence[LaneRows]) -> list[LaneRows]:
    """The host and annotation lanes first, then each GPU's (in the order they come), streams before hardware."""
    groups = list(LaneGroup)
    devices = list(dict.fromkeys(lane.lane.device for lane in lanes))

    def rank(lane: LaneRows) -> tuple[int, int, int]:
        group = lane.lane.group
        shared = group in (LaneGroup.HOST, LaneGroup.ANNOTATIONS)
        return (0 if shared else 1, 0 if shared else devices.index(lane.lane.device), groups.index(group))

    return sorted(lanes, key=rank)  # stable: the lanes of a group keep their order

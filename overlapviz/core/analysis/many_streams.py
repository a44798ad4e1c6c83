"""Stream lanes a person can read when a GPU has hundreds of streams.

A real program (a framework's stream pool, a server with a stream per request) may put work
on hundreds of streams, most of them busy for a moment only. `arrange_streams` takes the
lanes of a trace (`overlapviz.core.trace.lanes.lanes_of`) and, for each GPU's stream lanes:

- keeps only those whose title or one of whose spans' names holds a text, when one is given;
- sorts them busiest first (the time during which the stream ran something);
- when there are more than `COLLAPSE_ABOVE` of them, folds the quiet ones (busy less than
  `QUIET_SHARE` of that GPU's run) into one lane, "N quiet streams", that shows their spans
  together.

Every other lane passes through as it is, in its place. Pure: the view calls it again when
the text changes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import groupby

import numpy as np
import numpy.typing as npt

from overlapviz.core.analysis.intervals import union_ns
from overlapviz.core.i18n import ncount
from overlapviz.core.trace.lanes import Lane, LaneGroup, lane_rows
from overlapviz.core.trace.spans import Trace

IntpArray = npt.NDArray[np.intp]

# Sixteen stream lanes still fit a screen beside the hardware lanes; past that, a stream that
# ran for less than a hundredth of its GPU's run is a sliver no one can read anyway.
COLLAPSE_ABOVE = 16
QUIET_SHARE = 0.01


def arrange_streams(
    trace: Trace,
    lanes: Sequence[Lane],
    *,
    text: str = "",
    collapse_above: int = COLLAPSE_ABOVE,
    quiet_share: float = QUIET_SHARE,
    rows: Mapping[str, IntpArray] | None = None,
) -> list[Lane]:
    """The lanes, each GPU's stream lanes filtered by `text`, sorted busiest first and the quiet ones folded.

    Parameters
    ----------
    trace
        The trace the lanes are of.
    lanes
        Its lanes, as `lanes_of` gives them (each GPU's stream lanes side by side).
    text
        Keep only the stream lanes whose title, or the name of one of whose spans, holds it
        (any case); empty keeps them all.
    collapse_above
        Fold quiet streams only when a GPU has more stream lanes than this.
    quiet_share
        A stream busy less than this share of its GPU's run (first op's start to last op's end) is quiet.
    rows
        Each lane's rows (`lane_rows`) by key, where already found: the rest are found once here.

    Returns
    -------
    list of Lane
        The new lanes; a folded lane has ``stream`` None and the folded ``streams``.
    """
    arranged: list[Lane] = []
    for (streams, _), group in groupby(lanes, key=lambda lane: (lane.group is LaneGroup.STREAMS, lane.device)):
        block = list(group)
        if not streams:
            arranged += block
            continue
        found = {lane.key: lane_rows(trace, lane) if rows is None or lane.key not in rows else rows[lane.key]
                 for lane in block}  # fmt: skip
        arranged += _arrange_block(trace, block, found, text, collapse_above, quiet_share)
    return arranged


def lane_covered_ns(trace: Trace, lane: Lane, rows: IntpArray | None = None) -> int:
    """The time during which the lane ran at least one span (`rows`: its rows, where already found)."""
    rows = lane_rows(trace, lane) if rows is None else rows
    return union_ns(trace["start_ns"][rows], trace["end_ns"][rows])


def _arrange_block(
    trace: Trace, block: list[Lane], rows: Mapping[str, IntpArray], text: str, collapse_above: int, quiet_share: float
) -> list[Lane]:
    """One GPU's stream lanes (with their `rows` by key), filtered, sorted and folded."""
    wanted = text.strip().casefold()
    kept = [lane for lane in block if not wanted or _mentions(trace, lane, rows[lane.key], wanted)]
    covered = {lane.key: lane_covered_ns(trace, lane, rows[lane.key]) for lane in kept}
    ordered = sorted(kept, key=lambda lane: -covered[lane.key])  # stable: equal ones keep their order
    if len(ordered) <= collapse_above:
        return ordered
    quiet_below = quiet_share * _run_ns(trace, [rows[lane.key] for lane in block])
    quiet = [lane for lane in ordered if covered[lane.key] < quiet_below]
    if len(quiet) < 2:
        return ordered
    return [*(lane for lane in ordered if covered[lane.key] >= quiet_below), _folded(quiet)]


def _mentions(trace: Trace, lane: Lane, rows: IntpArray, wanted: str) -> bool:
    if wanted in lane.title.casefold():
        return True
    names = np.unique(trace["name"][rows])
    return any(wanted in trace.names[int(n)].casefold() for n in names)


def _run_ns(trace: Trace, rows_of_lanes: list[IntpArray]) -> int:
    """From the first start to the last end of the spans of these lanes' rows."""
    rows = np.concatenate(rows_of_lanes)
    return int(trace["end_ns"][rows].max() - trace["start_ns"][rows].min()) if rows.size else 0


def _folded(quiet: list[Lane]) -> Lane:
    device = quiet[0].device
    streams = tuple(sorted(lane.stream for lane in quiet if lane.stream is not None))
    prefix = "" if device is None else f"gpu{device}-"
    title = ncount("{count} quiet stream", "{count} quiet streams", len(streams))
    title = title if device is None else f"GPU {device}: {title}"  # as `lanes` names a lane of one GPU of several
    return Lane(
        key=f"{prefix}streams-quiet", title=title, group=LaneGroup.STREAMS, unit=None, stream=None, device=device,
        streams=streams,
    )  # fmt: skip

"""Stacked timelines on one time axis: the same extent and lane titles of one width."""

from __future__ import annotations

from collections.abc import Sequence

from overlapviz._qt.export.caption import SEPARATOR, caption_text
from overlapviz._qt.timeline.widget import TimelineWidget
from overlapviz._qt.translation import translate
from overlapviz.core.analysis.metrics import Metrics
from overlapviz.core.trace.spans import Trace
from overlapviz.view.formatting import format_duration
from overlapviz.view.opening import device_work_ms, opening_ms, pair_opening_ms, union_ms

SIDE_LETTERS = "AB"


def align_timelines(timelines: Sequence[TimelineWidget], *, shared_time: bool = True) -> None:
    """Give every timeline that shows a trace one title width and, with `shared_time`, one extent: all of both runs.

    With the lane titles equally wide, a time lines up across the stacked plots; without
    `shared_time` each is fitted to its own run instead. Each opens where its trace opens
    (`view.opening`): on one axis, on the time that holds every side's opening.
    """
    shown = [timeline for timeline in timelines if timeline.scene_items is not None]
    if not shown:
        return
    scenes = [timeline.scene_items for timeline in shown if timeline.scene_items is not None]
    extent = (min(scene.start_ms for scene in scenes), max(scene.end_ms for scene in scenes))
    width = max(timeline.lane_axis_width() for timeline in shown)
    opening = pair_opening_ms(scene.trace for scene in scenes)
    for timeline, scene in zip(shown, scenes, strict=True):
        timeline.set_lane_axis_min_width(width)
        if shared_time:
            timeline.fit_time(extent, opening)
        else:
            timeline.fit_time(None, opening_ms(scene.trace))


def zoom_to_device_work(timelines: Sequence[TimelineWidget], *, shared_time: bool = True) -> bool:
    """Show each timeline's GPU work (on one axis: the time that holds every side's); False: none has any."""
    shown = [timeline for timeline in timelines if timeline.trace is not None]
    works = [device_work_ms(timeline.trace) for timeline in shown if timeline.trace is not None]
    if shared_time:
        works = [union_ms(works)] * len(works)
    for timeline, work in zip(shown, works, strict=True):
        if work is not None:
            timeline.set_view_range_ms(*work)
    return any(work is not None for work in works)


def release_timeline(timeline: TimelineWidget) -> None:
    """Back to a timeline on its own: its own extent and title width, where its trace opens."""
    timeline.set_lane_axis_min_width(0)
    trace = timeline.trace
    timeline.fit_time(None, None if trace is None else opening_ms(trace))


def side_caption(side: int, label: str, trace: Trace, metrics: Metrics, shift_ns: int = 0) -> str:
    """``A · pageable: 256 MiB, ... · makespan 67.6 ms · efficiency 57 % · ...``: which side, then what ran.

    A side moved `shift_ns` later to line up with the other says so at the end: its times on
    show are not its file's own.
    """
    caption = caption_text(trace, metrics)
    if shift_ns:
        caption = SEPARATOR.join((caption, shift_text(shift_ns)))
    return translate("Caption", "{side}: {caption}").format(side=side_name(side, label), caption=caption)


def shift_text(shift_ns: int) -> str:
    """``drawn 512.3 ms later, to start its device work with the other side's``."""
    return translate("Caption", "drawn {duration} later, to start its device work with the other side's").format(
        duration=format_duration(shift_ns)
    )


def side_name(side: int, label: str = "") -> str:
    """``A``, or ``A · pageable`` with a label."""
    letter = SIDE_LETTERS[side]
    return f"{letter} \u00b7 {label}" if label else letter

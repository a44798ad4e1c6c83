"""The application model: every fact the window shows or the user chose, held once, evented.

The pipeline's config, the run target, live on or off, the run on show, the run pinned as A,
the lesson on show, the comparison's axis, presentation mode, the callouts, the visible time
span, the time window the figures are of (a fact of the run on show), whether the controls
describe the run on show, and the looks the user chose (theme and text size). Each fact is
declared once, with its setter and its `Event` (`events.Fact`); a setter that changes nothing
says nothing, so that a view which sets a fact and also listens to it is not called back
with its own value.
The views subscribe to what they show; the controller (`controller`) decides what changes.
No Qt here.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from overlapviz.app.events import Fact
from overlapviz.app.pair_run import Side
from overlapviz.app.run_targets import RunTarget
from overlapviz.app.time_window import TimeWindow
from overlapviz.core.config import PipelineConfig
from overlapviz.presets import Preset
from overlapviz.session import RunResult
from overlapviz.view.prepared import PreparedView


@dataclass(frozen=True)
class Shown:
    """The run on show, prepared for the timeline; where it came from (None: a run) and its name as B.

    `view` is what is drawn: the run as run or opened, or made from it: `unshifted` moved
    `shift_ns` later to line up with A (`aligning`), or the `whole` trace cut to the time
    `window` that the figures and findings are of (`time_window`).
    """

    view: PreparedView
    source: Path | None = None
    label: str = ""
    shift_ns: int = 0
    unshifted: PreparedView | None = None
    window: TimeWindow | None = None
    whole: PreparedView | None = None

    @property
    def result(self) -> RunResult:
        """The run: trace, metrics, findings."""
        return self.view.result

    @property
    def own_view(self) -> PreparedView:
        """The run in its own times: as on show (cut to its window, if any), or as it was before it was moved."""
        return self.unshifted or self.view

    def as_side(self) -> Side:
        """The run in its own times, to pin as A."""
        return Side(self.own_view, self.label or (self.source.name if self.source else ""), self.source)


@dataclass(frozen=True)
class Pinned:
    """The run pinned as A, and what the comparison shows (a lesson's title), if anything.

    `drawn` is A moved `shift_ns` later to line up with B (None: A as pinned; see `aligning`);
    `cut` is A as lined up, cut to the time `window` its figures are of (`windowing`).
    """

    a: Side
    title: str = ""
    drawn: PreparedView | None = None
    shift_ns: int = 0
    window: TimeWindow | None = None
    cut: PreparedView | None = None

    @property
    def view(self) -> PreparedView:
        """A as drawn (cut to its window, if it has one)."""
        return self.cut or self.lined_up

    @property
    def lined_up(self) -> PreparedView:
        """A as drawn, whole: moved to line up with B where it was."""
        return self.drawn or self.a.view


@dataclass(frozen=True)
class LessonOnShow:
    """The lesson on show (from 0, of `count`), with its note.

    `departed` is set once the settings on show are no longer the lesson's own (the user changed
    the pipeline or the device since), so that no view shows the lesson's words over a run the
    lesson did not make.
    """

    preset: Preset
    index: int
    count: int
    note: str = ""
    departed: bool = False


class CompareAxis(StrEnum):
    """How a comparison's two timelines share time."""

    SHARED = "shared"  # one axis: the same time at the same x in A and B
    OWN = "own"  # each side on its own axis, fitted to its own run (x positions do not match)


DEFAULT_THEME = "light"
DEFAULT_TEXT_SCALE = 1.0  # the text as large as the desktop's own


def _same_object(old: object, new: object) -> bool:
    return old is new  # a run on show is new whenever it is another object, however alike


class AppModel:
    """The app's state. Read the facts; change them through the setters (or the controller).

    Each fact is declared once (`events.Fact`): ``x`` reads it, ``set_x`` changes it and
    ``x_changed`` tells who listens, only when it did change.
    """

    # --- what the user chose -------------------------------------------------------------
    config = Fact(PipelineConfig())  # the pipeline the controls show and the next run runs
    set_config = config.setter
    config_changed = config.changed
    target: Fact[RunTarget | None] = Fact(None)  # the backend and device the next run runs on (None: none here)
    set_target = target.setter
    target_changed = target.changed
    live = Fact(True)  # whether every change runs the pipeline again
    set_live = live.setter
    live_changed = live.changed
    explanations = Fact(True)  # whether the timelines draw the findings as callouts
    set_explanations = explanations.setter
    explanations_changed = explanations.changed
    # Whether the controls do not describe the run on show: a trace opened from a file without
    # pipeline settings. They hold the pipeline the next run runs; once it runs, or they change,
    # they are the picture's again.
    controls_set_aside = Fact(False)
    set_controls_set_aside = controls_set_aside.setter
    controls_set_aside_changed = controls_set_aside.changed
    theme = Fact(DEFAULT_THEME)  # the look the user chose (presentation mode shows its own over it)
    set_theme = theme.setter
    theme_changed = theme.changed
    text_scale = Fact(DEFAULT_TEXT_SCALE)  # the user's text size, a factor of the desktop's (not presentation's)
    set_text_scale = text_scale.setter
    text_scale_changed = text_scale.changed

    # --- what is on show -------------------------------------------------------------------
    shown: Fact[Shown | None] = Fact(None, same=_same_object)  # the run on show (B when comparing), if any
    set_shown = shown.setter
    shown_changed = shown.changed
    pinned: Fact[Pinned | None] = Fact(None)  # the run pinned as A, if comparing
    set_pinned = pinned.setter
    pinned_changed = pinned.changed
    axis = Fact(CompareAxis.SHARED)  # whether A and B share one time axis or each has its own
    set_axis = axis.setter
    axis_changed = axis.changed
    lesson: Fact[LessonOnShow | None] = Fact(None)  # the lesson on show, if any
    set_lesson = lesson.setter
    lesson_changed = lesson.changed
    presenting = Fact(False)  # whether the window is in presentation mode
    set_presenting = presenting.setter
    presenting_changed = presenting.changed
    window_ms: Fact[tuple[float, float] | None] = Fact(None)  # the time window on show, ms from the run's start
    set_window_ms = window_ms.setter
    window_changed = window_ms.changed

    def __init__(self, config: PipelineConfig | None = None, target: RunTarget | None = None) -> None:
        if config is not None:
            self.set_config(config)
        self.set_target(target)

    @property
    def comparing(self) -> bool:
        """Whether a run is pinned as A."""
        return self.pinned is not None

    @property
    def time_window(self) -> TimeWindow | None:
        """The part of the run on show that its figures and findings are of (None: the whole run)."""
        return None if self.shown is None else self.shown.window

    def depart_lesson(self) -> None:
        """Mark the lesson on show as no longer what the settings show (see `LessonOnShow`)."""
        if self.lesson is not None and not self.lesson.departed:
            self.set_lesson(dataclasses.replace(self.lesson, departed=True))

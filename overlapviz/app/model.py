"""The application model: every fact the window shows or the user chose, held once, evented.

The pipeline's config, the run target, live on or off, the run on show, the run pinned as A,
the lesson on show, the comparison's axis, presentation mode, the callouts, the visible time
span, the time window the figures are of (a fact of the run on show) and whether the
controls describe the run on show. Each fact has one
setter and one `Event`; a setter that changes nothing says nothing, so that a view which
sets a fact and also listens to it is not called back with its own value.
The views subscribe to what they show; the controller (`controller`) decides what changes.
No Qt here.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from overlapviz.app.events import Event
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


class AppModel:
    """The app's state. Read the properties; change them through the setters (or the controller)."""

    def __init__(self, config: PipelineConfig | None = None, target: RunTarget | None = None) -> None:
        self._config = config or PipelineConfig()
        self._target = target
        self._live = True
        self._shown: Shown | None = None
        self._pinned: Pinned | None = None
        self._lesson: LessonOnShow | None = None
        self._axis = CompareAxis.SHARED
        self._presenting = False
        self._explanations = True
        self._window_ms: tuple[float, float] | None = None
        self._controls_set_aside = False
        self.config_changed: Event[PipelineConfig] = Event()
        self.target_changed: Event[RunTarget | None] = Event()
        self.live_changed: Event[bool] = Event()
        self.shown_changed: Event[Shown | None] = Event()
        self.pinned_changed: Event[Pinned | None] = Event()
        self.lesson_changed: Event[LessonOnShow | None] = Event()
        self.axis_changed: Event[CompareAxis] = Event()
        self.presenting_changed: Event[bool] = Event()
        self.explanations_changed: Event[bool] = Event()
        self.window_changed: Event[tuple[float, float] | None] = Event()
        self.controls_set_aside_changed: Event[bool] = Event()

    # --- what the user chose -------------------------------------------------------------

    @property
    def config(self) -> PipelineConfig:
        """The pipeline the controls show and the next run runs."""
        return self._config

    def set_config(self, config: PipelineConfig) -> None:
        """Change the pipeline."""
        if config != self._config:
            self._config = config
            self.config_changed.emit(config)

    @property
    def target(self) -> RunTarget | None:
        """The backend and device the next run runs on (None: nothing can run here)."""
        return self._target

    def set_target(self, target: RunTarget | None) -> None:
        """Change the run target."""
        if target != self._target:
            self._target = target
            self.target_changed.emit(target)

    @property
    def live(self) -> bool:
        """Whether every change runs the pipeline again."""
        return self._live

    def set_live(self, live: bool) -> None:
        """Switch live mode on or off."""
        if live != self._live:
            self._live = live
            self.live_changed.emit(live)

    @property
    def explanations(self) -> bool:
        """Whether the timelines draw the findings as callouts."""
        return self._explanations

    def set_explanations(self, on: bool) -> None:
        """Callouts on the timelines, or not."""
        if on != self._explanations:
            self._explanations = on
            self.explanations_changed.emit(on)

    @property
    def controls_set_aside(self) -> bool:
        """Whether the controls do not describe the run on show: a trace opened from a file without pipeline settings.

        They hold the pipeline the next run runs; once it runs, or they change, they are the picture's again.
        """
        return self._controls_set_aside

    def set_controls_set_aside(self, aside: bool) -> None:
        """Say whether the controls describe the run on show (False) or stand apart from it (True)."""
        if aside != self._controls_set_aside:
            self._controls_set_aside = aside
            self.controls_set_aside_changed.emit(aside)

    # --- what is on show -------------------------------------------------------------------

    @property
    def shown(self) -> Shown | None:
        """The run on show (B when comparing), if any."""
        return self._shown

    def set_shown(self, shown: Shown | None) -> None:
        """Put a run on show (None: none)."""
        if shown is not self._shown:
            self._shown = shown
            self.shown_changed.emit(shown)

    @property
    def pinned(self) -> Pinned | None:
        """The run pinned as A, if comparing."""
        return self._pinned

    @property
    def comparing(self) -> bool:
        """Whether a run is pinned as A."""
        return self._pinned is not None

    def set_pinned(self, pinned: Pinned | None) -> None:
        """Pin a run as A (None: stop comparing)."""
        if pinned != self._pinned:
            self._pinned = pinned
            self.pinned_changed.emit(pinned)

    @property
    def axis(self) -> CompareAxis:
        """Whether A and B share one time axis or each has its own."""
        return self._axis

    def set_axis(self, axis: CompareAxis) -> None:
        """Choose how A and B share time."""
        if axis != self._axis:
            self._axis = axis
            self.axis_changed.emit(axis)

    @property
    def lesson(self) -> LessonOnShow | None:
        """The lesson on show, if any."""
        return self._lesson

    def set_lesson(self, lesson: LessonOnShow | None) -> None:
        """Show a lesson (None: none)."""
        if lesson != self._lesson:
            self._lesson = lesson
            self.lesson_changed.emit(lesson)

    def depart_lesson(self) -> None:
        """Mark the lesson on show as no longer what the settings show (see `LessonOnShow`)."""
        if self._lesson is not None and not self._lesson.departed:
            self.set_lesson(dataclasses.replace(self._lesson, departed=True))

    @property
    def presenting(self) -> bool:
        """Whether the window is in presentation mode."""
        return self._presenting

    def set_presenting(self, on: bool) -> None:
        """Enter or leave presentation mode."""
        if on != self._presenting:
            self._presenting = on
            self.presenting_changed.emit(on)

    @property
    def time_window(self) -> TimeWindow | None:
        """The part of the run on show that its figures and findings are of (None: the whole run)."""
        return None if self._shown is None else self._shown.window

    @property
    def window_ms(self) -> tuple[float, float] | None:
        """The time window on show, ms from the run's start (None: no run on show)."""
        return self._window_ms

    def set_window_ms(self, window: tuple[float, float] | None) -> None:
        """Note the time window the timeline shows."""
        if window != self._window_ms:
            self._window_ms = window
            self.window_changed.emit(window)

"""Replay: the run on show played back slowly, spans appearing as their start time passes.

A cursor moves along the time axis; each timeline on show (A and B alike, so a comparison
plays side by side) draws only what had started by then, cut at the cursor. The speed is a
slow-down factor (1/1,000 of real time and slower) or "the whole run in N seconds". A
QTimer drives it at about 30 frames a second; `stop` ends it and shows everything again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QT_TRANSLATE_NOOP, QElapsedTimer, QObject, QTimer, Signal

from overlapviz._qt.timeline.widget import TimelineWidget

FRAME_MS = 33


@dataclass(frozen=True, slots=True)
class ReplaySpeed:
    """How fast to play: a fraction of real time, or the whole run in a number of seconds."""

    title: str  # in English; the speed menu shows it translated (context "ReplaySpeed")
    factor: float | None = None  # trace time per real time
    whole_run_s: float | None = None

    def rate(self, run_ms: float) -> float:
        """Trace milliseconds per real millisecond, for a run of `run_ms`."""
        if self.factor is not None:
            return self.factor
        return run_ms / (1000.0 * (self.whole_run_s or 1.0))


# QT_TRANSLATE_NOOP marks each title for the catalogue and gives it back unchanged (typed as object)
SPEEDS = (
    ReplaySpeed(str(QT_TRANSLATE_NOOP("ReplaySpeed", "Whole run in 5 s")), whole_run_s=5),
    ReplaySpeed(str(QT_TRANSLATE_NOOP("ReplaySpeed", "Whole run in 10 s")), whole_run_s=10),
    ReplaySpeed(str(QT_TRANSLATE_NOOP("ReplaySpeed", "Whole run in 30 s")), whole_run_s=30),
    ReplaySpeed(str(QT_TRANSLATE_NOOP("ReplaySpeed", "1/1,000 of real time")), factor=1e-3),
    ReplaySpeed(str(QT_TRANSLATE_NOOP("ReplaySpeed", "1/10,000 of real time")), factor=1e-4),
    ReplaySpeed(str(QT_TRANSLATE_NOOP("ReplaySpeed", "1/100,000 of real time")), factor=1e-5),
)
DEFAULT_SPEED = 1  # the whole run in 10 s


class ReplayController(QObject):
    """Plays, pauses, restarts and stops the replay; `playing_changed` says whether it runs."""

    playing_changed = Signal(bool)

    def __init__(self, timelines: Callable[[], list[TimelineWidget]], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._timelines = timelines
        self.speed = SPEEDS[DEFAULT_SPEED]
        self._position_ms: float | None = None
        self._timer = QTimer(self, interval=FRAME_MS)
        self._timer.timeout.connect(self._tick)
        self._clock = QElapsedTimer()

    @property
    def playing(self) -> bool:
        """Whether the cursor is moving."""
        return self._timer.isActive()

    @property
    def position_ms(self) -> float | None:
        """Where the cursor is (None: no replay, everything shown)."""
        return self._position_ms

    def run_ms(self) -> float:
        """The longest run on show (0 when none)."""
        return self.span_ms()[1]

    def span_ms(self) -> tuple[float, float]:
        """Where the runs on show start and end: (0, 0) when none; a run cut to a time window starts at the window."""
        scenes = [t.scene_items for t in self._timelines() if t.scene_items is not None]
        if not scenes:
            return 0.0, 0.0
        return min(scene.start_ms for scene in scenes), max(scene.end_ms for scene in scenes)

    def set_speed(self, index: int) -> None:
        """Play at `SPEEDS[index]` from now on."""
        self.speed = SPEEDS[index]

    def play(self) -> None:
        """Play from the cursor (from the start when there is none or it reached the end)."""
        start, end = self.span_ms()
        if end <= start:
            return
        if self._position_ms is None or not start <= self._position_ms < end:
            self._move_to(start)
        self._clock.start()
        self._timer.start()
        self.playing_changed.emit(True)

    def pause(self) -> None:
        """Hold the cursor where it is."""
        if self._timer.isActive():
            self._timer.stop()
            self.playing_changed.emit(False)

    def toggle(self) -> None:
        """Play or pause."""
        if self.playing:
            self.pause()
        else:
            self.play()

    def restart(self) -> None:
        """From the start again."""
        self._move_to(self.span_ms()[0])
        self.play()

    def stop(self) -> None:
        """End the replay and show everything."""
        self.pause()
        self._position_ms = None
        for timeline in self._timelines():
            timeline.set_cursor_ms(None)

    def advance(self, real_ms: float) -> None:
        """Move the cursor as `real_ms` of real time at the chosen speed would."""
        start, end = self.span_ms()
        position = (start if self._position_ms is None else self._position_ms) + real_ms * self.speed.rate(end - start)
        self._move_to(min(position, end))
        if position >= end:
            self.pause()

    def _tick(self) -> None:
        self.advance(float(self._clock.restart()))

    def _move_to(self, t_ms: float) -> None:
        self._position_ms = t_ms
        for timeline in self._timelines():
            timeline.set_cursor_ms(t_ms)

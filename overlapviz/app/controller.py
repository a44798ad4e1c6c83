"""The application controller: what the user's actions do to the model, without Qt.

The window turns clicks, keys and slider moves into calls here; the views show the model.
Live mode runs the pipeline again on every change: while a slider is dragged, once it pauses
for the debounce timer's interval, or when it has been moving for `LIVE_MAX_WAIT_S` without a
pause, so the picture keeps up. Any change of the controls by the user marks the lesson on
show as left (its words no longer describe the run), and can be undone. A trace opened from
a file that holds no pipeline settings (another tool's) sets the controls aside: they do not
describe it, until they change or a run of the pipeline goes on show.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from overlapviz.app import remembered
from overlapviz.app.comparing import Comparing
from overlapviz.app.events import Event
from overlapviz.app.executor import Executor, RunFunction
from overlapviz.app.lessons import Lessons
from overlapviz.app.main_view import MainView
from overlapviz.app.model import DEFAULT_TEXT_SCALE, DEFAULT_THEME, AppModel, Shown
from overlapviz.app.pair_run import Side
from overlapviz.app.ports import Messages, SettingsStore, Timer
from overlapviz.app.run_targets import RunTarget
from overlapviz.app.runs import Controls, Runs
from overlapviz.app.session_file import SessionData
from overlapviz.app.time_window_control import Windowing
from overlapviz.core.config import PipelineConfig
from overlapviz.core.i18n import _
from overlapviz.presets import Preset
from overlapviz.view.prepared import PreparedView

LIVE_MAX_WAIT_S = 0.25  # a slider moving this long without a pause runs anyway


class AppController:
    """Runs, live mode, files on show, undo and redo, remembered settings; `compare`, `lessons`, `windows` too."""

    def __init__(
        self,
        model: AppModel,
        executor: Executor,
        messages: Messages,
        debounce: Timer,
        *,
        run_function: RunFunction,
        targets: list[RunTarget],
        default: RunTarget | None,
        lessons: list[Preset],
        settings: SettingsStore | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.model = model
        self.targets = list(targets)
        self.default_target = default
        self._settings = settings
        self._debounce = debounce
        self._clock = clock
        self._edits_since = 0.0  # when the edits the debounce timer waits on began
        self.runs = Runs(model, executor, messages, run_function)
        self.compare = Comparing(self.runs)
        self.windows = Windowing(self.runs)
        self.lessons = Lessons(self.runs, self.compare, lessons, self.targets, default)
        self.defaults_restored: Event[None] = Event()
        if model.target is None:
            model.set_target(default)
        for changed in (model.config_changed, model.target_changed):  # the controls describe the next run now
            changed.connect(lambda _value: model.set_controls_set_aside(False))
        if settings is not None:
            dropped = remembered.restore(model, settings, self.targets)
            if dropped is not None:
                messages.show_notice(dropped)
            remembered.remember(model, settings)
        self.runs.note_committed()

    def connect_view(self, view: MainView) -> None:
        """Do what the user asks through `view` (its messages are the ones given at the start)."""
        r = view.requests
        r.run.connect(lambda _none: self.run())
        r.edit_config.connect(self.edit_config)
        r.commit_config.connect(self.commit_config)
        r.choose_target.connect(self.choose_target)
        r.set_live.connect(self.set_live)
        r.undo.connect(lambda _none: self.undo())
        r.redo.connect(lambda _none: self.redo())
        r.reset_to_defaults.connect(lambda _none: self.reset_to_defaults())
        r.choose_theme.connect(self.model.set_theme)

    def start(self) -> bool:
        """The window's first picture: the pipeline runs once, whatever live mode was remembered.

        Live off is remembered (opening a file switches it off), so a start that waited for
        Live would show an empty timeline until the user thought of Run. Reopening the last
        file instead would put back a file that may have moved or grown, and a slow read
        before the first picture; running the controls' own pipeline shows what they hold.
        """
        return self.run()

    # --- running -----------------------------------------------------------------------

    def run(self) -> bool:
        """Run the pipeline now (superseding any run in flight)."""
        self._debounce.stop()
        return self.runs.run()

    def edit_config(self, config: PipelineConfig) -> None:
        """A slider moves: the model follows; in live mode a run follows once the slider pauses."""
        self.model.set_config(config)
        self.model.depart_lesson()
        if not self.model.live:
            return
        now = self._clock()
        if not self._debounce.is_active():
            self._edits_since = now
        if now - self._edits_since >= LIVE_MAX_WAIT_S:
            self.run()
        else:
            self._debounce.start(self._run_after_pause)

    def _run_after_pause(self) -> None:
        self.run()

    def commit_config(self, config: PipelineConfig) -> None:
        """A change is final (slider released, a choice clicked): recorded for undo; live mode runs it."""
        self._user_change(Controls(config, self.model.target))

    def choose_target(self, target: RunTarget | None) -> None:
        """Run on `target` from now on."""
        self._user_change(Controls(self.model.config, target))

    def set_live(self, live: bool) -> None:
        """Switch live mode; switching it on runs at once."""
        self.model.set_live(live)
        if live:
            self.run()

    def set_explanations(self, on: bool) -> None:
        """Callouts on the timelines, or not."""
        self.model.set_explanations(on)

    # --- undo ----------------------------------------------------------------------------

    def undo(self) -> bool:
        """Put the controls back as they were before the last change; False: nothing to undo."""
        return self._step(self.runs.history.undo(self.runs.controls()))

    def redo(self) -> bool:
        """Make the last undone change again; False: nothing to redo."""
        return self._step(self.runs.history.redo(self.runs.controls()))

    # --- what is on show -------------------------------------------------------------------

    def show_loaded(self, data: SessionData, view: PreparedView | None, source: Path) -> None:
        """Show a session or trace read whole from a file; live mode stops so that it stays on show.

        A trace without pipeline settings sets the controls aside (see the module docstring).
        """
        self.set_live(False)
        self.runs.cancel()
        self.model.set_lesson(None)
        target = self._target_of(data.backend, data.device) or self.model.target
        self.runs.apply(Controls(data.config or self.model.config, target))
        if view is not None:
            self.runs.messages.clear_error()
            pinned = self.model.pinned
            if pinned is not None:
                self.runs.messages.show_notice(
                    _("{file} is B, against {pinned} as A").format(file=source.name, pinned=_side_name(pinned.a))
                )
            self.runs.show(Shown(view, source, source.name if pinned is not None else ""))
            self.model.set_controls_set_aside(data.config is None)

    def reset_to_defaults(self) -> None:
        """Forget the remembered settings: the default pipeline on the default device, live, callouts, default looks."""
        if self._settings is not None:
            remembered.forget(self._settings)
        self.model.set_explanations(True)
        self.model.set_theme(DEFAULT_THEME)
        self.model.set_text_scale(DEFAULT_TEXT_SCALE)
        self._user_change(Controls(PipelineConfig(), self.default_target), live=True)
        if self._settings is not None:
            remembered.forget(self._settings)  # what the reset itself wrote: the defaults need no keeping
        self.defaults_restored.emit(None)

    def shutdown(self) -> None:
        """Stop the debounce timer."""
        self._debounce.stop()

    # --- internals -----------------------------------------------------------------------

    def _user_change(self, controls: Controls, *, live: bool | None = None) -> None:
        before = self.runs.controls()
        self.runs.apply(controls)
        if controls != before:
            self.model.depart_lesson()
        if live is not None:
            self.model.set_live(live)
        if self.model.live:
            self.run()

    def _step(self, controls: Controls | None) -> bool:
        if controls is None:
            return False
        self.runs.apply(controls, record=False)
        self.model.depart_lesson()
        if self.model.live:
            self.run()
        return True

    def _target_of(self, backend: str | None, device: str | None) -> RunTarget | None:
        return next((t for t in self.targets if (t.backend, t.device) == (backend, device)), None)


def _side_name(side: Side) -> str:
    return side.label or (side.source.name if side.source else _("the pinned run"))

"""The main window: controls on the left, the timeline in the middle, metrics on the right.

The window is a view of the application model (`app.model`): it shows what the model holds
and hands what the user does to the controller (`app.controller`), which decides. The
teaching tools (`teaching.tools`) add a toolbar, the Compare and Lessons menus, a second
timeline for comparisons, a lesson panel above the metrics and a caption for presentation
mode; the window makes room for them. A trace or session dropped on the window opens as
File ▸ Open opens it; two dropped together are compared, the first as A.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path

from PySide6.QtCore import QSettings, Qt, QUrl, Signal
from PySide6.QtGui import QCloseEvent, QColor, QDragEnterEvent, QDropEvent, QKeySequence
from PySide6.QtWidgets import QApplication, QLabel, QMainWindow, QToolBar, QWidget

from overlapviz._qt.buffer_release import BufferRelease
from overlapviz._qt.export.alignment import zoom_to_device_work
from overlapviz._qt.export.comparison_view import ComparisonPicture
from overlapviz._qt.files.export_folder import ExportFolder
from overlapviz._qt.files.file_actions import FileActions
from overlapviz._qt.files.file_loading import OpenedFile
from overlapviz._qt.files.path_dialogs import OPEN_FILTER, PathDialogs
from overlapviz._qt.files.recent_files import RecentFiles
from overlapviz._qt.help import HelpDialogs
from overlapviz._qt.menus import build_actions
from overlapviz._qt.ports import QtSettingsStore, SingleShotTimer
from overlapviz._qt.teaching.compare_panel import ComparePanel
from overlapviz._qt.teaching.lesson_panel import LessonPanel
from overlapviz._qt.teaching.presentation import caption_label
from overlapviz._qt.teaching.tools import TeachingTools
from overlapviz._qt.themes import DEFAULT_THEME, THEMES, apply_stylesheet, get_theme
from overlapviz._qt.thread_owner import stop_threads_under, stops_threads_on_failure
from overlapviz._qt.time_window_menu import TimeWindowMenu
from overlapviz._qt.timeline.widget import TimelineWidget
from overlapviz._qt.widgets.controls import ControlsPanel
from overlapviz._qt.widgets.elided_label import ElidedLabel
from overlapviz._qt.widgets.error_banner import ErrorBanner
from overlapviz._qt.widgets.font_scale import FontScale
from overlapviz._qt.widgets.legend import LegendBar
from overlapviz._qt.widgets.metrics_panel import MetricsPanel
from overlapviz._qt.widgets.window_layout import arrange_columns
from overlapviz._qt.worker import RunController
from overlapviz.app.controller import AppController
from overlapviz.app.executor import RunFunction
from overlapviz.app.model import AppModel, CompareAxis, Pinned, Shown
from overlapviz.app.run_targets import RunTarget, available_targets, default_target
from overlapviz.app.session_file import SessionData
from overlapviz.app.time_window import window_status
from overlapviz.app.window_title import APP_TITLE, window_title
from overlapviz.core.trace import Trace
from overlapviz.presets import Preset, PresetError, lessons
from overlapviz.session import run_pipeline
from overlapviz.view.opening import opening_note
from overlapviz.view.palette import LEGEND
from overlapviz.view.prepared import PreparedView, legend_of
from overlapviz.view.status_text import status_line

LIVE_DEBOUNCE_MS = 60  # while a slider is dragged, run once it pauses this long
THEME_KEY = "theme"
TEXT_SCALE_KEY = "view/text_scale"
STATUS_SEPARATOR = "  \u00b7  "  # as between the status line's own parts
DROP_HOW = "Drop one trace or session file to open it, or two to compare them (the first as A)."


class MainWindow(QMainWindow):
    """The app's window. `timeline_drawn` fires each time a new timeline is on show."""

    timeline_drawn = Signal()

    @stops_threads_on_failure
    def __init__(
        self,
        settings: QSettings,
        *,
        run_function: RunFunction = run_pipeline,
        targets: list[RunTarget] | None = None,
        live: bool | None = None,
    ) -> None:
        super().__init__()
        self.setWindowTitle(APP_TITLE)
        self._settings = settings
        self._app = QApplication.instance()
        self._theme = DEFAULT_THEME
        self.model = AppModel()
        self.controls = ControlsPanel()
        self.banner = ErrorBanner()
        self.legend = LegendBar()
        self.timeline = TimelineWidget()
        self.compare = ComparePanel(self.timeline, self.model)
        self.lesson_panel = LessonPanel()
        self.presentation_caption = caption_label()
        self.metrics = MetricsPanel()
        self.status_label = ElidedLabel("Starting\u2026")
        self.busy_label = QLabel("")
        self._build_layout()
        self.runner = RunController(self)
        found = available_targets() if targets is None else targets
        self.controls.set_targets(found, None)
        self.controller = AppController(
            self.model, self.runner, self, SingleShotTimer(LIVE_DEBOUNCE_MS, self), run_function=run_function,
            targets=found, default=default_target(found), lessons=self._lessons(), settings=QtSettingsStore(settings),
        )  # fmt: skip
        if live is not None:
            self.model.set_live(live)
        self.fonts = FontScale(self._app) if isinstance(self._app, QApplication) else None
        self.window_actions = build_actions(self)
        self.time_windows = TimeWindowMenu(
            self.window_actions, self.model, self.controller.windows, [self.timeline, self.compare.timeline_a], self
        )
        self.help = HelpDialogs(self, self.window_actions.help_shortcuts, self.window_actions.help_glossary)
        self.files = FileActions(self, RecentFiles(settings), PathDialogs(self), ExportFolder(settings), self)
        self.teaching = TeachingTools(self, self, self.controller, self.compare, self.lesson_panel, self.fonts)
        self.buffers = BufferRelease(self.show_notice, self)
        self._subscribe()
        self._show_model()  # before the widgets' signals are connected: showing the model is no user's change
        self._connect()
        self.set_theme(str(settings.value(THEME_KEY, DEFAULT_THEME)))
        self._restore_text_scale()
        self._refresh_recent()
        if live is not False:  # a caller that switches Live off (a file to open, a test) puts its own on show
            self.controller.start()

    # --- layout ------------------------------------------------------------------------

    def _build_layout(self) -> None:
        columns = arrange_columns(
            self.controls, [self.banner, self.presentation_caption, self.legend], self.compare,
            [self.lesson_panel, self.metrics],
        )  # fmt: skip
        self.controls_column, self.right_column = columns.controls, columns.right
        self.setCentralWidget(columns.splitter)
        self.statusBar().addWidget(self.status_label, 1)
        self.statusBar().addPermanentWidget(self.busy_label)
        self.resize(1560, 820)
        self.setAcceptDrops(True)

    def _lessons(self) -> list[Preset]:
        try:
            return lessons()
        except PresetError as error:
            note = f"The lessons could not be read: {error}"
            self.show_error(note)
            # the first run's success clears the error strip: say it again once it is drawn
            self.timeline_drawn.connect(lambda: self.show_error(note), Qt.ConnectionType.SingleShotConnection)
            return []

    def _subscribe(self) -> None:
        """What each view shows of the model."""
        m = self.model
        m.config_changed.connect(self.controls.set_config)
        m.target_changed.connect(self.controls.set_target)
        m.live_changed.connect(self._show_live)
        m.shown_changed.connect(self._show_run)
        m.pinned_changed.connect(lambda _pinned: self._show_status())
        for changed in (m.shown_changed, m.pinned_changed):
            changed.connect(lambda _value: self.setWindowTitle(window_title(m.shown, m.pinned)))
        m.controls_set_aside_changed.connect(self.controls.set_aside)
        m.explanations_changed.connect(self._show_explanations)
        self.controller.runs.history.changed.connect(lambda _none: self._show_history())
        self.controller.defaults_restored.connect(lambda _none: self._restore_looks())

    def _show_model(self) -> None:
        """Show the model's facts as they are now (at start, after the settings were read)."""
        self.controls.set_config(self.model.config)
        self.controls.set_target(self.model.target)
        self._show_live(self.model.live)
        self._show_explanations(self.model.explanations)
        self._show_history()

    def _connect(self) -> None:
        c, a, ctl = self.controls, self.window_actions, self.controller
        c.config_edited.connect(ctl.edit_config)
        c.config_committed.connect(ctl.commit_config)
        c.target_changed.connect(ctl.choose_target)
        c.run_clicked.connect(ctl.run)
        c.live_toggled.connect(ctl.set_live)
        self.runner.busy_changed.connect(lambda busy: self.busy_label.setText("Running\u2026" if busy else ""))
        self.metrics.finding_selected.connect(self.timeline.highlight_rows)
        self.timeline.window_changed.connect(self._on_window_changed)
        a.run.triggered.connect(ctl.run)
        a.release_buffers.triggered.connect(self.buffers.release)
        a.live.toggled.connect(ctl.set_live)
        a.undo.triggered.connect(ctl.undo)
        a.redo.triggered.connect(ctl.redo)
        a.reset_defaults.triggered.connect(ctl.reset_to_defaults)
        a.reset_view.triggered.connect(self.timeline.reset_view)
        a.zoom_to_device_work.triggered.connect(self.zoom_to_device_work)
        self.teaching.actions.compare_file.triggered.connect(lambda: self.compare_with_file())
        # Home belongs to the timeline only: a focused slider keeps its own Home key.
        a.reset_view.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.timeline.addAction(a.reset_view)
        a.quit.triggered.connect(self.close)
        a.open.triggered.connect(lambda: self.files.open())
        a.save_session.triggered.connect(lambda: self.files.save_session())
        a.export_png.triggered.connect(lambda: self.files.export_png())
        a.export_svg.triggered.connect(lambda: self.files.export_svg())
        a.copy_image.triggered.connect(self.files.copy_image)
        a.export_trace.triggered.connect(lambda: self.files.export_trace())
        a.export_csv.triggered.connect(lambda: self.files.export_csv())
        self.files.recent_changed.connect(self._refresh_recent)
        for name, action in a.themes.items():
            action.triggered.connect(lambda _checked, n=name: self.set_theme(n))
        if self.fonts is not None:
            a.bigger_text.triggered.connect(self.fonts.bigger)
            a.smaller_text.triggered.connect(self.fonts.smaller)
            a.normal_text.triggered.connect(self.fonts.reset)
            self.fonts.changed.connect(self.timeline.set_font)
            self.fonts.changed.connect(self.compare.set_font)
            self.fonts.changed.connect(self.metrics.set_font)
            self.fonts.changed.connect(lambda _font: self._remember_text_scale())

    # --- what the model holds, on show -------------------------------------------------

    def _show_run(self, shown: Shown | None) -> None:
        if shown is None:
            self.timeline.clear()
            self.legend.set_entries(LEGEND)
            self.metrics.clear()
            self.status_label.setText("")
            self.model.set_window_ms(None)
            return
        view = shown.view
        self.timeline.set_view(view)  # a view cut to a time window is fitted to the window
        self.legend.set_entries(legend_of([view]))
        self.metrics.show_results(view.metrics, view.findings, view.trace)
        self._show_status()
        self.controls.set_kernel_rate(view.kernel_rate)
        self.timeline_drawn.emit()

    def _show_status(self) -> None:
        """The run on show, and the time window its figures are of (both sides', when comparing)."""
        shown, pinned = self.model.shown, self.model.pinned
        if shown is None:
            return
        view = shown.view
        status = status_line(view.trace.meta, view.result.wall_s, shown.source)
        window = window_status(shown.window, pinned.window if pinned else None, comparing=pinned is not None)
        self.status_label.setText(status + (f"{STATUS_SEPARATOR}{window}" if window else ""))

    def _show_live(self, live: bool) -> None:
        self.controls.set_live(live)
        self.window_actions.live.setChecked(live)

    def _show_explanations(self, on: bool) -> None:
        self.compare.set_explanations(on)
        self.teaching.actions.explanations.setChecked(on)

    def _show_history(self) -> None:
        history = self.controller.runs.history
        self.window_actions.undo.setEnabled(history.can_undo)
        self.window_actions.redo.setEnabled(history.can_redo)

    def _on_window_changed(self, t0_ms: float, t1_ms: float) -> None:
        self.model.set_window_ms((t0_ms, t1_ms) if self.model.shown is not None else None)

    def zoom_to_device_work(self) -> bool:
        """View ▸ Zoom to GPU work: the timelines on show over their device work; False (and why) where none has any."""
        shared = self.model.axis is CompareAxis.SHARED
        if zoom_to_device_work(self.compare.timelines(), shared_time=shared):
            return True
        self.show_notice("No GPU work to zoom to: the trace on show has no copy or kernel")
        return False

    # --- opening and comparing files -----------------------------------------------------

    def compare_with_file(self, path: Path | None = None) -> bool:
        """Compare ▸ Compare with a file: what is on show becomes A, the file (asked for when not given) B.

        A file that cannot be opened leaves the comparison as it was.
        """
        path = path or self.files.dialogs.open_path("Compare with a file (B)", OPEN_FILTER)
        if path is None:
            return False
        before = self.model.pinned
        if not self.controller.compare.pin_current():
            return False
        self._after_open(lambda ok: None if ok else self.controller.compare.put_back(before))
        return self.files.open(path)

    def compare_files(self, a: Path, b: Path) -> bool:
        """Open `a` and, once it is on show, compare `b` with it (A and B)."""
        before = self.model.pinned
        self.controller.compare.unpin()  # the first file goes on show alone, then is pinned
        self._after_open(partial(self._then_compare, before, b))
        return self.files.open(a)

    def _then_compare(self, before: Pinned | None, b: Path, ok: bool) -> None:
        if not ok:
            self.controller.compare.put_back(before)
        elif self.controller.compare.pin_current():
            self._after_open(lambda ok_b: None if ok_b else self.controller.compare.unpin())
            self.files.open(b)

    def _after_open(self, then: Callable[[bool], None]) -> None:
        """Call `then` once, with how the next open ends."""

        def once(ok: bool) -> None:
            self.files.open_finished.disconnect(once)
            then(ok)

        self.files.open_finished.connect(once)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802 (Qt's name)
        """Take files dragged over the window (a drop of anything else is refused)."""
        if _dropped_paths(event.mimeData().urls() if event.mimeData().hasUrls() else []):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802 (Qt's name)
        """One file opens as File ▸ Open would; two are compared, the first as A."""
        paths = _dropped_paths(event.mimeData().urls() if event.mimeData().hasUrls() else [])
        if not paths:
            event.ignore()
            return
        event.acceptProposedAction()
        if len(paths) == 1:
            self.files.open(paths[0])
        elif len(paths) == 2:
            self.compare_files(*paths)
        else:
            self.show_error(f"{len(paths)} files were dropped. {DROP_HOW}")

    # --- what the tests and scripts call -----------------------------------------------

    def request_run(self) -> None:
        """Run the controls' pipeline on the chosen target (superseding any run in flight)."""
        self.controller.run()

    def show_result(self, view: PreparedView, source: Path | None = None, label: str = "") -> None:
        """Put the run `view` on show: from the file `source` (None: a run), named `label` as B."""
        self.controller.runs.show(Shown(view, source, label))

    def clear_result(self) -> None:
        """Show no run (until the next one arrives)."""
        self.controller.runs.clear_result()

    def shown(self) -> Shown | None:
        """The result on show and its source."""
        return self.model.shown

    def targets(self) -> list[RunTarget]:
        """What the app can run on."""
        return list(self.controller.targets)

    def default_target(self) -> RunTarget | None:
        """What ``auto`` picks here."""
        return self.controller.default_target

    def select_target(self, backend: str | None, device: str | None) -> None:
        """Choose (`backend`, `device`), if offered, without running."""
        target = next((t for t in self.controller.targets if (t.backend, t.device) == (backend, device)), None)
        if target is not None:
            self.model.set_target(target)

    # --- app.ports.Messages ----------------------------------------------------------

    def show_error(self, text: str) -> None:
        """Say what went wrong, in the window."""
        self.banner.show_message(text)

    def clear_error(self) -> None:
        """Take the error away."""
        self.banner.clear()

    def show_notice(self, text: str) -> None:
        """A passing message in the status bar."""
        self.statusBar().showMessage(text, 6000)

    # --- what the file actions read (FileHost) -----------------------------------------

    def current_trace(self) -> Trace | None:
        """The trace on show."""
        shown = self.model.shown
        return None if shown is None else shown.result.trace

    def current_session(self) -> SessionData:
        """Settings and trace, for saving."""
        target = self.model.target
        return SessionData(
            self.model.config, self.current_trace(),
            target.backend if target else None, target.device if target else None,
        )  # fmt: skip

    def current_picture(self) -> PreparedView | ComparisonPicture | None:
        """What an export draws: A and B when comparing, else the run on show (with the stream lanes on show)."""
        shown = self.model.shown
        return self.compare.picture() or (None if shown is None else self.timeline.view or shown.view)

    def explanations_shown(self) -> bool:
        """Whether the timeline draws the findings as callouts."""
        return self.model.explanations

    def show_loaded(self, opened: OpenedFile) -> None:
        """Show a session or trace read whole (and prepared) from a file; live mode stops so it stays on show.

        The timeline takes the keyboard, so that Home shows the whole trace at once; a trace that
        opens on its GPU work says so.
        """
        self.controller.show_loaded(opened.data, opened.view, opened.path)
        if opened.view is None:
            return
        self.timeline.take_focus()
        note = opening_note(opened.view.trace)
        if note and not self.model.comparing:
            keys = [self.window_actions.reset_view.shortcut(), self.window_actions.zoom_to_device_work.shortcut()]
            home, gpu = (key.toString(QKeySequence.SequenceFormat.NativeText) for key in keys)
            self.show_notice(f"{note}: {home} shows the whole trace, {gpu} the GPU work")

    def theme_name(self) -> str:
        """The current theme's name."""
        return self._theme

    def view_window_ms(self) -> tuple[float, float] | None:
        """The time window on show."""
        return self.model.window_ms

    # --- what presentation mode needs (teaching.presentation.PresentationHost) ---------

    def panels(self) -> list[QWidget]:
        """What steps aside in presentation mode: the side columns, the menu and status bars."""
        return [self.controls_column, self.right_column, self.menuBar(), self.statusBar(), *self.findChildren(QToolBar)]

    # --- looks and lifetime ------------------------------------------------------------

    def set_theme(self, name: str, *, remember: bool = True) -> None:
        """Switch to theme `name` (unknown names fall back to the default); `remember` it for next time."""
        self._theme = name if name in THEMES else DEFAULT_THEME
        theme = get_theme(self._theme)
        if isinstance(self._app, QApplication):
            apply_stylesheet(self._app, theme)
        self.timeline.set_theme(theme)
        self.compare.set_theme(theme)
        self.legend.set_text_colour(QColor(theme.foreground))
        self.window_actions.themes[self._theme].setChecked(True)
        if remember:
            self._settings.setValue(THEME_KEY, self._theme)

    def _restore_text_scale(self) -> None:
        try:
            scale = float(str(self._settings.value(TEXT_SCALE_KEY, "")))
        except ValueError:
            return
        if self.fonts is not None:
            self.fonts.set_scale(scale)

    def _remember_text_scale(self) -> None:
        if self.fonts is not None and not self.model.presenting:  # presentation's large type is not the user's
            self._settings.setValue(TEXT_SCALE_KEY, str(self.fonts.scale))

    def _restore_looks(self) -> None:
        """After "Reset to defaults": the default theme and text size, forgotten as settings."""
        self.set_theme(DEFAULT_THEME)
        if self.fonts is not None:
            self.fonts.reset()
        self._settings.remove(THEME_KEY)
        self._settings.remove(TEXT_SCALE_KEY)

    def _refresh_recent(self) -> None:
        menu = self.window_actions.recent_menu
        menu.clear()
        paths = RecentFiles(self._settings).paths()
        for path in paths:
            action = menu.addAction(str(path))
            action.triggered.connect(partial(self.files.open, path))
        menu.setEnabled(bool(paths))

    def shutdown(self) -> None:
        """Stop timers, drawings, and every thread under the window, a dialog's too (blocks until they have stopped)."""
        self.controller.shutdown()
        self.help.close()
        self.teaching.shutdown()
        self.files.shutdown()
        stop_threads_under(self)

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 (Qt's name)
        """Stop the run thread before the window goes."""
        self.shutdown()
        super().closeEvent(event)


def _dropped_paths(urls: list[QUrl]) -> list[Path]:
    """The local files among dropped `urls`; none when any of them is not a local file."""
    paths = [Path(url.toLocalFile()) for url in urls if url.isLocalFile()]
    return paths if paths and len(paths) == len(urls) else []

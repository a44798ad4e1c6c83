"""The main window: controls on the left, the timeline in the middle, metrics on the right.

The window only composes. It builds the widgets, the menus and the parts that keep them in
step with the application model (`app.model`): `RunOnShow` shows the run, `ControlsOnShow`
the user's choices, `WindowLooks` the theme and text size; `WindowView` (the controller's
`app.main_view.MainView`) hands what the user asks for to the controller (`app.controller`),
which decides. The teaching tools (`teaching.tools`) add a toolbar, the Compare and Lessons
menus, a second timeline for comparisons, a lesson panel above the metrics and a caption for
presentation mode; the window makes room for them. Files dropped on the window open or are
compared (`files.file_comparison`).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings, Qt, Signal
from PySide6.QtGui import QCloseEvent, QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication, QLabel, QMainWindow, QMenu

from overlapviz._qt.buffer_release import BufferRelease
from overlapviz._qt.cjk_fonts import missing_font_note
from overlapviz._qt.controls_on_show import ControlsOnShow
from overlapviz._qt.exercises.class_tools import ClassExerciseTools
from overlapviz._qt.exercises.exercise_dock import ExerciseDock
from overlapviz._qt.export.alignment import zoom_to_device_work
from overlapviz._qt.export.comparison_view import ComparisonPicture
from overlapviz._qt.files.export_folder import ExportFolder
from overlapviz._qt.files.file_actions import FileActions
from overlapviz._qt.files.file_comparison import FileComparison, dropped_paths
from overlapviz._qt.files.path_dialogs import PathDialogs
from overlapviz._qt.files.recent_files import RecentFiles
from overlapviz._qt.help import HelpDialogs
from overlapviz._qt.lab.tools import LabTools
from overlapviz._qt.language_menu import LanguageMenu
from overlapviz._qt.menus import build_actions, connect_file_menu, fill_recent_menu
from overlapviz._qt.qt_ports import QtSettingsStore, SingleShotTimer
from overlapviz._qt.ranks.rank_navigation import RankNavigation
from overlapviz._qt.ranks.rank_panel import RankOverviewPanel, centre_stack
from overlapviz._qt.run_on_show import RunOnShow
from overlapviz._qt.teaching.compare_panel import ComparePanel
from overlapviz._qt.teaching.lesson_panel import LessonPanel
from overlapviz._qt.teaching.presentation import caption_label
from overlapviz._qt.teaching.tools import TeachingTools
from overlapviz._qt.thread_owner import stop_threads_under, stops_threads_on_failure
from overlapviz._qt.time_window_menu import TimeWindowMenu
from overlapviz._qt.timeline.widget import TimelineWidget
from overlapviz._qt.translation import translate
from overlapviz._qt.widgets.controls import ControlsPanel
from overlapviz._qt.widgets.elided_label import ElidedLabel
from overlapviz._qt.widgets.error_banner import ErrorBanner
from overlapviz._qt.widgets.font_scale import FontScale
from overlapviz._qt.widgets.legend import LegendBar
from overlapviz._qt.widgets.main_window_layout import arrange_columns
from overlapviz._qt.widgets.metrics_panel import MetricsPanel
from overlapviz._qt.window_hosts import WindowFileHost, WindowPresentationHost
from overlapviz._qt.window_looks import WindowLooks
from overlapviz._qt.window_view import WindowView
from overlapviz._qt.worker import RunController
from overlapviz.app.controller import AppController
from overlapviz.app.executor import RunFunction
from overlapviz.app.lab_connection import LabConnection, with_lab
from overlapviz.app.main_window_title import APP_TITLE
from overlapviz.app.model import AppModel, CompareAxis, Shown
from overlapviz.app.run_targets import RunTarget, available_targets, default_target
from overlapviz.core.i18n import current_language
from overlapviz.core.trace.spans import Trace
from overlapviz.presets import Preset, PresetError, lessons
from overlapviz.session import run_pipeline
from overlapviz.view.prepared import PreparedView

LIVE_DEBOUNCE_MS = 60  # while a slider is dragged, run once it pauses this long


class MainWindow(QMainWindow):
    """The app's window. `timeline_drawn` fires each time a new timeline is on show."""

    timeline_drawn = Signal()

    @stops_threads_on_failure
    def __init__(
        self, settings: QSettings, *, run_function: RunFunction = run_pipeline, targets: list[RunTarget] | None = None,
        live: bool | None = None,
    ) -> None:  # fmt: skip
        super().__init__()
        self.setWindowTitle(APP_TITLE)
        self._settings = settings
        self.model = AppModel()
        self._build_widgets()
        self.view = WindowView(self.banner, self.statusBar())
        self._start_notes: list[str] = []  # what the error strip says from the start (`_say_at_start`)
        font_note = missing_font_note(current_language())
        if font_note:
            self._say_at_start(font_note)
        self.runner = RunController(self)
        for timeline in (self.timeline, self.compare.timeline_a):  # no long stretch on the GUI thread:
            timeline.build_in_background(RunController(self))  # a zoom's finer levels are built off it
            timeline.paint_in_own_turn()  # and a new picture is built in one turn, painted in the next
        self._build_controller(run_function, available_targets() if targets is None else targets)
        if live is not None:
            self.model.set_live(live)
        self._build_parts()
        self._show_model()  # before the widgets' signals are connected: showing the model is no user's change
        self._connect()
        if live is not False:  # a caller that switches Live off (a file to open, a test) puts its own on show
            self.controller.start()

    # --- building ------------------------------------------------------------------------

    def _build_widgets(self) -> None:
        self.controls, self.banner, self.legend = ControlsPanel(), ErrorBanner(), LegendBar()
        self.timeline = TimelineWidget()
        self.compare = ComparePanel(self.timeline, self.model)
        self.lesson_panel, self.presentation_caption = LessonPanel(), caption_label()
        self.metrics = MetricsPanel()
        self.rank_panel = RankOverviewPanel()
        self.centre = centre_stack(self.compare, self.rank_panel)
        self.status_label, self.busy_label = ElidedLabel(translate("MainWindow", "Starting\u2026")), QLabel("")
        columns = arrange_columns(
            self.controls, [self.banner, self.presentation_caption, self.legend], self.centre,
            [self.lesson_panel, self.metrics],
        )  # fmt: skip
        self.controls_column, self.right_column = columns.controls, columns.right
        self.setCentralWidget(columns.splitter)
        self.statusBar().addWidget(self.status_label, 1)
        self.statusBar().addPermanentWidget(self.busy_label)
        self.resize(1560, 820)
        self.setAcceptDrops(True)

    def _build_controller(self, run_function: RunFunction, found: list[RunTarget]) -> None:
        self.lab = LabConnection(QtSettingsStore(self._settings))  # the class's GPU, one more place to run
        self.controls.set_targets(with_lab(found), None)
        self.controller = AppController(
            self.model, self.runner, self.view, SingleShotTimer(LIVE_DEBOUNCE_MS, self),
            run_function=self.lab.run_function(run_function),
            targets=with_lab(found), default=default_target(found), lessons=self._lessons(),
            settings=QtSettingsStore(self._settings),
        )  # fmt: skip

    def _build_parts(self) -> None:
        app = QApplication.instance()
        self.fonts = FontScale(app) if isinstance(app, QApplication) else None
        self.window_actions = a = build_actions(self)
        self.looks = WindowLooks(self.model, self.fonts, self.timeline, self.compare, self.legend, a.themes)
        timelines = [self.timeline, self.compare.timeline_a]
        self.languages = LanguageMenu(a.languages, self._settings, self.view, self)
        self.time_windows = TimeWindowMenu(a, self.model, self.controller.windows, timelines, self)
        self.help = HelpDialogs(self, a.help_shortcuts, a.help_glossary)
        self.file_host = WindowFileHost(self.controller, self.view, self.looks, self.timeline, self.compare, a)
        recent, folder = RecentFiles(self._settings), ExportFolder(self._settings)
        self.files = FileActions(self.file_host, recent, PathDialogs(self), folder, self)
        self.comparison = FileComparison(self.files, self.controller, self.view)
        presenting = WindowPresentationHost(
            self, self.presentation_caption, [self.controls_column, self.right_column], self.looks
        )
        self.teaching = TeachingTools(self, presenting, self.controller, self.compare, self.lesson_panel, self.fonts)
        # after the teaching tools, whose Compare menu takes Compare ranks
        self.ranks = RankNavigation(self, self.centre, self.rank_panel, self.files, self.controller, self.view)
        self.ranks.hide_with_overview(self.legend)
        # after the teaching tools: the caption follows a new run before `timeline_drawn` says it is drawn
        self.run_on_show = RunOnShow(
            self.model, self.timeline, self.legend, self.metrics, self.controls, self.status_label,
            self.setWindowTitle, self.timeline_drawn.emit,
        )  # fmt: skip
        self.buffers = BufferRelease(self.view.show_notice, self)
        store = QtSettingsStore(self._settings)
        self.exercises = ExerciseDock(self, self.controller, store, self.timeline, self.fonts, self.view)
        run_menu = self.findChild(QMenu, "run_menu")
        self.lab_tools = LabTools(self, self.lab, self.controller, self.view, self.banner, run_menu or QMenu(self))
        self.class_exercises = ClassExerciseTools(self.exercises, self.lab_tools.follower, self.lab, self.view)

    def _lessons(self) -> list[Preset]:
        try:
            return lessons()
        except PresetError as error:
            self._say_at_start(translate("MainWindow", "The lessons could not be read: {error}").format(error=error))
            return []

    def _say_at_start(self, note: str) -> None:
        """Put `note` in the error strip, after any said before it, until the user dismisses it."""
        self._start_notes.append(note)
        if len(self._start_notes) == 1:  # the first run's success clears the strip: say them again once drawn
            self.timeline_drawn.connect(self._repeat_start_notes, Qt.ConnectionType.SingleShotConnection)
        self._repeat_start_notes()

    def _repeat_start_notes(self) -> None:
        self.view.show_error("\n".join(self._start_notes))

    # --- what the model holds, on show, and what the user does --------------------------

    def _show_model(self) -> None:
        """Show the model's facts as they are now (at start, after the settings were read), and follow them."""
        self.looks.follow_fonts(
            self.timeline.set_font, self.compare.set_font, self.metrics.set_font, self.rank_panel.set_font
        )
        # presentation mode's theme too, not only the user's
        self.looks.follow_themes(self.rank_panel.set_theme, self.exercises.set_theme, self.class_exercises.set_theme)
        self.looks.show()
        explanations = self.teaching.actions.explanations
        history = self.controller.runs.history
        ControlsOnShow(self.model, history, self.controls, self.window_actions, explanations, self.compare).show()
        self._refresh_recent()
        running = translate("MainWindow", "Running\u2026")
        self.runner.busy_changed.connect(lambda busy: self.busy_label.setText(running if busy else ""))

    def _refresh_recent(self) -> None:
        fill_recent_menu(self.window_actions.recent_menu, RecentFiles(self._settings).paths(), self.files.open)

    def _connect(self) -> None:
        a = self.window_actions
        self.view.forward(self.controls, a)
        self.controller.connect_view(self.view)
        connect_file_menu(a, self.files)
        self.files.recent_changed.connect(self._refresh_recent)
        if self.fonts is not None:
            a.bigger_text.triggered.connect(self.fonts.bigger)
            a.smaller_text.triggered.connect(self.fonts.smaller)
            a.normal_text.triggered.connect(self.fonts.reset)
        a.release_buffers.triggered.connect(self.buffers.release)
        a.reset_view.triggered.connect(self.timeline.reset_view)
        a.zoom_to_device_work.triggered.connect(self.zoom_to_device_work)
        self.teaching.actions.compare_file.triggered.connect(lambda: self.compare_with_file())
        # Home belongs to the timeline only: a focused slider keeps its own Home key.
        a.reset_view.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.timeline.addAction(a.reset_view)
        a.quit.triggered.connect(self.close)
        self.controller.defaults_restored.connect(lambda _none: self.languages.forget())

    def zoom_to_device_work(self) -> bool:
        """View ▸ Zoom to GPU work: the timelines on show over their device work; False (and why) where none has any."""
        shared = self.model.axis is CompareAxis.SHARED
        if zoom_to_device_work(self.compare.timelines(), shared_time=shared):
            return True
        none = translate("MainWindow", "No GPU work to zoom to: the trace on show has no copy or kernel")
        self.view.show_notice(none)
        return False

    # --- files dropped and compared -----------------------------------------------------

    def compare_with_file(self, path: Path | None = None) -> bool:
        """Compare ▸ Compare with a file: what is on show becomes A, the file (asked for when not given) B."""
        return self.comparison.compare_with_file(path)

    def compare_files(self, a: Path, b: Path) -> bool:
        """Open `a` and, once it is on show, compare `b` with it (A and B)."""
        return self.comparison.compare_files(a, b)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802 (Qt's name)
        """Take files dragged over the window (a drop of anything else is refused)."""
        if dropped_paths(event.mimeData()):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802 (Qt's name)
        """One file opens as File ▸ Open would; two are compared, the first as A."""
        paths = dropped_paths(event.mimeData())
        if not paths:
            event.ignore()
            return
        event.acceptProposedAction()
        self.comparison.open_dropped(paths)

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

    def current_trace(self) -> Trace | None:
        """The trace on show."""
        return self.file_host.current_trace()

    def current_picture(self) -> PreparedView | ComparisonPicture | None:
        """What an export draws: A and B when comparing, else the run on show."""
        return self.file_host.current_picture()

    def theme_name(self) -> str:
        """The theme on show."""
        return self.looks.theme_name()

    # --- lifetime ------------------------------------------------------------------------

    def shutdown(self) -> None:
        """Stop timers, drawings, and every thread under the window, a dialog's too (blocks until they have stopped)."""
        self.controller.shutdown()
        self.help.close()
        self.teaching.shutdown()
        self.exercises.shutdown()
        self.files.shutdown()
        self.ranks.shutdown()
        stop_threads_under(self)

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 (Qt's name)
        """Stop the run thread before the window goes."""
        self.shutdown()
        super().closeEvent(event)

"""The main window: controls on the left, the timeline in the middle, metrics on the right.

The teaching tools (`teaching`) add a toolbar, the Compare and Lessons menus, a second
timeline for comparisons, a lesson panel above the metrics and a caption for presentation
mode; the window makes room for them and offers what they need.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from PySide6.QtCore import QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QCloseEvent, QColor
from PySide6.QtWidgets import (
    QApplication,
    QLabel,
    QMainWindow,
)

from overlapviz._qt.buffer_release import BufferRelease
from overlapviz._qt.compare.compare_panel import ComparePanel
from overlapviz._qt.controls import ControlsPanel
from overlapviz._qt.error_banner import ErrorBanner
from overlapviz._qt.export.comparison_view import ComparisonPicture
from overlapviz._qt.file_actions import FileActions
from overlapviz._qt.file_loading import OpenedFile
from overlapviz._qt.font_scale import FontScale
from overlapviz._qt.legend import LegendBar
from overlapviz._qt.lessons.lesson_panel import LessonPanel
from overlapviz._qt.menus import build_actions
from overlapviz._qt.metrics_panel import MetricsPanel
from overlapviz._qt.path_dialogs import PathDialogs
from overlapviz._qt.presentation import caption_label
from overlapviz._qt.recent_files import RecentFiles
from overlapviz._qt.run_targets import RunTarget, available_targets, default_target
from overlapviz._qt.session_file import SessionData
from overlapviz._qt.status_text import status_line
from overlapviz._qt.teaching import TeachingTools
from overlapviz._qt.themes import DEFAULT_THEME, THEMES, apply_stylesheet, get_theme
from overlapviz._qt.timeline.prepared import PreparedView
from overlapviz._qt.timeline.widget import TimelineWidget
from overlapviz._qt.window_layout import arrange_columns
from overlapviz._qt.worker import RunController, RunFunction, RunOutcome
from overlapviz.core.trace import Trace
from overlapviz.session import RunResult, run_pipeline

LIVE_DEBOUNCE_MS = 60  # while a slider is dragged, run once it pauses this long ...
LIVE_MAX_WAIT_S = 0.25  # ... or when it has moved this long without a pause, so the picture keeps up
THEME_KEY = "theme"


@dataclass(frozen=True)
class Shown:
    """The run on show, prepared for the timeline, and where it came from (None: a run)."""

    view: PreparedView
    source: Path | None = None

    @property
    def result(self) -> RunResult:
        """The run: trace, metrics, findings."""
        return self.view.result


class MainWindow(QMainWindow):
    """The app's window. `timeline_drawn` fires each time a new timeline is on show."""

    timeline_drawn = Signal()

    def __init__(
        self,
        settings: QSettings,
        *,
        run_function: RunFunction = run_pipeline,
        targets: list[RunTarget] | None = None,
        live: bool = True,
    ) -> None:
        super().__init__()
        self.setWindowTitle("overlapviz")
        self._settings = settings
        self._shown: Shown | None = None
        self._app = QApplication.instance()
        self.controls = ControlsPanel()
        self.banner = ErrorBanner()
        self.legend = LegendBar()
        self.timeline = TimelineWidget()
        self.compare = ComparePanel(self.timeline)
        self.lesson_panel = LessonPanel()
        self.presentation_caption = caption_label()
        self.metrics = MetricsPanel()
        self.status_label = QLabel("Starting\u2026")
        self.busy_label = QLabel("")
        self._build_layout()
        self.runner = RunController(run_function, self)
        self._debounce = QTimer(self, singleShot=True, interval=LIVE_DEBOUNCE_MS)
        self._edits_since = 0.0  # when the edits the debounce timer is waiting on began
        self.fonts = FontScale(self._app) if isinstance(self._app, QApplication) else None
        self.window_actions = build_actions(self)
        self.files = FileActions(self, RecentFiles(settings), PathDialogs(self), self)
        self._targets = available_targets() if targets is None else targets
        self._default_target = default_target(self._targets)
        self.teaching = TeachingTools(self, run_function)
        self.buffers = BufferRelease(self.show_notice, self)
        self._connect()
        self.set_theme(str(settings.value(THEME_KEY, DEFAULT_THEME)))
        self._refresh_recent()
        self.controls.set_targets(self._targets, self._default_target)
        self.controls.set_live(live)

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

    def _connect(self) -> None:
        c, a = self.controls, self.window_actions
        c.config_edited.connect(self._on_config_edited)
        c.config_committed.connect(self._on_config_committed)
        c.target_changed.connect(lambda _target: self._on_config_committed(None))
        c.run_clicked.connect(self.request_run)
        c.live_toggled.connect(self._on_live_toggled)
        self._debounce.timeout.connect(self.request_run)
        self.runner.finished.connect(self._on_run_finished)
        self.runner.failed.connect(self._on_run_failed)
        self.runner.busy_changed.connect(lambda busy: self.busy_label.setText("Running\u2026" if busy else ""))
        self.metrics.finding_selected.connect(self.timeline.highlight_rows)
        a.run.triggered.connect(self.request_run)
        a.release_buffers.triggered.connect(self.buffers.release)
        a.live.toggled.connect(c.set_live)
        a.reset_view.triggered.connect(self.timeline.reset_view)
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

    # --- running -----------------------------------------------------------------------

    def request_run(self) -> None:
        """Run the controls' pipeline on the chosen target (superseding any run in flight)."""
        self._debounce.stop()
        target = self.controls.target()
        if target is None:
            self.show_error("No backend can run here: see `overlapviz devices` for why.")
            return
        self.runner.request(self.controls.config(), target.backend, target.device)

    def _on_config_edited(self, _config: object) -> None:
        if not self.controls.is_live():
            return
        now = time.monotonic()
        if not self._debounce.isActive():
            self._edits_since = now
        if now - self._edits_since >= LIVE_MAX_WAIT_S:
            self.request_run()
        else:
            self._debounce.start()

    def _on_config_committed(self, _config: object) -> None:
        if self.controls.is_live():
            self.request_run()

    def _on_live_toggled(self, live: bool) -> None:
        self.window_actions.live.setChecked(live)
        if live:
            self.request_run()

    def _on_run_finished(self, outcome: RunOutcome) -> None:
        if isinstance(outcome.result, PreparedView):  # a pair of runs is the teaching tools' to show
            self.banner.clear()
            self.show_result(outcome.result)

    def _on_run_failed(self, outcome: RunOutcome) -> None:
        self.show_error(f"The run did not complete: {outcome.error}")

    # --- showing -----------------------------------------------------------------------

    def show_result(self, view: PreparedView, source: Path | None = None, label: str = "") -> None:
        """Put the run `view` on show: timeline, metrics, findings, status bar (`label`: its name as B)."""
        self._shown = Shown(view, source)
        self.compare.show_b(view, label)
        self.timeline.set_view(view)
        self.metrics.show_results(view.metrics, view.findings)
        self.status_label.setText(status_line(view.trace.meta, view.result.wall_s, source))
        self.controls.set_kernel_rate(view.kernel_rate)
        self.timeline_drawn.emit()

    def show_loaded(self, opened: OpenedFile) -> None:
        """Show a session or trace read whole (and prepared) from a file; live mode stops so it stays on show."""
        data = opened.data
        self.controls.set_live(False)
        self.runner.cancel()
        if data.config is not None:
            self.controls.set_config(data.config)
        self.select_target(data.backend, data.device)
        if opened.view is not None:
            self.banner.clear()
            self.show_result(opened.view, opened.path)

    def clear_result(self) -> None:
        """Show no run (until the next one arrives)."""
        self._shown = None
        self.compare.show_b(None)
        self.timeline.clear()
        self.metrics.clear()
        self.status_label.setText("")

    def show_error(self, text: str) -> None:
        """Say what went wrong, in the window."""
        self.banner.show_message(text)

    def show_notice(self, text: str) -> None:
        """A passing message in the status bar."""
        self.statusBar().showMessage(text, 6000)

    def targets(self) -> list[RunTarget]:
        """What the app can run on."""
        return list(self._targets)

    def default_target(self) -> RunTarget | None:
        """What ``auto`` picks here."""
        return self._default_target

    def select_target(self, backend: str | None, device: str | None) -> None:
        """Choose (`backend`, `device`) in the device picker, if offered, without running."""
        self.controls.select_target(backend, device)

    # --- what the file actions read ----------------------------------------------------

    def current_trace(self) -> Trace | None:
        """The trace on show."""
        return None if self._shown is None else self._shown.result.trace

    def current_session(self) -> SessionData:
        """Settings and trace, for saving."""
        target = self.controls.target()
        return SessionData(
            self.controls.config(), self.current_trace(),
            target.backend if target else None, target.device if target else None,
        )  # fmt: skip

    def current_picture(self) -> PreparedView | ComparisonPicture | None:
        """What an export draws: A and B when comparing, else the run on show."""
        return self.compare.picture() or (None if self._shown is None else self._shown.view)

    def explanations_shown(self) -> bool:
        """Whether the timeline draws the findings as callouts."""
        return self.timeline.explanations

    def shown(self) -> Shown | None:
        """The result on show and its source."""
        return self._shown

    def theme_name(self) -> str:
        """The current theme's name."""
        return self._theme

    def view_window_ms(self) -> tuple[float, float] | None:
        """The time window on show."""
        return self.timeline.view_range_ms() if self._shown is not None else None

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

    def _refresh_recent(self) -> None:
        menu = self.window_actions.recent_menu
        menu.clear()
        paths = RecentFiles(self._settings).paths()
        for path in paths:
            action = menu.addAction(str(path))
            action.triggered.connect(partial(self.files.open, path))
        menu.setEnabled(bool(paths))

    def shutdown(self) -> None:
        """Stop timers and the run threads (blocks until they have stopped)."""
        self._debounce.stop()
        self.teaching.shutdown()
        self.files.shutdown()
        self.buffers.shutdown()
        self.runner.shutdown()

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 (Qt's name)
        """Stop the run thread before the window goes."""
        self.shutdown()
        super().closeEvent(event)

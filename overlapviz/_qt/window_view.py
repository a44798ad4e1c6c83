"""The main window's side of the controller (`app.main_view.MainView`), on Qt's widgets.

Says things in the error strip and the status bar, and turns the controls' and the menus'
signals into the plain requests the controller connects to.
"""

from __future__ import annotations

from PySide6.QtWidgets import QStatusBar

from overlapviz._qt.menus import WindowActions
from overlapviz._qt.widgets.controls import ControlsPanel
from overlapviz._qt.widgets.error_banner import ErrorBanner
from overlapviz.app.main_view import MainView

NOTICE_MS = 6000  # how long a passing message stays in the status bar


class WindowView(MainView):
    """`MainView` on the window's error strip and status bar."""

    def __init__(self, banner: ErrorBanner, status_bar: QStatusBar) -> None:
        super().__init__()
        self._banner = banner
        self._status_bar = status_bar

    def show_error(self, text: str) -> None:
        """Say what went wrong, in the error strip."""
        self._banner.show_message(text)

    def clear_error(self) -> None:
        """Take the error away."""
        self._banner.clear()

    def show_notice(self, text: str) -> None:
        """A passing message in the status bar."""
        self._status_bar.showMessage(text, NOTICE_MS)

    def forward(self, controls: ControlsPanel, actions: WindowActions) -> None:
        """Turn what the user does with the controls and the window's actions into requests."""
        r = self.requests
        controls.config_edited.connect(r.edit_config.emit)
        controls.config_committed.connect(r.commit_config.emit)
        controls.target_changed.connect(r.choose_target.emit)
        controls.run_clicked.connect(lambda: r.run.emit(None))
        controls.live_toggled.connect(r.set_live.emit)
        actions.run.triggered.connect(lambda: r.run.emit(None))
        actions.live.toggled.connect(r.set_live.emit)
        actions.undo.triggered.connect(lambda: r.undo.emit(None))
        actions.redo.triggered.connect(lambda: r.redo.emit(None))
        actions.reset_defaults.triggered.connect(lambda: r.reset_to_defaults.emit(None))
        for name, action in actions.themes.items():
            action.triggered.connect(lambda _checked, n=name: r.choose_theme.emit(n))

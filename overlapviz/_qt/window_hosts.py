"""What the file actions and presentation mode need from the main window, as two small adapters.

`FileActions` reads what is on show and shows what it opened through `WindowFileHost`
(`files.file_actions.FileHost`); presentation mode hides the panels and changes the looks
through `WindowPresentationHost` (`teaching.presentation.PresentationHost`).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QLabel, QMainWindow, QToolBar, QWidget

from overlapviz._qt.export.comparison_view import ComparisonPicture
from overlapviz._qt.files.file_loading import OpenedFile
from overlapviz._qt.menus import WindowActions
from overlapviz._qt.teaching.compare_panel import ComparePanel
from overlapviz._qt.timeline.widget import TimelineWidget
from overlapviz._qt.translation import translate
from overlapviz._qt.window_looks import WindowLooks
from overlapviz.app.controller import AppController
from overlapviz.app.main_view import MainView
from overlapviz.app.session_file import SessionData
from overlapviz.core.trace.spans import Trace
from overlapviz.view.opening import opening_note
from overlapviz.view.prepared import PreparedView


class WindowFileHost:
    """`FileHost` on the window: the model's run on show, the timelines' picture, the window's messages."""

    def __init__(
        self, controller: AppController, view: MainView, looks: WindowLooks, timeline: TimelineWidget,
        compare: ComparePanel, actions: WindowActions,
    ) -> None:  # fmt: skip
        self._controller, self._model = controller, controller.model
        self._view, self._looks = view, looks
        self._timeline, self._compare, self._actions = timeline, compare, actions

    def current_trace(self) -> Trace | None:
        """The trace on show."""
        shown = self._model.shown
        return None if shown is None else shown.result.trace

    def current_session(self) -> SessionData:
        """Settings and trace, for saving."""
        target = self._model.target
        return SessionData(
            self._model.config, self.current_trace(),
            target.backend if target else None, target.device if target else None,
        )  # fmt: skip

    def current_picture(self) -> PreparedView | ComparisonPicture | None:
        """What an export draws: A and B when comparing, else the run on show (with the stream lanes on show)."""
        shown = self._model.shown
        return self._compare.picture() or (None if shown is None else self._timeline.view or shown.view)

    def explanations_shown(self) -> bool:
        """Whether the timeline draws the findings as callouts."""
        return self._model.explanations

    def show_loaded(self, opened: OpenedFile) -> None:
        """Show a session or trace read whole (and prepared) from a file; live mode stops so it stays on show.

        The timeline takes the keyboard, so that Home shows the whole trace at once; a trace that
        opens on its GPU work says so.
        """
        self._controller.show_loaded(opened.data, opened.view, opened.path)
        if opened.view is None:
            return
        self._timeline.take_focus()
        note = opening_note(opened.view.trace)
        if note and not self._model.comparing:
            keys = [self._actions.reset_view.shortcut(), self._actions.zoom_to_device_work.shortcut()]
            home, gpu = (key.toString(QKeySequence.SequenceFormat.NativeText) for key in keys)
            keys_note = translate("WindowFileHost", "{note}: {home} shows the whole trace, {gpu} the GPU work")
            self.show_notice(keys_note.format(note=note, home=home, gpu=gpu))

    def show_error(self, text: str) -> None:
        """Say what went wrong, in the window."""
        self._view.show_error(text)

    def show_notice(self, text: str) -> None:
        """A passing message in the status bar."""
        self._view.show_notice(text)

    def theme_name(self) -> str:
        """The theme on show."""
        return self._looks.theme_name()

    def view_window_ms(self) -> tuple[float, float] | None:
        """The time window on show."""
        return self._model.window_ms


class WindowPresentationHost:
    """`PresentationHost` on the window: its caption, the panels that step aside, its looks and its state."""

    def __init__(
        self, window: QMainWindow, caption: QLabel, side_columns: list[QWidget], looks: WindowLooks
    ) -> None:
        self.presentation_caption = caption
        self._window, self._side_columns, self._looks = window, side_columns, looks

    def panels(self) -> list[QWidget]:
        """What steps aside in presentation mode: the side columns, the menu and status bars, the toolbars."""
        w = self._window
        return [*self._side_columns, w.menuBar(), w.statusBar(), *w.findChildren(QToolBar)]

    def theme_name(self) -> str:
        """The theme on show."""
        return self._looks.theme_name()

    def set_theme(self, name: str, *, remember: bool = True) -> None:
        """Put theme `name` on show; `remember` it as the user's choice."""
        self._looks.show_theme(name)
        if remember:
            self._looks.keep_on_show()

    def windowState(self) -> Qt.WindowState:  # noqa: N802 (Qt's name)
        """The window's state (full screen, maximised, ...)."""
        return self._window.windowState()

    def setWindowState(self, state: Qt.WindowState) -> None:  # noqa: N802 (Qt's name)
        """Put the window in `state`."""
        self._window.setWindowState(state)

    def showFullScreen(self) -> None:  # noqa: N802 (Qt's name)
        """Fill the screen."""
        self._window.showFullScreen()

    def window(self) -> QWidget:
        """The window itself."""
        return self._window

"""The class's lab GPU in the window: Run ▸ Lab GPU…, Run ▸ Follow the instructor, and what they show.

Runs on the lab target go to the server through the app's run function (`app.lab_connection`),
on the run thread; what that thread learns (the queue position, an unreachable server) crosses
here by queued signals. The status bar says where a waiting run stands in the class's queue and,
while on the lab GPU, how many follow the instructor; an unreachable server is said once, with
the model one click away. Following reads the instructor's runs on a thread of its own
(`lab.follow`) and puts each on show with its settings in the controls.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDialog, QLabel, QMainWindow, QMenu, QWidget

from overlapviz._qt.lab.dialog import LabDialog
from overlapviz._qt.lab.follow import FollowedRun, LabFollow
from overlapviz._qt.lab.presence import LabPresence
from overlapviz._qt.lab.unreachable import LabUnreachableStrip
from overlapviz._qt.translation import translate
from overlapviz.app.controller import AppController
from overlapviz.app.lab_connection import LAB_TARGET, LabConnection, LabSettings, is_lab
from overlapviz.app.model import Shown
from overlapviz.app.ports import Messages
from overlapviz.app.run_targets import RunTarget
from overlapviz.app.runs import Controls
from overlapviz.lab.client import LabError, server_host
from overlapviz.lab.client_status import followers_text, waiting_text

LAB_KEYS, FOLLOW_KEYS = "Ctrl+Shift+L", "Ctrl+Shift+F"


class LabTools(QObject):
    """The lab server's actions, status text, unreachable strip, follower and presence on the window."""

    _position_seen = Signal(int)  # from the run thread
    _unreachable_seen = Signal(str)  # from the run thread

    def __init__(
        self, window: QMainWindow, connection: LabConnection, controller: AppController, messages: Messages,
        banner: QWidget, run_menu: QMenu,
    ) -> None:  # fmt: skip
        super().__init__(window)
        self._window, self._connection, self._controller, self._messages = window, connection, controller, messages
        self.dialog: LabDialog | None = None
        self.lab_action, self.follow_action = _actions(window, run_menu)
        self.status_label = QLabel("", window)
        self.status_label.setObjectName("lab_status")
        window.statusBar().addPermanentWidget(self.status_label)
        self.strip = LabUnreachableStrip(window)
        _place_below(banner, self.strip)
        self.follower, self.presence = LabFollow(self), LabPresence(self)
        self._waiting, self._presence_text = "", ""
        self._model_target = next((t for t in controller.targets if t.simulated), None)
        self._connect()
        self._on_target(controller.model.target)

    def _connect(self) -> None:
        model, connection = self._controller.model, self._connection
        connection.position_changed.connect(self._position_seen.emit)
        connection.unreachable.connect(self._unreachable_seen.emit)
        self._position_seen.connect(self._show_position, Qt.ConnectionType.QueuedConnection)
        self._unreachable_seen.connect(self._show_unreachable, Qt.ConnectionType.QueuedConnection)
        model.target_changed.connect(self._on_target)
        model.shown_changed.connect(lambda shown: self.strip.hide() if shown is not None else None)
        self.lab_action.triggered.connect(self.ask)
        self.follow_action.toggled.connect(self._on_follow_toggled)
        self.follower.arrived.connect(self._show_followed)
        self.follower.ended.connect(self._follow_ended)
        self.presence.counted.connect(self._show_presence)
        self.strip.run_on_model.connect(self.run_on_model)
        self.strip.try_again.connect(self._controller.run)
        self.follow_action.setEnabled(connection.settings is not None)

    # --- the server's address and code --------------------------------------------------

    def ask(self) -> LabDialog:
        """Run ▸ Lab GPU…: ask for the address and the join code (the dialog, open until answered)."""
        if self.dialog is not None:
            self.dialog.raise_()
            return self.dialog
        dialog = self.dialog = LabDialog(self._connection.settings, self._window)
        dialog.finished.connect(lambda result: self._on_answer(dialog, result))
        dialog.open()
        return dialog

    def _on_answer(self, dialog: LabDialog, result: int) -> None:
        self.dialog = None
        dialog.deleteLater()
        settings = dialog.settings() if result == QDialog.DialogCode.Accepted else None
        if settings is None:
            if is_lab(self._controller.model.target) and self._connection.settings is None:  # nowhere to send runs
                self._controller.choose_target(self._model_target or self._controller.default_target)
            return
        self.use(settings)

    def use(self, settings: LabSettings) -> None:
        """Run on the server of `settings` from now on, and run there now."""
        self._connection.set(settings)
        self.follow_action.setEnabled(True)
        if self.follower.is_following():
            self.follower.start(self._connection.client())
        self._controller.choose_target(LAB_TARGET)
        self._on_target(LAB_TARGET)  # the same target may take a new server
        if not self._controller.model.live:
            self._controller.run()

    def _on_target(self, target: RunTarget | None) -> None:
        if not is_lab(target):
            self.presence.stop()
            self.strip.hide()
            self._show_presence(0, False)
            return
        if self._connection.settings is None:
            QTimer.singleShot(0, self.ask)  # once the choice has settled in the picker
            return
        try:
            self.presence.start(self._connection.client())
        except LabError as error:
            self._messages.show_error(str(error))

    # --- what a run on the server says ----------------------------------------------------

    def _show_position(self, position: int) -> None:
        self._waiting = waiting_text(position)
        self._show_status()

    def _show_presence(self, count: int, instructor: bool) -> None:
        self._presence_text = followers_text(count, instructor) if instructor or count else ""
        self._show_status()

    def _show_status(self) -> None:
        self.status_label.setText(self._waiting or self._presence_text)

    def _show_unreachable(self, reason: str) -> None:
        self._messages.clear_error()
        self.strip.show_reason(reason)

    def run_on_model(self) -> None:
        """The strip's button: run this pipeline on the model here instead."""
        self.strip.hide()
        if self._model_target is None:
            self._messages.show_error(translate("LabTools", "No model can run here: see `overlapviz devices` for why."))
            return
        self._controller.choose_target(self._model_target)
        if not self._controller.model.live:
            self._controller.run()

    # --- following the instructor -----------------------------------------------------------

    def _on_follow_toggled(self, on: bool) -> None:
        if not on:
            self.follower.stop()
            return
        try:
            self.follower.start(self._connection.client())
        except LabError as error:
            self._uncheck_follow()
            self._messages.show_error(str(error))
            return
        host = server_host(self._connection.client().url)
        said = translate("LabTools", "Following the instructor at {host}: each of their runs appears here")
        self._messages.show_notice(said.format(host=host))

    def _show_followed(self, followed: FollowedRun) -> None:
        if not self.follow_action.isChecked():
            return
        runs, model = self._controller.runs, self._controller.model
        runs.cancel()
        if followed.run.config is not None:
            runs.apply(Controls(followed.run.config, model.target), record=False)
        runs.show(Shown(followed.view))
        self._messages.clear_error()

    def _follow_ended(self, reason: str) -> None:
        self._uncheck_follow()
        said = translate("LabTools", "Following the instructor stopped: {reason}")
        self._messages.show_error(said.format(reason=reason))

    def _uncheck_follow(self) -> None:
        self.follow_action.blockSignals(True)
        self.follow_action.setChecked(False)
        self.follow_action.blockSignals(False)
        self.follower.stop()


def _actions(window: QMainWindow, run_menu: QMenu) -> tuple[QAction, QAction]:
    """Run ▸ Lab GPU… and Run ▸ Follow the instructor, with their keys and tips."""
    lab = QAction(translate("LabTools", "Lab &GPU\u2026"), window)
    lab.setShortcut(QKeySequence(LAB_KEYS))
    lab.setStatusTip(translate("LabTools", "Run on the class's GPU: give the lab server's address and your join code"))
    lab.setToolTip(translate("LabTools", "Run on the class's lab GPU ({keys})").format(keys=LAB_KEYS))
    follow = QAction(translate("LabTools", "&Follow the instructor"), window)
    follow.setCheckable(True)
    follow.setShortcut(QKeySequence(FOLLOW_KEYS))
    follow.setStatusTip(translate("LabTools", "Show each run the instructor makes on the lab server as it arrives"))
    follow_tip = translate("LabTools", "Show the instructor's runs live ({keys}); set a lab server first")
    follow.setToolTip(follow_tip.format(keys=FOLLOW_KEYS))
    run_menu.addSeparator()
    run_menu.addActions([lab, follow])
    window.addActions([lab, follow])  # their keys work with the menu bar hidden (presentation mode)
    return lab, follow


def _place_below(banner: QWidget, strip: QWidget) -> None:
    """Put `strip` right below the error strip, in the same column."""
    parent = banner.parentWidget()
    layout = parent.layout() if parent is not None else None
    if layout is None:
        return
    index = layout.indexOf(banner)
    insert = getattr(layout, "insertWidget", None)
    if callable(insert):
        insert(index + 1, strip)
    else:
        layout.addWidget(strip)

"""The user's choices on show: the controls' pipeline, device and Live switch, the menus' checks, undo and redo.

Follows the model (`app.model`) and the undo history (`app.undo`); a change shown here is
no user's change, so the controls show it without a request going back to the controller.
"""

from __future__ import annotations

from PySide6.QtGui import QAction

from overlapviz._qt.menus import WindowActions
from overlapviz._qt.teaching.compare_panel import ComparePanel
from overlapviz._qt.widgets.controls import ControlsPanel
from overlapviz.app.model import AppModel
from overlapviz.app.runs import Controls
from overlapviz.app.undo import UndoHistory


class ControlsOnShow:
    """Shows the model's choices on `controls`, the window's actions and the comparison's callouts."""

    def __init__(
        self, model: AppModel, history: UndoHistory[Controls], controls: ControlsPanel, actions: WindowActions,
        explanations: QAction, compare: ComparePanel,
    ) -> None:  # fmt: skip
        self._model, self._history = model, history
        self._controls, self._actions = controls, actions
        self._explanations, self._compare = explanations, compare

    def show(self) -> None:
        """Show the choices as they are now (at start, after the settings were read), and follow them."""
        m, controls = self._model, self._controls
        controls.set_config(m.config)
        controls.set_target(m.target)
        self._show_live(m.live)
        self._show_explanations(m.explanations)
        self._show_history()
        m.config_changed.connect(controls.set_config)
        m.target_changed.connect(controls.set_target)
        m.live_changed.connect(self._show_live)
        m.controls_set_aside_changed.connect(controls.set_aside)
        m.explanations_changed.connect(self._show_explanations)
        self._history.changed.connect(lambda _none: self._show_history())

    def _show_live(self, live: bool) -> None:
        self._controls.set_live(live)
        self._actions.live.setChecked(live)

    def _show_explanations(self, on: bool) -> None:
        self._compare.set_explanations(on)
        self._explanations.setChecked(on)

    def _show_history(self) -> None:
        self._actions.undo.setEnabled(self._history.can_undo)
        self._actions.redo.setEnabled(self._history.can_redo)

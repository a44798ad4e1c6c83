"""A row of checkable buttons that picks one value (host memory, issue order, the number of GPUs, ...)."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Generic, TypeVar

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QButtonGroup, QPushButton

E = TypeVar("E", bound=Hashable)


class ChoiceGroup(QObject, Generic[E]):
    """Exclusive buttons, one per value; `chosen` fires with the value the user picked."""

    chosen = Signal(object)

    def __init__(self, buttons: dict[E, QPushButton], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._buttons = buttons
        self._group = QButtonGroup(self)
        self._group.setExclusive(True)
        for button in buttons.values():
            self._group.addButton(button)
        self._group.buttonClicked.connect(self._on_clicked)

    def value(self) -> E:
        """The value whose button is checked."""
        for value, button in self._buttons.items():
            if button.isChecked():
                return value
        return next(iter(self._buttons))

    def set_value(self, value: E) -> None:
        """Check `value`'s button without emitting."""
        self._buttons[value].setChecked(True)

    def button(self, value: E) -> QPushButton:
        """The button of `value`."""
        return self._buttons[value]

    def _on_clicked(self, _button: QPushButton) -> None:
        self.chosen.emit(self.value())

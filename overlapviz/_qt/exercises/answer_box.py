"""Where the learner answers: one of the choices, or a number in the figure's unit.

A choice's words wrap (a radio button's own text would be cut at the panel's edge at slide
sizes), so each choice is a radio button beside a wrapping label that picks it when clicked.
`answered` gives the answer (a choice's key, or a number) or None when there is none yet.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QLocale, QObject, Qt, Signal
from PySide6.QtGui import QDoubleValidator
from PySide6.QtWidgets import (
    QButtonGroup,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from overlapviz.app.exercise_session import Answer


class AnswerBox(QWidget):
    """Choices (radio buttons with wrapping words) or a number field; `answered` fires on each change."""

    answered = Signal(object)  # str (a choice's key), float, or None

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("exercise_answer")
        self._group = QButtonGroup(self)
        self._group.buttonToggled.connect(self._on_toggled)
        self._keys: dict[QRadioButton, str] = {}
        self._labels: dict[QLabel, QRadioButton] = {}
        self._choices = QWidget(self)
        self._grid = QGridLayout(self._choices)
        self._grid.setContentsMargins(0, 0, 0, 0)
        self._grid.setColumnStretch(1, 1)
        self.number = QLineEdit(self)
        self.number.setObjectName("exercise_number")
        validator = QDoubleValidator(self.number)
        validator.setLocale(QLocale.c())  # a point for the decimals, whatever the desktop's language
        self.number.setValidator(validator)
        self.number.textChanged.connect(lambda _text: self.answered.emit(self.answer()))
        self.unit = QLabel(self)
        number_row = QHBoxLayout()
        number_row.addWidget(self.number, 1)
        number_row.addWidget(self.unit)
        self._number_row = QWidget(self)
        self._number_row.setLayout(number_row)
        number_row.setContentsMargins(0, 0, 0, 0)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self._choices)
        layout.addWidget(self._number_row)

    def ask_choice(self, choices: list[tuple[str, str]], chosen: str | None) -> None:
        """Offer `choices` (key, words), with `chosen` picked."""
        self._clear_choices()
        for row, (key, text) in enumerate(choices):
            button = QRadioButton(self._choices)
            button.setObjectName(f"choice_{key}")
            button.setAccessibleName(text)
            label = QLabel(text, self._choices)
            label.setWordWrap(True)
            label.installEventFilter(self)
            self._group.addButton(button)
            self._keys[button] = key
            self._labels[label] = button
            self._grid.addWidget(button, row, 0, Qt.AlignmentFlag.AlignTop)
            self._grid.addWidget(label, row, 1)
            button.setChecked(key == chosen)
        self._choices.setVisible(bool(choices))
        self._number_row.hide()

    def ask_number(self, unit: str, value: float | None) -> None:
        """Ask for a number in `unit` (shown beside the field), holding `value`."""
        self._clear_choices()
        self._choices.hide()
        self.unit.setText(unit)
        self.number.blockSignals(True)
        self.number.setText("" if value is None else f"{value:g}")
        self.number.blockSignals(False)
        self._number_row.show()

    def ask_nothing(self) -> None:
        """No answer to give (a challenge's answer is the controls)."""
        self._clear_choices()
        self._choices.hide()
        self._number_row.hide()

    def answer(self) -> Answer:
        """The answer given: a choice's key, a number, or None."""
        if self._number_row.isVisibleTo(self):
            text = self.number.text().strip()
            try:
                return float(text) if text else None
            except ValueError:  # a lone "-" or "." on the way to a number
                return None
        checked = self._group.checkedButton()
        return next((key for button, key in self._keys.items() if button is checked), None)

    def choose(self, key: str) -> None:
        """Pick the choice `key`, as a click does."""
        button = next(b for b, k in self._keys.items() if k == key)
        button.setChecked(True)

    def set_locked(self, locked: bool) -> None:
        """Once run, the answer stands: it can be read, not changed."""
        for button in self._keys:
            button.setEnabled(not locked)
        self.number.setReadOnly(locked)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        """A click on a choice's words picks it."""
        button = next((b for label, b in self._labels.items() if label is watched), None)
        if button is not None and event.type() == QEvent.Type.MouseButtonRelease and button.isEnabled():
            button.setChecked(True)
            return True
        return False

    def _on_toggled(self, _button: QRadioButton, checked: bool) -> None:
        if checked:
            self.answered.emit(self.answer())

    def _clear_choices(self) -> None:
        for button in list(self._keys):
            self._group.removeButton(button)
        for widget in [*self._keys, *self._labels]:
            self._grid.removeWidget(widget)
            widget.hide()
            widget.deleteLater()
        self._keys.clear()
        self._labels.clear()

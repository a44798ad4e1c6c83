"""Beside the timeline: the lesson's title, its few sentences, and where it runs."""

from __future__ import annotations

import html

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QToolButton, QVBoxLayout, QWidget

from overlapviz.presets import Preset


class LessonPanel(QWidget):
    """Hidden until a lesson starts; buttons step to the previous and next lesson."""

    previous_clicked = Signal()
    next_clicked = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("lesson_panel")
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        self.position = QLabel(self)
        self.position.setObjectName("lesson_position")
        close = QToolButton(self)
        close.setText("\u2715")
        close.setToolTip("Hide the lesson")
        close.clicked.connect(self.hide)
        self.title = self._label("lesson_title")
        self.text = self._label("lesson_text")
        self.note = self._label("lesson_note")
        self.previous_button = QPushButton("\u25c0 Previous", self)
        self.next_button = QPushButton("Next \u25b6", self)
        self.previous_button.clicked.connect(self.previous_clicked)
        self.next_button.clicked.connect(self.next_clicked)
        header = QHBoxLayout()
        header.addWidget(self.position, 1)
        header.addWidget(close)
        buttons = QHBoxLayout()
        buttons.addWidget(self.previous_button)
        buttons.addWidget(self.next_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 8)
        layout.addLayout(header)
        for label in (self.title, self.text, self.note):
            layout.addWidget(label)
        layout.addLayout(buttons)
        self.hide()

    def show_lesson(self, preset: Preset, index: int, count: int, note: str = "") -> None:
        """Show lesson `index` (from 0) of `count`, with `note` under its text."""
        self.position.setText(f"Lesson {index + 1} of {count}")
        self.title.setText(f"<b>{html.escape(preset.title)}</b>")
        self.text.setText(preset.text)
        self.note.setText(note)
        self.note.setVisible(bool(note))
        self.previous_button.setEnabled(index > 0)
        self.next_button.setEnabled(index < count - 1)
        self.show()

    def _label(self, name: str) -> QLabel:
        label = QLabel(self)
        label.setObjectName(name)
        label.setWordWrap(True)
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        return label

"""Beside the timeline: the lesson's title, its few sentences, and where it runs.

A view of the lesson on show in the application model: hidden when there is none, and
marked when the settings have changed since the lesson ran, so that its words are never
taken for a description of a run the user made.
"""

from __future__ import annotations

import html

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QToolButton, QVBoxLayout, QWidget

from overlapviz._qt.translation import translate
from overlapviz.app.model import LessonOnShow
from overlapviz.core.i18n import grouped


class LessonPanel(QWidget):
    """Hidden until a lesson starts; buttons step to the previous and next lesson, or close it."""

    previous_clicked = Signal()
    next_clicked = Signal()
    close_clicked = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("lesson_panel")
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        self.position = QLabel(self)
        self.position.setObjectName("lesson_position")
        close = QToolButton(self)
        close.setText("\u2715")
        close.setToolTip(translate("LessonPanel", "Hide the lesson"))
        close.clicked.connect(self.close_clicked)
        self.title = self._label("lesson_title")
        self.text = self._label("lesson_text")
        self.note = self._label("lesson_note")
        self.departed = self._label("lesson_departed")
        self.previous_button = QPushButton(translate("LessonPanel", "\u25c0 Previous"), self)
        self.next_button = QPushButton(translate("LessonPanel", "Next \u25b6"), self)
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
        for label in (self.departed, self.title, self.text, self.note):
            layout.addWidget(label)
        layout.addLayout(buttons)
        self.hide()

    def show_lesson(self, lesson: LessonOnShow | None) -> None:
        """Show `lesson` (None: hide)."""
        if lesson is None:
            self.hide()
            return
        index, count = lesson.index, lesson.count
        position = translate("LessonPanel", "Lesson {number} of {count}")
        self.position.setText(position.format(number=grouped(index + 1), count=grouped(count)))
        self.title.setText(f"<b>{html.escape(lesson.preset.title)}</b>")
        self.text.setText(lesson.preset.text)
        self.note.setText(lesson.note)
        self.note.setVisible(bool(lesson.note))
        departed = translate(
            "LessonPanel",
            "You have changed the settings since this lesson ran: the timeline shows your own run."
            " Start it again from the Lessons menu to see its run.",
        )
        self.departed.setText(departed if lesson.departed else "")
        self.departed.setVisible(lesson.departed)
        self.previous_button.setEnabled(index > 0)
        self.next_button.setEnabled(index < count - 1)
        self.show()

    def _label(self, name: str) -> QLabel:
        label = QLabel(self)
        label.setObjectName(name)
        label.setWordWrap(True)
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        return label

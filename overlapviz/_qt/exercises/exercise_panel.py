"""The Exercises panel: the progress, the list with a mark on each done, a step-through's stop, the exercise.

A view of the session (`app.exercise_session.Exercising`) and its progress: it shows them and
hands what the learner does to the session. The list's rows and the exercise's words wrap,
and the exercise scrolls, so text of slide size is never cut.
"""

from __future__ import annotations

import html

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from overlapviz._qt.exercises.exercise_detail import ExerciseDetail, kind_title
from overlapviz._qt.translation import translate
from overlapviz._qt.widgets.metrics_panel import fit_finding_rows
from overlapviz.app.exercise_progress import ExerciseProgress
from overlapviz.app.exercise_steps import Stop
from overlapviz.app.exercise_text import progress_text
from overlapviz.core.i18n import grouped
from overlapviz.exercises import Exercise
from overlapviz.view.formatting import format_percent

DONE, NOT_DONE = "\u2713", "\u25cb"


class StepBox(QWidget):
    """The finding a step-through stands on: which of how many, its sentence, the keys; hidden when none."""

    previous_clicked = Signal()
    next_clicked = Signal()
    leave_clicked = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("exercise_step")
        self.heading = QLabel(self)
        self.text = QLabel(self)
        self.keys = QLabel(translate("StepBox", "\u2192 or N next \u00b7 \u2190 or P previous \u00b7 Esc leaves"), self)
        for label in (self.heading, self.text, self.keys):
            label.setWordWrap(True)
        buttons = QHBoxLayout()
        for text, signal in (
            (translate("StepBox", "\u25c0 Previous"), self.previous_clicked),
            (translate("StepBox", "Next \u25b6"), self.next_clicked),
            (translate("StepBox", "Leave"), self.leave_clicked),
        ):
            button = QPushButton(text, self)
            button.clicked.connect(signal)
            buttons.addWidget(button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        for label in (self.heading, self.text, self.keys):
            layout.addWidget(label)
        layout.addLayout(buttons)
        self.hide()

    def show_stop(self, stop: Stop | None) -> None:
        """Show `stop` (None: hide)."""
        if stop is None:
            self.hide()
            return
        self.heading.setText(f"<b>{html.escape(stop.heading)}</b> \u00b7 {html.escape(stop.code)}")
        self.text.setText(stop.text)
        self.show()


class ExercisePanel(QWidget):
    """Progress and Reset progress, the exercises with their marks, a step-through's stop, the exercise on show."""

    chosen = Signal(int)
    reset_clicked = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("exercise_panel")
        self.progress = QLabel(self)
        self.progress.setObjectName("exercise_progress")
        self.progress.setWordWrap(True)
        self.reset_button = QPushButton(translate("ExercisePanel", "Reset progress"), self)
        self.reset_button.setObjectName("exercise_reset")
        self.reset_button.clicked.connect(self.reset_clicked)
        self.list = QListWidget(self)
        self.list.setObjectName("exercise_list")
        self.list.setWordWrap(True)
        self.list.currentRowChanged.connect(self._on_row)
        self.list.viewport().installEventFilter(self)
        self.steps = StepBox(self)
        self.detail = ExerciseDetail()
        scroll = QScrollArea(self)
        scroll.setWidget(self.detail)
        scroll.setWidgetResizable(True)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        header = QHBoxLayout()
        header.addWidget(self.progress, 1)
        header.addWidget(self.reset_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(header)
        layout.addWidget(self.list, 1)
        layout.addWidget(self.steps)
        layout.addWidget(scroll, 3)

    def show_exercises(self, exercises: list[Exercise], progress: ExerciseProgress) -> None:
        """List `exercises`, each with its mark, and the learner's progress over them all."""
        names = [exercise.name for exercise in exercises]
        self.progress.setText(progress_text(progress.done_count(names), len(names), progress.score(names)))
        self.list.blockSignals(True)
        current = self.list.currentRow()
        self.list.clear()
        for exercise in exercises:
            record = progress.record(exercise.name)
            item = QListWidgetItem(f"{DONE if record.done else NOT_DONE} {exercise.title}")
            tip = (
                translate("ExercisePanel", "{kind} \u00b7 best score {score} \u00b7 {n} try") if record.tries == 1
                else translate("ExercisePanel", "{kind} \u00b7 best score {score} \u00b7 {n} tries")
            )  # fmt: skip
            score = format_percent(record.best * 100)
            item.setToolTip(tip.format(kind=kind_title(exercise.kind), score=score, n=grouped(record.tries)))
            self.list.addItem(item)
        self.list.setCurrentRow(current)
        self.list.blockSignals(False)
        fit_finding_rows(self.list)

    def mark_current(self, index: int | None) -> None:
        """Select row `index` (None: none) without choosing it again."""
        self.list.blockSignals(True)
        self.list.setCurrentRow(-1 if index is None else index)
        self.list.blockSignals(False)

    def item_texts(self) -> list[str]:
        """The list's rows as shown."""
        return [self.list.item(i).text() for i in range(self.list.count())]

    def set_font(self, font: QFont) -> None:
        """Lay the list's rows out again in `font`, each as tall as its wrapped text."""
        self.list.setFont(font)
        fit_finding_rows(self.list)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        """Fit the rows again when the list's width changes."""
        if watched is self.list.viewport() and event.type() == QEvent.Type.Resize:
            fit_finding_rows(self.list)
        return False

    def _on_row(self, row: int) -> None:
        if row >= 0:
            self.chosen.emit(row)

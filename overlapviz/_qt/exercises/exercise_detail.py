"""One exercise: its question, the answer box or the goals, the hints, Run and check, and the reveal.

A view of the exercise on show (`app.exercise_session.ExerciseOnShow`): it shows what that
holds and hands what the learner does to the session through its signals. Every text wraps,
so that nothing is cut at the panel's edge at slide sizes; the panel scrolls instead.
"""

from __future__ import annotations

import html

from PySide6.QtCore import QT_TRANSLATE_NOOP, Qt, Signal, SignalInstance
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from overlapviz._qt.exercises.answer_box import AnswerBox
from overlapviz._qt.translation import translate
from overlapviz.app.exercise_reveal import Reveal
from overlapviz.app.exercise_session import ExerciseOnShow, Phase
from overlapviz.app.exercise_text import figure_unit, goal_text, limit_text
from overlapviz.core.i18n import grouped
from overlapviz.exercises import Exercise, ExerciseKind

# In English, shown translated (context "ExerciseDetail"): QT_TRANSLATE_NOOP marks each for the
# catalogue and gives it back unchanged (typed as object).
KIND_TITLES = {
    ExerciseKind.PREDICT: str(QT_TRANSLATE_NOOP("ExerciseDetail", "Predict, then run")),
    ExerciseKind.CHALLENGE: str(QT_TRANSLATE_NOOP("ExerciseDetail", "Challenge: change the controls")),
    ExerciseKind.QUIZ: str(QT_TRANSLATE_NOOP("ExerciseDetail", "Quiz")),
}
RUN_AND_CHECK = str(QT_TRANSLATE_NOOP("ExerciseDetail", "Run and check"))
CHECK = str(QT_TRANSLATE_NOOP("ExerciseDetail", "Check"))
RUNNING = str(QT_TRANSLATE_NOOP("ExerciseDetail", "Running\u2026"))


def kind_title(kind: ExerciseKind) -> str:
    """What kind of exercise it is, in the window's language: "Predict, then run", "Quiz", ..."""
    return translate("ExerciseDetail", KIND_TITLES[kind])


class ExerciseDetail(QWidget):
    """The exercise on show; `answered`, `check_clicked`, `hint_clicked`, `again_clicked`, `steps_clicked`."""

    answered = Signal(object)
    check_clicked = Signal()
    hint_clicked = Signal()
    again_clicked = Signal()
    steps_clicked = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("exercise_detail")
        self.kind = self._label("exercise_kind")
        self.title = self._label("exercise_title")
        self.question = self._label("exercise_question")
        self.answer_box = AnswerBox(self)
        self.answer_box.answered.connect(self.answered)
        self.goals = self._label("exercise_goals")
        self.hints = self._label("exercise_hints")
        self.hint_button = self._button("exercise_hint", self.hint_clicked)
        self.check_button = self._button("exercise_check", self.check_clicked)
        self.verdict = self._label("exercise_verdict")
        self.said = self._label("exercise_said")
        self.marks = self._label("exercise_marks")
        self.explanation = self._label("exercise_explanation")
        self.again_button = self._button("exercise_again", self.again_clicked, translate("ExerciseDetail", "Try again"))
        self.steps_button = self._button(
            "exercise_steps", self.steps_clicked, translate("ExerciseDetail", "Step through the findings")
        )
        self._asked_for: Exercise | None = None  # the exercise the answer box asks for
        self._lay_out()
        self.show_exercise(None)

    def _lay_out(self) -> None:
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        for widget in (self.kind, self.title, self.question, self.answer_box, self.goals, self.hints):
            layout.addWidget(widget)
        buttons = QHBoxLayout()
        buttons.addWidget(self.hint_button)
        buttons.addWidget(self.check_button)
        layout.addLayout(buttons)
        for widget in (self.verdict, self.said, self.marks, self.explanation):
            layout.addWidget(widget)
        after = QHBoxLayout()
        after.addWidget(self.again_button)
        after.addWidget(self.steps_button)
        layout.addLayout(after)
        layout.addStretch(1)

    def show_exercise(self, on_show: ExerciseOnShow | None) -> None:
        """Show `on_show` (None: a word on what to do)."""
        if on_show is None:
            self._show_nothing()
            return
        exercise = on_show.exercise
        self.kind.setText(kind_title(exercise.kind))
        self.title.setText(f"<b>{html.escape(exercise.title)}</b>")
        self.question.setText(exercise.question.strip())
        self._ask(exercise, on_show)
        self._show_hints(exercise, on_show.hints)
        self.check_button.setText(self._check_text(on_show))
        self.check_button.setEnabled(on_show.can_check)
        self.check_button.setVisible(on_show.phase is not Phase.REVEALED)
        self._show_reveal(on_show.reveal if on_show.phase is Phase.REVEALED else None)
        for widget in (self.kind, self.title, self.question):
            widget.show()

    def _ask(self, exercise: Exercise, on_show: ExerciseOnShow) -> None:
        box = self.answer_box
        if exercise.kind is ExerciseKind.CHALLENGE:
            box.ask_nothing()
            note = translate("ExerciseDetail", "The setup is on the controls: change the sliders, then run and check.")
            lines = [note, *(f"\u2022 {goal_text(goal)}" for goal in exercise.goals)]
            lines += [f"\u2022 {limit_text(limit)}" for limit in exercise.limits]
            self.goals.setText("\n".join(lines))
        elif exercise is not self._asked_for or box.answer() != on_show.answer:  # not while the learner types
            self._ask_answer(exercise, on_show)
        self._asked_for = exercise
        self.goals.setVisible(exercise.kind is ExerciseKind.CHALLENGE)
        box.set_locked(on_show.phase is not Phase.ASKING)

    def _ask_answer(self, exercise: Exercise, on_show: ExerciseOnShow) -> None:
        box, answer = self.answer_box, on_show.answer
        if exercise.choices:
            box.ask_choice([(c.key, c.text) for c in exercise.choices], answer if isinstance(answer, str) else None)
        else:
            figure = exercise.prediction.figure if exercise.prediction is not None else None
            box.ask_number(figure_unit(figure or ""), answer if isinstance(answer, float) else None)
        box.show()

    def _show_hints(self, exercise: Exercise, shown: int) -> None:
        hints = exercise.hints[:shown]
        numbered = translate("ExerciseDetail", "Hint {number}: {hint}")
        self.hints.setText("\n".join(numbered.format(number=grouped(i + 1), hint=hint) for i, hint in enumerate(hints)))
        self.hints.setVisible(bool(hints))
        left = len(exercise.hints) - shown
        more = translate("ExerciseDetail", "Show a hint ({left} left)").format(left=grouped(left))
        self.hint_button.setText(more if left else translate("ExerciseDetail", "No more hints"))
        self.hint_button.setEnabled(left > 0)
        self.hint_button.setVisible(bool(exercise.hints))

    @staticmethod
    def _check_text(on_show: ExerciseOnShow) -> str:
        if on_show.phase is Phase.RUNNING:
            return translate("ExerciseDetail", RUNNING)
        return translate("ExerciseDetail", CHECK if on_show.exercise.kind is ExerciseKind.QUIZ else RUN_AND_CHECK)

    def _show_reveal(self, reveal: Reveal | None) -> None:
        shown = reveal is not None
        for widget in (self.verdict, self.marks, self.explanation, self.again_button):
            widget.setVisible(shown)
        if reveal is None:
            self.said.hide()
            self.steps_button.hide()
            return
        self.verdict.setText(f"<b>{html.escape(reveal.verdict)}</b>")
        self.said.setText(reveal.said)
        self.said.setVisible(bool(reveal.said))
        self.marks.setText("\n".join(mark.line for mark in reveal.marks))
        self.explanation.setText(reveal.explanation)
        self.steps_button.show()

    def _show_nothing(self) -> None:
        self._asked_for = None
        self.answer_box.ask_nothing()
        for widget in (self.kind, self.title, self.goals, self.hints, self.hint_button, self.check_button):
            widget.hide()
        self._show_reveal(None)
        self.question.setText(
            translate("ExerciseDetail", "Choose an exercise above: predict what a run will show, then run it and see.")
        )

    def _label(self, name: str) -> QLabel:
        label = QLabel(self)
        label.setObjectName(name)
        label.setWordWrap(True)
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        return label

    def _button(self, name: str, clicked: SignalInstance, text: str = "") -> QPushButton:
        button = QPushButton(text, self)
        button.setObjectName(name)
        button.clicked.connect(clicked)
        return button

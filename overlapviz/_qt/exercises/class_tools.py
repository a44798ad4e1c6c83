"""The Exercises dock with a lab server: the instructor sends an exercise to the class and sees its predictions.

A learner following the instructor gets each exercise sent opened in the dock, with a notice;
their answer, once they commit it (Run and check), goes to the server with no name. The
instructor's window (the server answers it the class's predictions, and refuses a learner's)
gets "Send to the class" and a live histogram of the class's answers under the exercise.
"""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QLabel, QPushButton, QVBoxLayout, QWidget

from overlapviz._qt.exercises.class_histogram import ClassHistogramView
from overlapviz._qt.exercises.class_link import ClassLink
from overlapviz._qt.exercises.exercise_dock import ExerciseDock
from overlapviz._qt.lab.follow import LabFollow
from overlapviz._qt.themes import Theme
from overlapviz._qt.translation import translate
from overlapviz.app.exercise_class import SENT_NOTICE, ClassHistogram, ClassRounds, index_of
from overlapviz.app.exercise_session import ExerciseOnShow, Phase
from overlapviz.app.lab_connection import LabConnection, LabSettings
from overlapviz.app.ports import Messages
from overlapviz.core.i18n import _, grouped
from overlapviz.lab.client import LabClient, LabError
from overlapviz.lab.follow_client import ExerciseSent


class ClassBox(QWidget):
    """Send to the class, what became of it, and the class's predictions; hidden for a learner."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("exercise_class")
        self.send_button = QPushButton(translate("ClassBox", "Send to the class"), self)
        self.send_button.setObjectName("exercise_send")
        self.send_button.setToolTip(
            translate(
                "ClassBox",
                "Open this exercise on the screen of everyone following you;"
                " their predictions appear below, without names",
            )
        )
        self.said = QLabel("", self)
        self.said.setWordWrap(True)
        self.histogram = ClassHistogramView(self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        for widget in (self.send_button, self.said, self.histogram):
            layout.addWidget(widget)
        self.hide()


class ClassExerciseTools(QObject):
    """Connects the dock, the instructor's stream and the lab server for exercises put to the class."""

    def __init__(self, dock: ExerciseDock, follower: LabFollow, connection: LabConnection, messages: Messages) -> None:
        super().__init__(dock)
        self._dock, self._connection, self._messages = dock, connection, messages
        self.rounds = ClassRounds()
        self.link = ClassLink(self)
        self.box = ClassBox(dock.panel)
        layout = dock.panel.layout()
        if layout is not None:
            layout.addWidget(self.box)
        self.instructor: bool | None = None  # unknown until the server answers (or refuses) the predictions
        self._watching: str | None = None
        follower.exercise_sent.connect(self._on_sent)
        dock.session.changed.connect(self._on_show)
        dock.dock.visibilityChanged.connect(self._refresh)
        connection.settings_changed.connect(self._on_settings)
        self.box.send_button.clicked.connect(self.send)
        self.link.histogram.connect(self._show_histogram)
        self.link.role_found.connect(self._on_role)
        self.link.sent.connect(self._on_class_sent)
        self.link.failed.connect(self._on_failed)
        self.link.watch_failed.connect(self.box.said.setText)

    def _client(self) -> LabClient | None:
        try:
            return self._connection.client() if self._connection.settings is not None else None
        except LabError:
            return None

    # --- a learner following ---------------------------------------------------------------

    def _on_sent(self, sent: ExerciseSent) -> None:
        self.rounds.sent(sent.exercise, sent.round)
        session = self._dock.session
        index = index_of(session.exercises, sent.exercise)
        if index is None:
            missing = translate(
                "ClassExerciseTools",
                "Your instructor sent the exercise \u201c{name}\u201d, which this version of overlapviz does not have",
            )
            self._messages.show_error(missing.format(name=sent.exercise))
            return
        self._dock.open()
        session.choose(index)
        self._messages.show_notice(_(SENT_NOTICE).format(title=session.exercises[index].title))

    def _on_show(self, on_show: ExerciseOnShow | None) -> None:
        prediction = self.rounds.prediction_to_send(on_show)
        client = self._client()
        if prediction is not None and client is not None and self.instructor is not True:
            self.link.predict(client, *prediction)
        self._refresh()

    # --- the instructor ------------------------------------------------------------------------

    def send(self) -> None:
        """Send the exercise on show to everyone following."""
        on_show, client = self._dock.session.on_show, self._client()
        if on_show is None or client is None:
            return
        self.box.said.setText(translate("ClassExerciseTools", "Sending\u2026"))
        self.link.send(client, on_show.exercise.name)

    def _on_class_sent(self, name: str, round_number: int) -> None:
        said = translate("ClassExerciseTools", "Sent to the class as round {round}: their predictions come in below")
        self.box.said.setText(said.format(round=grouped(round_number)))
        self._watching = None  # ask afresh: the new round has none yet
        self._refresh()

    def _refresh(self, *_ignored: object) -> None:
        """Watch the class's predictions of the exercise on show while the dock shows it and the role allows."""
        on_show, client = self._dock.session.on_show, self._client()
        name = on_show.exercise.name if on_show is not None else None
        if name is None or client is None or self.instructor is False or not self._dock.dock.isVisible():
            self.link.stop_watching()
            self._watching = None
            self.box.setVisible(bool(self.instructor) and name is not None)
            return
        if name != self._watching:
            self._watching = name
            self.box.histogram.set_histogram(None)
            self.link.watch(client, name)
        self._show_histogram(self.box.histogram.histogram)

    def _show_histogram(self, histogram: ClassHistogram | None) -> None:
        on_show = self._dock.session.on_show
        if histogram is not None and (on_show is None or histogram.exercise != on_show.exercise.name):
            return  # an answer for the exercise on show before
        revealed = on_show is not None and on_show.phase is Phase.REVEALED
        self.box.histogram.set_histogram(histogram, show_measured=revealed)

    def _on_role(self, instructor: bool) -> None:
        self.instructor = instructor
        self.box.setVisible(instructor)
        if not instructor:
            self._refresh()

    def _on_settings(self, _settings: LabSettings | None) -> None:
        self.instructor, self._watching = None, None  # another server or credential: ask again
        self._refresh()

    def _on_failed(self, reason: str) -> None:
        self.box.said.setText(reason)
        if not self.box.isVisible():
            self._messages.show_error(
                translate("ClassExerciseTools", "The class's exercise: {reason}").format(reason=reason)
            )

    def set_theme(self, theme: Theme) -> None:
        """Draw the histogram in `theme`'s colours."""
        self.box.histogram.set_theme(theme)

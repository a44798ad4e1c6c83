"""Exercises put to the class, in the window, against a real lab server on the model: no server is faked."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QColor
from pytestqt.qtbot import QtBot

from overlapviz._qt.exercises.class_histogram import BAR_COLOURS
from overlapviz._qt.main_window import MainWindow
from overlapviz.app.exercise_class import SENT_NOTICE, index_of
from overlapviz.app.exercise_session import Phase
from overlapviz.app.lab_connection import LabSettings
from overlapviz.exercises import get_exercise
from tests.lab.lab_client_server import LabAccess, access
from tests.lab.lab_server import LabServer, shared_lab_server  # noqa: F401 (the server fixture)

WAIT_MS = 60_000  # a run through a child process on a loaded machine
QUIZ, NUMBER = "pinned-reuse", "pinned-bandwidth"


@pytest.fixture
def server(lab_server: LabServer) -> LabAccess:
    return access(lab_server)


def test_a_following_learner_gets_the_sent_exercise_and_their_answer_counts(
    window: MainWindow, qtbot: QtBot, server: LabAccess
) -> None:
    window.model.set_live(False)
    window.lab_tools.use(LabSettings(server.url, server.join_code))
    instructor = server.client(server.instructor_token, "instructor")
    before = instructor.status()["followers"]
    window.lab_tools.follow_action.trigger()
    qtbot.waitUntil(lambda: instructor.status()["followers"] > before, timeout=WAIT_MS)
    sent = instructor.send_exercise(QUIZ)
    dock, tools = window.exercises, window.class_exercises
    qtbot.waitUntil(lambda: dock.session.on_show is not None and dock.session.on_show.exercise.name == QUIZ)
    assert dock.dock.isVisible()
    assert window.statusBar().currentMessage() == SENT_NOTICE.format(title=get_exercise(QUIZ).title)
    qtbot.waitUntil(lambda: tools.instructor is False)  # the server refuses a learner the class's predictions
    assert not tools.box.isVisible()
    right = get_exercise(QUIZ).answer
    dock.session.answer(right)
    assert dock.session.check()
    qtbot.waitUntil(lambda: dock.session.on_show.phase is Phase.REVEALED)
    counted = {}

    def answer_counted() -> bool:
        counted.update(instructor.class_predictions(QUIZ))
        return counted["count"] == 1

    qtbot.waitUntil(answer_counted, timeout=WAIT_MS)
    assert counted["round"] == sent["round"]
    assert {bar["answer"]: bar["count"] for bar in counted["histogram"]}[right] == 1
    window.lab_tools.follow_action.trigger()


def test_the_instructor_sends_and_sees_the_class_histogram(window: MainWindow, qtbot: QtBot, server: LabAccess) -> None:
    window.model.set_live(False)
    window.lab.set(LabSettings(server.url, server.instructor_token))
    dock, tools = window.exercises, window.class_exercises
    dock.open()
    assert dock.session.choose(index_of(dock.session.exercises, NUMBER))
    qtbot.waitUntil(tools.box.isVisible, timeout=WAIT_MS)
    assert tools.instructor is True
    tools.box.send_button.click()
    qtbot.waitUntil(lambda: "round" in tools.box.said.text(), timeout=WAIT_MS)
    instructor = server.client(server.instructor_token, "instructor")
    round_number = instructor.class_predictions(NUMBER)["round"]
    guesses = [20.0, 50.0, 52.0, 80.0]
    for index, guess in enumerate(guesses):
        server.client(client_id=f"class-{index}").predict(NUMBER, round_number, guess)
    view = tools.box.histogram
    qtbot.waitUntil(lambda: view.histogram is not None and view.histogram.count == len(guesses), timeout=WAIT_MS)
    assert view.histogram.round == round_number and sum(bar.count for bar in view.histogram.bars) == len(guesses)
    assert view.histogram.heading == f"The class: {len(guesses)} predictions (round {round_number})"
    assert "class-" not in " ".join(bar.label for bar in view.histogram.bars)
    picture = view.grab().toImage()
    fill = QColor(BAR_COLOURS["light"])
    assert any(
        picture.pixelColor(x, y) == fill for x in range(0, picture.width(), 3) for y in range(0, picture.height(), 3)
    ), "the bars are drawn"

"""A new picture is built in one turn of the event loop and painted in the next: what came due meanwhile goes first."""

import time

import pytest
from paint_probes import window_timeline
from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QColor, QPainter
from PySide6.QtWidgets import QVBoxLayout, QWidget
from qt_traces import two_chunk_trace

from overlapviz._qt.themes import THEMES
from overlapviz._qt.timeline.paint_turn import PaintTurn
from overlapviz._qt.timeline.widget import TimelineWidget
from overlapviz.view.prepared import prepare_trace

RED = "#ff0000"


class _Red(QWidget):
    """Paints itself red (whatever style the application has)."""

    def paintEvent(self, _event):  # noqa: N802 (Qt's name)
        QPainter(self).fillRect(self.rect(), QColor(RED))


@pytest.fixture
def red_inside(qtbot):
    """A window with a red child, shown."""
    window = QWidget()
    child = _Red(window)
    QVBoxLayout(window).addWidget(child)
    qtbot.addWidget(window)
    window.resize(200, 200)
    window.show()
    qtbot.waitExposed(window)
    return window, child


def _centre_colour(window):
    return window.grab().toImage().pixelColor(100, 100).name()


def test_a_held_widget_is_left_out_of_its_window_until_the_next_turn(red_inside, qtbot):
    window, child = red_inside
    turn = PaintTurn(child)
    released = []
    turn.hold()
    turn.when_released(lambda: released.append(_centre_colour(window)))
    assert turn.holding and not child.updatesEnabled()
    assert _centre_colour(window) != RED  # held: not painted, even into a grab
    qtbot.waitUntil(lambda: bool(released), timeout=2000)
    assert released == [RED]  # by the time it says so, it paints
    assert not turn.holding and child.updatesEnabled()


def test_with_nothing_held_the_callback_comes_at_once(red_inside):
    _window, child = red_inside
    called = []
    PaintTurn(child).when_released(lambda: called.append(True))
    assert called == [True]


def test_a_second_hold_does_not_make_the_first_longer(red_inside, qtbot):
    _window, child = red_inside
    turn = PaintTurn(child)
    order = []
    turn.hold()
    turn.when_released(lambda: order.append("first"))
    turn.hold()
    turn.when_released(lambda: order.append("second"))
    qtbot.waitUntil(lambda: len(order) == 2, timeout=2000)
    assert order == ["first", "second"]
    assert child.updatesEnabled()


class _PostedCall(QObject):
    """Notes when a posted event reaches it (a paint Qt posts is handled as such an event)."""

    def __init__(self, order):
        super().__init__()
        self.order = order

    def event(self, event):
        if event.type() == QEvent.Type.User:
            self.order.append("posted")
            return True
        return super().event(event)


def test_a_timer_that_came_due_while_the_picture_was_built_goes_before_its_paint(red_inside, qtbot):
    """What the turn is for: the window answers (a timer, input) between building a picture and painting it."""
    _window, child = red_inside
    order = []
    due = QTimer(singleShot=True, interval=5)
    due.setTimerType(Qt.TimerType.PreciseTimer)
    due.timeout.connect(lambda: order.append("due timer"))
    turn = PaintTurn(child)
    posted = _PostedCall(order)
    due.start()
    began = time.perf_counter()
    while time.perf_counter() - began < 0.02:  # the picture is built: the timer comes due meanwhile
        pass
    turn.hold()
    turn.when_released(lambda: (order.append("released"), QCoreApplication.postEvent(posted, QEvent(QEvent.Type.User))))
    qtbot.waitUntil(lambda: "posted" in order, timeout=2000)
    assert order == ["due timer", "released", "posted"]


def test_the_window_timeline_says_drawn_once_the_picture_may_paint(qtbot):
    timeline = window_timeline(qtbot, 800, 400)
    plot = timeline.findChild(QWidget, "timeline_plot")
    painted_when_drawn = []
    timeline.drawn.connect(lambda: painted_when_drawn.append(plot.updatesEnabled()))
    with qtbot.waitSignal(timeline.drawn, timeout=2000):
        timeline.set_view(prepare_trace(two_chunk_trace()))
        assert painted_when_drawn == [] and not plot.updatesEnabled()  # built; its paint waits for the next turn
    assert painted_when_drawn == [True]


def test_a_timeline_shown_alone_draws_at_once(qtbot):
    timeline = TimelineWidget(THEMES["light"])
    qtbot.addWidget(timeline)
    drawn = []
    timeline.drawn.connect(lambda: drawn.append(True))
    timeline.set_view(prepare_trace(two_chunk_trace()))
    assert drawn == [True]  # an export's timeline, rendered straight after

"""Work put off to a turn of its own runs after the timers already due, not with the posted calls."""

import time

from PySide6.QtCore import QObject, Qt, QTimer

from overlapviz._qt.event_turns import in_a_turn_of_its_own


def test_put_off_work_comes_after_the_posted_calls_and_the_timers_due_before_it(qtbot):
    context, order = QObject(), []
    due = QTimer(singleShot=True, interval=1)
    due.setTimerType(Qt.TimerType.PreciseTimer)
    due.timeout.connect(lambda: order.append("a timer due before"))
    due.start()
    time.sleep(0.005)  # the timer is due now, as after a long handler
    in_a_turn_of_its_own(context, lambda: order.append("put off"))
    QTimer.singleShot(0, context, lambda: order.append("a posted call"))
    qtbot.waitUntil(lambda: "put off" in order, timeout=2000)
    assert order == ["a posted call", "a timer due before", "put off"]


def test_nothing_is_called_once_its_context_is_gone(qtbot):
    context, called = QObject(), []
    in_a_turn_of_its_own(context, lambda: called.append(True))
    context.deleteLater()
    qtbot.wait(50)
    assert called == []

"""What the paint tests share: a counter of a widget's paints, and a timeline shown as the window's are."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QWidget

from overlapviz._qt.themes import THEMES
from overlapviz._qt.timeline.widget import TimelineWidget


class Paints(QObject):
    """Counts the paints of the widgets it watches (a second paint of one change is another stretch of work)."""

    def __init__(self, *watched: QWidget) -> None:
        super().__init__()
        self.count = 0
        for widget in watched:
            widget.installEventFilter(self)

    def eventFilter(self, _watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        if event.type() == QEvent.Type.Paint:
            self.count += 1
        return False


def window_timeline(qtbot, width: int = 1000, height: int = 600) -> TimelineWidget:  # type: ignore[no-untyped-def]
    """A timeline shown and painting each new picture in a turn of its own, as the window's do."""
    timeline = TimelineWidget(THEMES["light"])
    qtbot.addWidget(timeline)
    timeline.resize(width, height)
    timeline.show()
    qtbot.waitExposed(timeline)
    timeline.paint_in_own_turn()
    return timeline

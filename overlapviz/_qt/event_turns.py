"""Work put off to a turn of the event loop of its own, after the timers and input already due.

Qt's event loop handles, in one pass, every call posted to it (queued signals, a zero-time
`QTimer.singleShot`) and every repaint those calls ask for, and only then the timers and the
input that came due meanwhile. Work put off with a zero-time single shot therefore runs in
the same stretch as the handler that put it off: after a file's picture was shown (14 ms on
a 10^6-span trace), freeing the old picture (7 ms) and writing the recent-files list (3 ms)
followed at once, and the window answered nothing for 44 ms. A timer of `TURN_MS` comes due
after the ones already due, so each such piece of work gets a stretch of its own.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer

TURN_MS = 1  # a timer's turn: after the timers and input that came due before it


def in_a_turn_of_its_own(context: QObject, call: Callable[[], object]) -> None:
    """Call `call` on `context`'s thread in a later turn of the event loop (not at all once `context` is gone)."""
    QTimer.singleShot(TURN_MS, context, call)  # Qt times single shots under 2 s precisely

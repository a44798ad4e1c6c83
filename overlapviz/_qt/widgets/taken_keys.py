"""Keys a mode takes before any widget or shortcut sees them (the lesson's arrows, step-through's).

Presentation mode and step-through watch the whole application's events while they are on.
A plain key they own is taken twice over: its ShortcutOverride is accepted, so that Qt
delivers it as a key press rather than as some widget's shortcut, and its key press runs the
mode's action. Keys with a modifier (other than the keypad's) are left to the rest.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QKeyEvent


def take_key(event: QEvent, keys: Mapping[Qt.Key, Callable[[], object]]) -> bool:
    """Whether `event` is one of `keys`, taken (its action run on the key press); for an event filter."""
    if not isinstance(event, QKeyEvent) or event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier:
        return False
    action = keys.get(Qt.Key(event.key()))
    if action is None:
        return False
    if event.type() == QEvent.Type.ShortcutOverride:
        event.accept()  # deliver it as a key press, not as some widget's shortcut
        return True
    if event.type() == QEvent.Type.KeyPress:
        action()
        return True
    return False

"""The window's own menus that the teaching tools and the exercises join, found by what they are.

A menu's title is in the user's language ("&View" reads "视图(&V)" in Chinese), so no title
finds a menu here: the Run menu has an object name, and the View menu is the one that holds
the Time window menu (which has an object name of its own).
"""

from __future__ import annotations

from PySide6.QtWidgets import QMainWindow, QMenu


def run_menu(window: QMainWindow) -> QMenu | None:
    """The window's Run menu (None when the window has none)."""
    return window.findChild(QMenu, "run_menu")


def view_menu(window: QMainWindow) -> QMenu | None:
    """The window's View menu (None when the window has none)."""
    time_window = window.findChild(QMenu, "time_window_menu")
    if time_window is None:
        return None
    held_by = time_window.menuAction()
    return next((menu for menu in window.findChildren(QMenu) if held_by in menu.actions()), None)

"""The actions of a job's ranks: File ▸ Open folder, View ▸ Back to the ranks, Compare ▸ Compare ranks."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMenu

COMPARE_RANKS_KEYS = "Ctrl+Shift+R"  # free beside Ctrl+Shift+C (Copy picture); R as in the menu's "&ranks"


@dataclass(frozen=True)
class RankActions:
    """What the window offers for a job of many ranks."""

    open_folder: QAction
    back_to_ranks: QAction
    compare_ranks: QAction


def build_rank_actions(window: QMainWindow) -> RankActions:
    """The actions, in the menus they belong to (after File ▸ Open, at the end of View and Compare)."""
    actions = RankActions(
        open_folder=_action(
            window, "Open &folder\u2026", ["Ctrl+Shift+O"],
            "A folder of a job's traces, one per rank: an overview of every rank, each read in a worker process",
        ),
        back_to_ranks=_action(
            window, "&Back to the ranks", ["Alt+Left", "Backspace"],
            "The overview of the job's ranks again, as it was (nothing is read again)",
        ),
        compare_ranks=_action(
            window, "Compare &ranks", [COMPARE_RANKS_KEYS],
            f"The two ranks selected in the overview on one time axis, the job's clock ({COMPARE_RANKS_KEYS})",
        ),
    )  # fmt: skip
    _place(window, actions)
    # as the window's other actions: their shortcuts work with the menu bar hidden (presentation mode)
    window.addActions([actions.open_folder, actions.back_to_ranks, actions.compare_ranks])
    return actions


def _action(window: QMainWindow, text: str, shortcuts: list[str], tip: str) -> QAction:
    action = QAction(text, window)
    action.setShortcuts([QKeySequence(s) for s in shortcuts])
    action.setStatusTip(tip)
    action.setToolTip(tip)
    return action


def _place(window: QMainWindow, a: RankActions) -> None:
    menus = {menu.title(): menu for menu in window.menuBar().findChildren(QMenu)}
    file_menu = menus.get("&File")
    if file_menu is not None:
        after_open = next((act for act in file_menu.actions() if act.menu() is not None), None)  # Open recent
        if after_open is None:
            file_menu.addAction(a.open_folder)
        else:
            file_menu.insertAction(after_open, a.open_folder)
    for title, action in (("&View", a.back_to_ranks), ("&Compare", a.compare_ranks)):
        menu = menus.get(title)
        if menu is not None:
            menu.addSeparator()
            menu.addAction(action)

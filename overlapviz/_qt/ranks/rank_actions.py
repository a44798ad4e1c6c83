"""The actions of a job's ranks: File ▸ Open folder, View ▸ Back to the ranks, Compare ▸ Compare ranks."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMenu

from overlapviz._qt.translation import translate

COMPARE_RANKS_KEYS = "Ctrl+Shift+R"  # free beside Ctrl+Shift+C (Copy picture); R as in the menu's "&ranks"


@dataclass(frozen=True)
class RankActions:
    """What the window offers for a job of many ranks."""

    open_folder: QAction
    back_to_ranks: QAction
    compare_ranks: QAction


def build_rank_actions(window: QMainWindow) -> RankActions:
    """The actions, in the menus they belong to (after File ▸ Open, at the end of View and Compare)."""
    compare_tip = translate(
        "RankActions", "The two ranks selected in the overview on one time axis, the job's clock ({keys})"
    )
    actions = RankActions(
        open_folder=_action(
            window, translate("RankActions", "Open &folder\u2026"), ["Ctrl+Shift+O"],
            translate(
                "RankActions",
                "A folder of a job's traces, one per rank: an overview of every rank, each read in a worker process",
            ),
        ),
        back_to_ranks=_action(
            window, translate("RankActions", "&Back to the ranks"), ["Alt+Left", "Backspace"],
            translate("RankActions", "The overview of the job's ranks again, as it was (nothing is read again)"),
        ),
        compare_ranks=_action(
            window, translate("RankActions", "Compare &ranks"), [COMPARE_RANKS_KEYS],
            compare_tip.format(keys=COMPARE_RANKS_KEYS),
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


def _menu(window: QMainWindow, name: str) -> QMenu | None:
    """The window's menu with object name `name`: found by name, since its title is in the user's language."""
    return window.findChild(QMenu, name)


def _place(window: QMainWindow, a: RankActions) -> None:
    file_menu = _menu(window, "file_menu")
    if file_menu is not None:
        after_open = next((act for act in file_menu.actions() if act.menu() is not None), None)  # Open recent
        if after_open is None:
            file_menu.addAction(a.open_folder)
        else:
            file_menu.insertAction(after_open, a.open_folder)
    for name, action in (("view_menu", a.back_to_ranks), ("compare_menu", a.compare_ranks)):
        menu = _menu(window, name)
        if menu is not None:
            menu.addSeparator()
            menu.addAction(action)

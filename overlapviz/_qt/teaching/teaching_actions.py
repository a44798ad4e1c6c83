"""The teaching tools' actions, with their shortcuts, in the menus and on the toolbar.

Compare (pin A, compare with a file, pageable vs pinned, stop comparing), the lessons,
explanations on the timeline, replay, the bandwidth plot and presentation mode.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QComboBox, QMainWindow, QMenu, QToolBar

from overlapviz._qt.teaching.replay import DEFAULT_SPEED, SPEEDS
from overlapviz._qt.teaching.window_menus import run_menu, view_menu
from overlapviz._qt.translation import translate, without_mnemonic
from overlapviz.presets import Preset


@dataclass
class TeachingActions:
    """Every action of the teaching tools."""

    pin_a: QAction
    compare_file: QAction
    pageable_vs_pinned: QAction
    unpin: QAction
    shared_axis: QAction
    own_axis: QAction
    explanations: QAction
    replay_play: QAction
    replay_restart: QAction
    bandwidth: QAction
    presentation: QAction
    next_lesson: QAction
    previous_lesson: QAction
    lessons: list[QAction]
    replay_speed: QComboBox
    toolbar: QToolBar


def _action(window: QMainWindow, text: str, shortcut: str = "", tip: str = "", checkable: bool = False) -> QAction:
    action = QAction(text, window)
    if shortcut:
        action.setShortcut(QKeySequence(shortcut))
    action.setToolTip(f"{tip or without_mnemonic(text)} ({shortcut})" if shortcut else tip or without_mnemonic(text))
    action.setStatusTip(tip)
    action.setCheckable(checkable)
    return action


def build_teaching_actions(window: QMainWindow, lessons: list[Preset]) -> TeachingActions:
    """Create the actions, their menus and the toolbar."""
    speed = QComboBox(window)
    speed.setObjectName("replay_speed")
    speed.setToolTip(translate("TeachingActions", "How fast the replay plays"))
    for choice in SPEEDS:
        speed.addItem(translate("ReplaySpeed", choice.title))
    speed.setCurrentIndex(DEFAULT_SPEED)
    actions = TeachingActions(
        pin_a=_action(
            window, translate("TeachingActions", "&Pin this run as A"), "Ctrl+P",
            translate("TeachingActions", "Keep this run on show as A; change anything and run B"),
        ),
        compare_file=_action(
            window, translate("TeachingActions", "Compare with a &file\u2026"),
            tip=translate(
                "TeachingActions", "Keep what is on show as A and open a trace or session as B (before / after)"
            ),
        ),
        pageable_vs_pinned=_action(
            window, translate("TeachingActions", "Pageable &vs pinned"), "Ctrl+Shift+P",
            translate("TeachingActions", "Run this pipeline from pageable memory (A) and from pinned memory (B)"),
        ),
        unpin=_action(
            window, translate("TeachingActions", "&Stop comparing"), "Ctrl+Shift+U",
            translate("TeachingActions", "Back to one timeline"),
        ),
        shared_axis=_action(
            window, translate("TeachingActions", "Sh&ared time axis"),
            tip=translate("TeachingActions", "A and B on one time axis: one time, one x in both"), checkable=True,
        ),
        own_axis=_action(
            window, translate("TeachingActions", "Each side on its &own axis"),
            tip=translate(
                "TeachingActions", "A and B each fitted to its own run: a short run gets the whole width; x differs"
            ),
            checkable=True,
        ),
        explanations=_action(
            window, translate("TeachingActions", "&Explanations on the timeline"), "Ctrl+Shift+X",
            translate("TeachingActions", "Draw the findings as callouts on their spans"), checkable=True,
        ),
        replay_play=_action(
            window, translate("TeachingActions", "&Replay"), "F6",
            translate("TeachingActions", "Play the run back slowly, spans appearing as they start"), checkable=True,
        ),
        replay_restart=_action(window, translate("TeachingActions", "Replay from the &start"), "Shift+F6"),
        bandwidth=_action(
            window, translate("TeachingActions", "&Bandwidth vs transfer size\u2026"), "Ctrl+B",
            translate(
                "TeachingActions", "H2D and D2H bandwidth by copy size, pinned and pageable, on the chosen device"
            ),
        ),
        presentation=_action(
            window, translate("TeachingActions", "&Presentation mode"), "F5",
            translate(
                "TeachingActions", "Full screen, projector theme, large type; arrow keys step through the lessons"
            ),
            checkable=True,
        ),
        next_lesson=_action(window, translate("TeachingActions", "&Next lesson"), "Ctrl+]"),
        previous_lesson=_action(window, translate("TeachingActions", "P&revious lesson"), "Ctrl+["),
        lessons=[_action(window, f"&{preset.lesson}. {preset.title}" if (preset.lesson or 0) < 10
                         else f"{preset.lesson}. {preset.title}", tip=preset.text) for preset in lessons],
        replay_speed=speed,
        toolbar=QToolBar(translate("TeachingActions", "Teaching"), window),
    )  # fmt: skip
    actions.explanations.setChecked(True)
    actions.unpin.setEnabled(False)
    axes = QActionGroup(window)
    for action in (actions.shared_axis, actions.own_axis):
        axes.addAction(action)
    actions.shared_axis.setChecked(True)
    _build_menus(window, actions)
    _build_toolbar(window, actions)
    # Their shortcuts must work with the menu bar and toolbar hidden (presentation mode).
    window.addActions([a for a in vars(actions).values() if isinstance(a, QAction)] + actions.lessons)
    return actions


def _build_menus(window: QMainWindow, a: TeachingActions) -> None:
    bar = window.menuBar()
    compare = QMenu(translate("TeachingActions", "&Compare"), window)
    compare.setObjectName("compare_menu")
    compare.addActions([a.pin_a, a.compare_file, a.pageable_vs_pinned, a.unpin])
    compare.addSeparator()
    compare.addActions([a.shared_axis, a.own_axis])
    lessons = QMenu(translate("TeachingActions", "L&essons"), window)
    lessons.setObjectName("lessons_menu")
    lessons.addActions(a.lessons)
    lessons.addSeparator()
    lessons.addActions([a.previous_lesson, a.next_lesson])
    view, run = view_menu(window), run_menu(window)
    before = None if view is None else view.menuAction()  # View and Help stay last
    for menu in (compare, lessons):
        bar.insertMenu(before, menu) if before is not None else bar.addMenu(menu)
    if run is not None:
        run.addSeparator()
        run.addActions([a.replay_play, a.replay_restart])
    if view is not None:
        view.setToolTipsVisible(True)  # a greyed action's tooltip says why (the bandwidth sweep on the lab GPU)
        view.addSeparator()
        view.addActions([a.explanations, a.bandwidth, a.presentation])


def _build_toolbar(window: QMainWindow, a: TeachingActions) -> None:
    toolbar = a.toolbar
    toolbar.setObjectName("teaching_toolbar")
    toolbar.setMovable(False)
    toolbar.addActions([a.pin_a, a.pageable_vs_pinned, a.unpin])
    toolbar.addSeparator()
    toolbar.addAction(a.explanations)
    toolbar.addSeparator()
    toolbar.addActions([a.replay_play, a.replay_restart])
    toolbar.addWidget(a.replay_speed)
    toolbar.addSeparator()
    toolbar.addActions([a.bandwidth, a.presentation])
    window.addToolBar(toolbar)

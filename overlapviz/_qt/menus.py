"""The window's actions, with their shortcuts, arranged in the File, Edit, Run, View and Help menus.

Every entry's words are the window's language's (`translation.translate`), read as the window
is built; View ▸ Language names each language in its own words (`language_menu`).

Also what fills File ▸ Open recent and what the File menu's actions do.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMenu

from overlapviz._qt.files.file_actions import FileActions
from overlapviz._qt.language_menu import native_name
from overlapviz._qt.themes import THEMES
from overlapviz._qt.translation import SYSTEM_LANGUAGE, translate
from overlapviz.core.i18n import available_languages


@dataclass
class WindowActions:
    """Every action of the main window."""

    open: QAction
    save_session: QAction
    recent_menu: QMenu
    export_png: QAction
    export_svg: QAction
    copy_image: QAction
    export_trace: QAction
    export_csv: QAction
    quit: QAction
    undo: QAction
    redo: QAction
    reset_defaults: QAction
    run: QAction
    live: QAction
    release_buffers: QAction
    reset_view: QAction
    zoom_to_device_work: QAction
    time_window_menu: QMenu
    whole_trace: QAction
    window_on_show: QAction
    bigger_text: QAction
    smaller_text: QAction
    normal_text: QAction
    themes: dict[str, QAction]
    languages: dict[str, QAction]  # by code; `translation.SYSTEM_LANGUAGE` follows the locale
    help_shortcuts: QAction
    help_glossary: QAction


def _action(
    window: QMainWindow, text: str, *shortcuts: QKeySequence | QKeySequence.StandardKey | str, tip: str = ""
) -> QAction:
    action = QAction(text, window)
    action.setShortcuts([QKeySequence(s) for s in shortcuts])
    action.setStatusTip(tip)
    return action


def build_actions(window: QMainWindow) -> WindowActions:
    """Create the actions and the menus that hold them."""
    std = QKeySequence.StandardKey
    actions = WindowActions(
        open=_action(window, translate("MainWindow", "&Open session or trace\u2026"), std.Open),
        save_session=_action(window, translate("MainWindow", "&Save session\u2026"), std.Save),
        recent_menu=QMenu(translate("MainWindow", "Open &recent"), window),
        export_png=_action(
            window, translate("MainWindow", "Export &PNG\u2026"), "Ctrl+E",
            tip=translate("MainWindow", "1920 or 3840 px, for slides"),
        ),
        export_svg=_action(window, translate("MainWindow", "Export S&VG\u2026"), "Ctrl+Shift+E"),
        copy_image=_action(window, translate("MainWindow", "&Copy picture"), "Ctrl+Shift+C"),
        export_trace=_action(
            window, translate("MainWindow", "Export Chrome &trace\u2026"), "Ctrl+Shift+T",
            tip=translate("MainWindow", "Opens in Perfetto"),
        ),
        export_csv=_action(window, translate("MainWindow", "Export C&SV\u2026")),
        quit=_action(window, translate("MainWindow", "&Quit"), std.Quit),
        undo=_action(
            window, translate("MainWindow", "&Undo control change"), "Ctrl+Z",
            tip=translate("MainWindow", "Put the controls back as they were"),
        ),
        redo=_action(
            window, translate("MainWindow", "&Redo control change"), "Ctrl+Shift+Z", "Ctrl+Y",
            tip=translate("MainWindow", "Make the undone change again"),
        ),
        reset_defaults=_action(
            window, translate("MainWindow", "Reset to &defaults"),
            tip=translate(
                "MainWindow", "Forget the remembered settings: the default pipeline, device, looks and language"
            ),
        ),
        run=_action(window, translate("MainWindow", "&Run"), "Ctrl+Return", "Ctrl+R"),
        live=_action(
            window, translate("MainWindow", "&Live"), "Ctrl+L", tip=translate("MainWindow", "Run again on every change")
        ),
        release_buffers=_action(
            window, translate("MainWindow", "Release &buffers"),
            tip=translate("MainWindow", "Give back the pinned and device memory kept for the next run on the GPU"),
        ),
        reset_view=_action(
            window, translate("MainWindow", "Reset &timeline view"), "Home",
            tip=translate("MainWindow", "The whole run, from its start to its end"),
        ),
        zoom_to_device_work=_action(
            window, translate("MainWindow", "Zoom to &GPU work"), "G",
            tip=translate("MainWindow", "From the first copy or kernel's start to the last one's end"),
        ),
        time_window_menu=QMenu(translate("MainWindow", "Time &window"), window),
        whole_trace=_action(
            window, translate("MainWindow", "&Whole trace"), "Esc",
            tip=translate("MainWindow", "The figures and findings of the whole run"),
        ),
        window_on_show=_action(
            window, translate("MainWindow", "What the timeline &shows"),
            tip=translate("MainWindow", "The figures and findings of the time the timeline shows now"),
        ),
        bigger_text=_action(window, translate("MainWindow", "&Bigger text"), std.ZoomIn, "Ctrl+="),
        smaller_text=_action(window, translate("MainWindow", "&Smaller text"), std.ZoomOut),
        normal_text=_action(window, translate("MainWindow", "&Normal text size"), "Ctrl+0"),
        themes={name: _action(window, translate("Theme", theme.title)) for name, theme in THEMES.items()},
        languages=_language_actions(window),
        help_shortcuts=_action(window, translate("MainWindow", "&Help and keyboard shortcuts"), "F1"),
        help_glossary=_action(
            window, translate("MainWindow", "&Glossary"),
            tip=translate("MainWindow", "Pinned, pageable, legacy stream, ...: what each means"),
        ),
    )  # fmt: skip
    actions.live.setCheckable(True)
    _build_menus(window, actions)
    # Their shortcuts must work with the menu bar hidden (presentation mode) and before it is shown;
    # Home is the timeline's alone (the window adds it there), so that a focused slider keeps its own.
    window.addActions([a for a in vars(actions).values() if isinstance(a, QAction) and a is not actions.reset_view])
    return actions


def _language_actions(window: QMainWindow) -> dict[str, QAction]:
    """View ▸ Language's entries: the locale's language, then each one shipped, named in its own words."""
    actions = {
        SYSTEM_LANGUAGE: _action(
            window, translate("MainWindow", "&System language"),
            tip=translate("MainWindow", "The language of the system's locale (LANGUAGE, LC_ALL, LC_MESSAGES, LANG)"),
        )
    }  # fmt: skip
    for code in available_languages():
        actions[code] = _action(window, native_name(code).replace("&", "&&"))
    return actions


def _build_menus(window: QMainWindow, a: WindowActions) -> None:
    bar = window.menuBar()
    # each menu has a name to be found by: its title is in the user's language
    file_menu = bar.addMenu(translate("MainWindow", "&File"))
    file_menu.setObjectName("file_menu")
    file_menu.addActions([a.open])
    file_menu.addMenu(a.recent_menu)
    file_menu.addAction(a.save_session)
    file_menu.addSeparator()
    file_menu.addActions([a.export_png, a.export_svg, a.copy_image, a.export_trace, a.export_csv])
    file_menu.addSeparator()
    file_menu.addAction(a.quit)
    edit_menu = bar.addMenu(translate("MainWindow", "&Edit"))
    edit_menu.setObjectName("edit_menu")
    edit_menu.addActions([a.undo, a.redo])
    edit_menu.addSeparator()
    edit_menu.addAction(a.reset_defaults)
    run_menu = bar.addMenu(translate("MainWindow", "&Run"))
    run_menu.setObjectName("run_menu")  # the lab GPU's actions join it (`lab.tools`)
    run_menu.addActions([a.run, a.live])
    run_menu.addSeparator()
    run_menu.addAction(a.release_buffers)
    view_menu = bar.addMenu(translate("MainWindow", "&View"))
    view_menu.setObjectName("view_menu")
    view_menu.addActions([a.reset_view, a.zoom_to_device_work])
    view_menu.addMenu(a.time_window_menu)
    a.time_window_menu.setObjectName("time_window_menu")
    view_menu.addSeparator()
    view_menu.addActions([a.bigger_text, a.smaller_text, a.normal_text])
    theme_menu = view_menu.addMenu(translate("MainWindow", "&Theme"))
    group = QActionGroup(window)
    for action in a.themes.values():
        action.setCheckable(True)
        group.addAction(action)
        theme_menu.addAction(action)
    language_menu = view_menu.addMenu(translate("MainWindow", "&Language"))
    language_menu.setObjectName("language_menu")
    language_menu.addAction(a.languages[SYSTEM_LANGUAGE])
    language_menu.addSeparator()
    language_menu.addActions([action for code, action in a.languages.items() if code != SYSTEM_LANGUAGE])
    help_menu = bar.addMenu(translate("MainWindow", "&Help"))
    help_menu.setObjectName("help_menu")
    help_menu.addActions([a.help_shortcuts, a.help_glossary])


def fill_recent_menu(menu: QMenu, paths: list[Path], open_path: Callable[[Path], object]) -> None:
    """File ▸ Open recent: one entry per path, newest first (disabled when there are none)."""
    menu.clear()
    for path in paths:
        action = menu.addAction(str(path))
        action.triggered.connect(partial(open_path, path))
    menu.setEnabled(bool(paths))


def connect_file_menu(a: WindowActions, files: FileActions) -> None:
    """The File menu's actions do what `files` does (each asks for its path)."""
    a.open.triggered.connect(lambda: files.open())
    a.save_session.triggered.connect(lambda: files.save_session())
    a.export_png.triggered.connect(lambda: files.export_png())
    a.export_svg.triggered.connect(lambda: files.export_svg())
    a.copy_image.triggered.connect(files.copy_image)
    a.export_trace.triggered.connect(lambda: files.export_trace())
    a.export_csv.triggered.connect(lambda: files.export_csv())

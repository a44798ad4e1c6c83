"""The Help menu: the keyboard shortcuts (read from the window's own actions) and the glossary."""

from __future__ import annotations

import html

from PySide6.QtCore import QT_TRANSLATE_NOOP, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QMainWindow, QScrollArea, QTabWidget, QVBoxLayout

from overlapviz._qt.translation import translate, without_mnemonic
from overlapviz.app.glossary import glossary_in_language

SHORTCUTS_TAB, GLOSSARY_TAB = 0, 1
# the timeline's own keys, which no action of the window holds: (keys, what they do), in English
TIMELINE_KEYS = (
    ("\u2190 \u2192", str(QT_TRANSLATE_NOOP("HelpDialogs", "Pan the timeline (when it has the focus)"))),
    ("+ \u2212 \u2191 \u2193", str(QT_TRANSLATE_NOOP("HelpDialogs", "Zoom the timeline"))),
    ("0, Home", str(QT_TRANSLATE_NOOP("HelpDialogs", "The whole run"))),
    (
        str(QT_TRANSLATE_NOOP("HelpDialogs", "Drag on the time axis")),
        str(QT_TRANSLATE_NOOP(
            "HelpDialogs", "Measure a time window: the figures and findings of that part (Esc: the whole run)"
        )),
    ),
)  # fmt: skip


class HelpDialogs:
    """Opens the help window on the shortcuts or the glossary; F1 opens it."""

    def __init__(self, window: QMainWindow, shortcuts: QAction, glossary: QAction) -> None:
        self._window = window
        self.dialog: QDialog | None = None
        self.tabs: QTabWidget | None = None
        shortcuts.triggered.connect(lambda: self.open(SHORTCUTS_TAB))
        glossary.triggered.connect(lambda: self.open(GLOSSARY_TAB))

    def open(self, tab: int = SHORTCUTS_TAB) -> QDialog:
        """Show the help window on `tab` (made afresh, so the shortcuts are read as they are now)."""
        if self.dialog is not None:
            self.dialog.close()
            self.dialog.deleteLater()
        dialog = QDialog(self._window)
        dialog.setObjectName("help_dialog")
        dialog.setWindowTitle(translate("HelpDialogs", "overlapviz help"))
        dialog.resize(760, 620)
        self.tabs = QTabWidget(dialog)
        self.tabs.setObjectName("help_tabs")
        self.tabs.addTab(_scrolled(shortcuts_html(self._window)), translate("HelpDialogs", "Keyboard shortcuts"))
        self.tabs.addTab(_scrolled(glossary_html()), translate("HelpDialogs", "Glossary"))
        self.tabs.setCurrentIndex(tab)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, dialog)
        buttons.rejected.connect(dialog.close)
        layout = QVBoxLayout(dialog)
        layout.addWidget(self.tabs)
        layout.addWidget(buttons)
        self.dialog = dialog
        dialog.show()
        return dialog

    def close(self) -> None:
        """Close the help window, if open."""
        if self.dialog is not None:
            self.dialog.close()
            self.dialog.deleteLater()
            self.dialog = None


def shortcut_rows(window: QMainWindow) -> list[tuple[str, str]]:
    """(keys, what they do) for every action of `window` with a shortcut, then the timeline's keys."""
    rows: dict[str, str] = {}
    for action in window.findChildren(QAction):
        keys = ", ".join(s.toString(QKeySequence.SequenceFormat.NativeText) for s in action.shortcuts())
        name = plain_name(action.text())
        if keys and name:
            rows.setdefault(name, keys)
    timeline = [(translate("HelpDialogs", keys), translate("HelpDialogs", what)) for keys, what in TIMELINE_KEYS]
    return sorted(((keys, name) for name, keys in rows.items()), key=lambda row: row[1].lower()) + timeline


def plain_name(text: str) -> str:
    """A menu entry's name as a sentence names it: no mnemonic, no closing ellipsis ("&Open…" -> "Open")."""
    return without_mnemonic(text).rstrip("\u2026")


def shortcuts_html(window: QMainWindow) -> str:
    """The shortcuts as a table."""
    body = "".join(
        f"<tr><td style='padding: 2px 16px 2px 0'><b>{html.escape(keys)}</b></td><td>{html.escape(what)}</td></tr>"
        for keys, what in shortcut_rows(window)
    )
    return f"<table>{body}</table>"


def glossary_html() -> str:
    """The glossary: each term, what it means and where the app shows it."""
    where = translate("HelpDialogs", "<i>In the app:</i> {where}")
    return "".join(
        f"<p><b>{html.escape(t.term)}</b><br>{html.escape(t.meaning)}<br>{where.format(where=html.escape(t.where))}</p>"
        for t in glossary_in_language()
    )


def _scrolled(text: str) -> QScrollArea:
    label = QLabel(text)
    label.setObjectName("help_text")
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.RichText)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    label.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
    area = QScrollArea()
    area.setWidgetResizable(True)
    area.setWidget(label)
    return area

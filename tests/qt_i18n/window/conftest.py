"""The window in another language: settings in tmp, and English again after every test.

The window's language is process-wide (Qt's installed translators, gettext's active catalogue,
QLocale's default), so a test that starts one leaves English behind it for the tests after.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from overlapviz._qt.main_window import MainWindow
from overlapviz._qt.translation import start_language


@pytest.fixture
def settings(tmp_path: Path) -> QSettings:
    """A settings store of this test's own."""
    return QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)


@pytest.fixture(autouse=True)
def english_afterwards(qapp: QApplication, tmp_path: Path) -> Iterator[None]:
    """Whatever language a test started, the next one starts in English (asked for: no settings are read)."""
    yield
    start_language(QSettings(str(tmp_path / "english.ini"), QSettings.Format.IniFormat), "en")


@pytest.fixture
def make_window(qtbot: QtBot, settings: QSettings) -> Callable[..., MainWindow]:
    """Build the window on this test's settings in the language active now (live off: no run unless asked)."""

    def make(live: bool = False) -> MainWindow:
        window = MainWindow(settings, live=live)
        qtbot.addWidget(window)  # closed, and so shut down, after the test
        window.show()
        return window

    return make

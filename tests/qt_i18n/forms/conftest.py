"""The Designer forms in zh_CN: the window built in Chinese (the language fixtures are the parent folder's)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from overlapviz._qt.main_window import MainWindow


@pytest.fixture
def zh_window(zh_cn: None, qtbot: QtBot, tmp_path: Path) -> MainWindow:
    """The window built in zh_CN at its own default size, the first run's figures on show."""
    window = MainWindow(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(window)  # closed, and so shut down, after the test
    window.show()
    qtbot.waitUntil(lambda: window.shown() is not None, timeout=20_000)
    return window

"""The window built in Simplified Chinese on the model, for presentation mode (language: the parent conftest)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from overlapviz._qt.main_window import MainWindow
from tests.qt.teaching_helpers import SIM_TARGETS, model_run


@pytest.fixture
def chinese_window(zh_cn_font: None, qtbot: QtBot, tmp_path: Path) -> MainWindow:
    """A shown window on the model, built in Chinese, live off."""
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    window = MainWindow(settings, live=False, targets=SIM_TARGETS, run_function=model_run)
    qtbot.addWidget(window)
    window.resize(1600, 1000)
    window.show()
    return window

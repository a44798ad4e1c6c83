"""The window in Simplified Chinese: Qt's catalogue and gettext's switched together, English again after.

Skipped, with the reason, where the compiled catalogue has not been built yet (``make
translations``) or the machine has no font with Chinese glyphs (``fonts-noto-cjk``): without
either, the window would not show what a Chinese user sees.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from overlapviz._qt.main_window import MainWindow
from overlapviz._qt.translation import install_translators, qm_path
from overlapviz.core.i18n import DEFAULT_LANGUAGE, set_language
from tests.qt.teaching_helpers import SIM_TARGETS, model_run

CHINESE = "zh_CN"


@pytest.fixture(scope="session", autouse=True)
def _settings_in_tmp(tmp_path_factory: pytest.TempPathFactory) -> None:
    folder = tmp_path_factory.mktemp("qsettings")
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    for scope in (QSettings.Scope.UserScope, QSettings.Scope.SystemScope):
        QSettings.setPath(QSettings.Format.IniFormat, scope, str(folder))


@pytest.fixture
def chinese(qapp: QApplication) -> Iterator[None]:
    """The window's words and the lessons' in Simplified Chinese for this test; English after it."""
    if not qm_path(CHINESE).exists():
        pytest.skip(f"the window's Chinese catalogue {qm_path(CHINESE).name} is not built yet (make translations)")
    if not QFontDatabase.families(QFontDatabase.WritingSystem.SimplifiedChinese):
        pytest.skip("no font with Chinese glyphs is installed (fonts-noto-cjk): Chinese text cannot be measured")
    set_language(CHINESE)
    install_translators(CHINESE)
    yield
    set_language(DEFAULT_LANGUAGE)
    install_translators(DEFAULT_LANGUAGE)


@pytest.fixture
def chinese_window(chinese: None, qtbot: QtBot, tmp_path: Path) -> MainWindow:
    """A shown window on the model, built in Chinese, live off."""
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    window = MainWindow(settings, live=False, targets=SIM_TARGETS, run_function=model_run)
    qtbot.addWidget(window)
    window.resize(1600, 1000)
    window.show()
    return window

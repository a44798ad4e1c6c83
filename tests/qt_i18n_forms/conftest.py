"""The Designer forms in zh_CN: the catalogue installed for the test, English again after it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from overlapviz._qt.main_window import MainWindow
from overlapviz._qt.translation import install_translators, qm_path
from overlapviz.core.i18n import set_language


@pytest.fixture(scope="session", autouse=True)
def _settings_in_tmp(tmp_path_factory: pytest.TempPathFactory) -> None:
    """A plain QSettings() (the window makes some) writes under tmp, never the user's own."""
    folder = tmp_path_factory.mktemp("qsettings")
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    for scope in (QSettings.Scope.UserScope, QSettings.Scope.SystemScope):
        QSettings.setPath(QSettings.Format.IniFormat, scope, str(folder))


@pytest.fixture
def zh_cn(qapp: QApplication) -> Iterator[None]:
    """The window's words and gettext's in zh_CN for the test, English after it."""
    if not qm_path("zh_CN").is_file():
        pytest.skip(
            f"{qm_path('zh_CN').name} is not built yet: `make translations` compiles it once every part's "
            "translations are in the catalogue"
        )
    set_language("zh_CN")
    install_translators("zh_CN")
    yield
    set_language("en")
    install_translators("en")


@pytest.fixture
def zh_window(zh_cn: None, qtbot: QtBot, tmp_path: Path) -> MainWindow:
    """The window built in zh_CN at its own default size, the first run's figures on show."""
    window = MainWindow(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(window)  # closed, and so shut down, after the test
    window.show()
    qtbot.waitUntil(lambda: window.shown() is not None, timeout=20_000)
    return window

"""Qt's settings of a test run under tmp: a plain QSettings() never writes the user's own."""

import pytest
from PySide6.QtCore import QSettings


@pytest.fixture(scope="session", autouse=True, name="_settings_in_tmp")
def settings_in_tmp(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Every default-format QSettings of the session, user and system scope alike, under one tmp folder."""
    folder = tmp_path_factory.mktemp("qsettings")
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    for scope in (QSettings.Scope.UserScope, QSettings.Scope.SystemScope):
        QSettings.setPath(QSettings.Format.IniFormat, scope, str(folder))

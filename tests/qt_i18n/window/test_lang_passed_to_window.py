"""``overlapviz --lang zh_CN`` starts the window in that language: the command line hands it to the app's start."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

from overlapviz._qt import app
from overlapviz._qt.main_window import MainWindow
from overlapviz.commands import app as app_commands
from overlapviz.commands.main import main as command_line
from overlapviz.core.i18n import set_language


@pytest.fixture
def started(monkeypatch) -> list[tuple[Path | None, str | None]]:
    """The app's start, replaced by a note of what it was given."""
    calls: list[tuple[Path | None, str | None]] = []

    def start(open_path: Path | None = None, language: str | None = None) -> int:
        calls.append((open_path, language))
        return 0

    monkeypatch.setattr(app, "main", start)
    yield calls
    set_language("en")  # the command line made its --lang gettext's language


def test_the_app_command_hands_lang_to_the_app(started):
    assert app_commands.app_command(argparse.Namespace(lang="zh_CN")) == 0
    assert app_commands.app_command(argparse.Namespace()) == 0
    assert started == [(None, "zh_CN"), (None, None)]


def test_overlapviz_lang_reaches_the_app_from_the_command_line(started):
    assert command_line(["--lang", "zh_CN"]) == 0
    assert command_line([]) == 0
    assert started == [(None, "zh_CN"), (None, None)]


def test_opening_a_file_in_the_app_hands_on_its_language(started, tmp_path):
    path = tmp_path / "trace.json"
    assert app_commands.open_in_app(path, language="zh_CN") == 0
    assert started == [(path, "zh_CN")]


def test_the_apps_main_starts_the_window_in_the_language_asked_for(monkeypatch):
    ran = []
    monkeypatch.setattr(app, "has_display", lambda: True)
    monkeypatch.setattr(app, "_run_window", lambda open_path, language: ran.append((open_path, language)) or 0)
    assert app.main(language="zh_CN") == 0
    assert ran == [(None, "zh_CN")]


def test_the_language_starts_before_the_window_is_built(monkeypatch, qtbot, settings):
    before = set(QApplication.topLevelWidgets())
    started = []

    def start_language(given_settings, asked):
        built = [w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow) and w not in before]
        started.append((given_settings, asked, built))
        return "en"

    monkeypatch.setattr(app, "start_language", start_language)
    window = app.start_window(settings=settings, language="en")
    qtbot.addWidget(window)  # closed, and so shut down, after the test
    assert started == [(settings, "en", [])]

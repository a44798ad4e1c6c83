"""What the export dialog offers, and the folder a picture is offered to be saved in."""

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings

from overlapviz._qt.export.export_dialog import SIZES, ExportDialog
from overlapviz._qt.files.export_folder import ExportFolder, usual_folders


@pytest.fixture
def dialog(qapp):
    dialog = ExportDialog(None, "light", (1.0, 2.0))
    yield dialog
    dialog.dialog.deleteLater()


def test_a_slide_is_exactly_its_size_and_says_it_is_a_slide(dialog):
    chosen = []
    for index in range(dialog.size.count()):
        dialog.size.setCurrentIndex(index)
        options = dialog.options()
        chosen.append((dialog.size.currentText().startswith("Slide"), options.width, options.height))
    assert chosen == [(True, 1920, 1080), (True, 3840, 2160), (False, 1920, None), (False, 3840, None)]
    assert [size.name for size in SIZES] == [dialog.size.itemText(i) for i in range(dialog.size.count())]
    dialog.size.setCurrentIndex(0)
    assert dialog.options().window_ms == (1.0, 2.0)  # the slide keeps the other choices


def test_the_folder_is_the_last_exports_then_pictures_then_home(tmp_path, monkeypatch):
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    pictures, home, talks = tmp_path / "Pictures", tmp_path / "home", tmp_path / "talks"
    home.mkdir()
    monkeypatch.chdir(tmp_path)
    folder = ExportFolder(settings, lambda: [pictures, home])
    assert folder.folder() == home  # no Pictures folder
    pictures.mkdir()
    assert folder.suggested("t.svg") == pictures / "t.svg"
    talks.mkdir()
    folder.remember(talks / "t.png")
    assert ExportFolder(settings, lambda: [pictures, home]).folder() == talks  # remembered in the settings
    talks.rmdir()
    assert folder.folder() == pictures  # gone: the next one


def test_the_usual_folders_are_the_users_pictures_then_home(tmp_path, monkeypatch):
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.chdir(tmp_path)
    assert usual_folders() == [home / "Pictures", home]
    assert Path.cwd() not in usual_folders()

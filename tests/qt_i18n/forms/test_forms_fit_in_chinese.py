"""The controls panel, the metrics panel and the export dialog lay Chinese out without cutting a text short.

The panels are measured where the window puts them, at its default size, with a run's figures on
show; the dialog at the size it takes when shown. Chinese characters come from a CJK font, whose
glyphs are wider than the Latin letters they replace.
"""

from __future__ import annotations

import pytest
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import QApplication, QCheckBox, QComboBox, QGroupBox, QLabel
from pytestqt.qtbot import QtBot

from overlapviz._qt.export.export_dialog import ExportDialog
from overlapviz._qt.main_window import MainWindow
from tests.qt_i18n.chinese import chinese
from tests.qt_i18n.forms.text_room import clipped_texts


@pytest.fixture(autouse=True)
def _cjk_font(qapp: QApplication) -> None:
    if not QFontDatabase.families(QFontDatabase.WritingSystem.SimplifiedChinese):
        pytest.skip("no font with Chinese characters here (install fonts-noto-cjk): widths would be the boxes'")


def test_the_controls_panel_shows_chinese_and_cuts_no_text_short(zh_window: MainWindow) -> None:
    panel = zh_window.controls
    titles = [box.title() for box in panel.findChildren(QGroupBox)]
    assert titles and all(chinese(title) for title in titles), titles
    assert chinese(panel.run_button.text()) and chinese(panel.live_switch.text())
    assert clipped_texts(panel) == []


def test_the_metrics_panel_shows_chinese_and_cuts_no_text_short(zh_window: MainWindow) -> None:
    panel = zh_window.metrics
    rows = [label for label in panel.findChildren(QLabel) if label.isVisibleTo(panel)]
    titles = [label.text() for label in rows if label.objectName().endswith("_title")]
    assert titles and all(chinese(title) for title in titles), titles
    values = [label.text() for label in panel.findChildren(QLabel) if label.objectName().endswith("_value")]
    assert any(any(char.isdigit() for char in value) for value in values)  # a run's figures, not the empty dashes
    assert clipped_texts(panel) == []


def test_the_export_dialog_shows_chinese_and_cuts_no_text_short(zh_cn: None, qtbot: QtBot) -> None:
    asked = ExportDialog(None, "light", (0.0, 5.0))
    dialog = asked.dialog
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    caption = dialog.findChild(QCheckBox, "caption_check")
    background = dialog.findChild(QComboBox, "background_combo")
    assert caption is not None and background is not None
    assert chinese(dialog.windowTitle()) and chinese(caption.text()) and chinese(background.currentText())
    assert clipped_texts(dialog) == []

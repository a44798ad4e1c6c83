"""Run ▸ Lab GPU… and the strip of an unreachable lab server, in zh_CN."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QDialogButtonBox, QFormLayout, QLabel
from pytestqt.qtbot import QtBot

from overlapviz._qt.lab.dialog import LabDialog
from overlapviz._qt.lab.unreachable import LabUnreachableStrip
from tests.qt_i18n.chinese import chinese

pytestmark = pytest.mark.usefixtures("zh_cn")


def _form_labels(dialog: LabDialog) -> list[str]:
    form = dialog.findChild(QFormLayout)
    assert form is not None
    fields = (dialog.url_edit, dialog.code_edit)
    labels = [form.labelForField(field) for field in fields]
    return [label.text() for label in labels if isinstance(label, QLabel)]


def test_the_lab_dialog_asks_in_chinese(qtbot: QtBot) -> None:
    dialog = LabDialog(None)
    qtbot.addWidget(dialog)
    dialog.show()
    intro = next(label for label in dialog.findChildren(QLabel) if label.wordWrap() and label is not dialog.problem)
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).text()
    labels = _form_labels(dialog)
    texts = [dialog.windowTitle(), intro.text(), ok, dialog.url_edit.toolTip(), dialog.code_edit.toolTip(), *labels]
    assert len(labels) == 2
    assert all(chinese(text) for text in texts), texts
    assert all("&" in label for label in labels)  # Alt+letter still reaches each field


def test_an_unusable_address_is_refused_in_chinese(qtbot: QtBot) -> None:
    dialog = LabDialog(None)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.url_edit.setText("ftp://lab")
    dialog.code_edit.setText("K7QF-2M9D")
    assert dialog.settings() is None
    said = dialog.problem.text()
    assert dialog.problem.isVisible() and chinese(said) and "ftp://lab" in said
    assert said.endswith("\u3002")  # a Chinese sentence ends with its own full stop


def test_a_missing_join_code_is_asked_for_in_chinese(qtbot: QtBot) -> None:
    dialog = LabDialog(None)
    qtbot.addWidget(dialog)
    dialog.url_edit.setText("lab-host:8765")
    assert dialog.settings() is None
    assert chinese(dialog.problem.text())


def test_the_unreachable_strip_says_why_and_offers_its_two_ways_in_chinese(qtbot: QtBot) -> None:
    strip = LabUnreachableStrip()
    qtbot.addWidget(strip)
    reason = "connection refused"
    strip.show_reason(reason)
    said = strip.message()
    assert chinese(said) and reason in said and "{" not in said
    for button in (strip.model_button, strip.retry_button):
        assert chinese(button.text()) and "&" in button.text()
        assert chinese(button.toolTip())

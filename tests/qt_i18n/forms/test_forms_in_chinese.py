"""QUiLoader shows every word of the three Designer forms in Chinese when zh_CN is the window's language."""

from __future__ import annotations

import re

import pytest
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from overlapviz._qt.translation import translate
from overlapviz._qt.widgets.forms import load_form
from tests.qt_i18n.chinese import chinese
from tests.qt_i18n.forms.form_strings import form_context, form_strings

FORMS = ("controls.ui", "export.ui", "metrics.ui")
# Names shown as they are in every language: CUDA's own term, and the hardware's
KEPT_NAMES = {"CUDA Graph", "GPUs"}
WORD = re.compile(r"[A-Za-z]{2,}")


def _loaded(name: str, qtbot: QtBot) -> QWidget:
    form = load_form(name)
    qtbot.addWidget(form)
    return form


@pytest.mark.parametrize("name", FORMS)
def test_every_string_a_form_marks_for_translation_is_a_word_for_the_user(name: str) -> None:
    """Numbers and the dash of an empty value are marked notr in the form, so translators never see them."""
    strings = form_strings(name)
    assert strings
    assert all(WORD.search(string.source) for string in strings), [s.source for s in strings]


@pytest.mark.usefixtures("zh_cn")
@pytest.mark.parametrize("name", FORMS)
def test_the_loaded_form_shows_each_string_in_chinese(name: str, qtbot: QtBot) -> None:
    form, context = _loaded(name, qtbot), form_context(name)
    assert form.objectName() == context  # QUiLoader's context is the top widget's class, named alike
    for string in form_strings(name):
        shown = string.shown(form)
        assert shown == translate(context, string.source), string
        if string.source not in KEPT_NAMES:
            assert chinese(shown), (string, shown)


@pytest.mark.usefixtures("zh_cn")
def test_names_kept_as_they_are_still_come_from_the_catalogue(qtbot: QtBot) -> None:
    """Chinese has no plural: the label of the GPU buttons reads GPU, from the catalogue, not the English word."""
    form = _loaded("controls.ui", qtbot)
    kept = {s.source: s.shown(form) for s in form_strings("controls.ui") if s.source in KEPT_NAMES}
    assert set(kept) == KEPT_NAMES
    assert kept["GPUs"] != "GPUs" and "GPU" in kept["GPUs"]


@pytest.mark.parametrize("name", FORMS)
def test_in_english_the_forms_keep_their_own_words(name: str, qtbot: QtBot) -> None:
    form = _loaded(name, qtbot)
    for string in form_strings(name):
        assert string.shown(form) == string.source

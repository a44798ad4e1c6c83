"""A window in Chinese, Japanese or Korean on a system without a CJK font says which package to install.

The font lookup is handed in (or replaced for the window): no test reads this machine's fonts.
"""

from __future__ import annotations

import pytest
from PySide6.QtGui import QFontDatabase

from overlapviz._qt import cjk_fonts
from overlapviz._qt.cjk_fonts import missing_font_note, script_of
from overlapviz._qt.font_packages import DEBIAN_PACKAGE, FEDORA_PACKAGE, needs_cjk_font
from overlapviz.core.i18n import set_language

WritingSystem = QFontDatabase.WritingSystem


def _none(_script: WritingSystem) -> list[str]:
    return []


def _never(_script: WritingSystem) -> list[str]:
    raise AssertionError("a language written in Latin letters needs no font lookup")


@pytest.mark.parametrize(
    ("code", "script"),
    [
        ("zh_CN", WritingSystem.SimplifiedChinese),
        ("zh", WritingSystem.SimplifiedChinese),
        ("zh_TW", WritingSystem.TraditionalChinese),
        ("ja", WritingSystem.Japanese),
        ("ko_KR", WritingSystem.Korean),
        ("en", None),
        ("fr_FR", None),
    ],
)
def test_each_cjk_language_asks_for_a_font_of_its_script(code, script):
    assert script_of(code) == script
    assert needs_cjk_font(code) is (script is not None)


def test_with_no_font_for_chinese_the_note_names_the_packages_of_both_families_of_linux():
    asked = []
    note = missing_font_note("zh_CN", lambda script: asked.append(script) or [])
    assert asked == [WritingSystem.SimplifiedChinese]
    assert note is not None and DEBIAN_PACKAGE in note and FEDORA_PACKAGE in note
    assert DEBIAN_PACKAGE == "fonts-noto-cjk" and FEDORA_PACKAGE == "google-noto-sans-cjk-fonts"


def test_with_a_chinese_font_there_is_nothing_to_say():
    assert missing_font_note("zh_CN", lambda _script: ["Noto Sans CJK SC"]) is None


def test_a_latin_language_needs_no_cjk_font():
    assert missing_font_note("en", _never) is None


def test_the_note_is_in_english_first_since_the_languages_own_words_would_be_boxes():
    note = missing_font_note("ja", _none)
    assert note is not None and note.startswith("No Chinese, Japanese or Korean font is installed")


def test_the_window_in_chinese_without_a_font_says_so_in_its_message_strip_and_after_its_first_run(
    make_window, qtbot, monkeypatch
):
    monkeypatch.setattr(cjk_fonts, "font_families", _none)
    set_language("zh_CN")  # gettext's language alone: the window's own words need no catalogue here
    window = make_window(live=True)
    assert DEBIAN_PACKAGE in window.banner.message() and FEDORA_PACKAGE in window.banner.message()
    qtbot.waitUntil(lambda: window.shown() is not None, timeout=10_000)  # a run's success clears the strip
    assert DEBIAN_PACKAGE in window.banner.message()


def test_the_window_in_chinese_with_a_font_says_nothing_of_fonts(make_window, monkeypatch):
    monkeypatch.setattr(cjk_fonts, "font_families", lambda _script: ["Noto Sans CJK SC"])
    set_language("zh_CN")
    window = make_window()
    assert window.banner.message() == ""


def test_the_window_in_english_never_looks_for_a_cjk_font(make_window, monkeypatch):
    monkeypatch.setattr(cjk_fonts, "font_families", _never)
    set_language("en")
    window = make_window()
    assert window.banner.message() == ""

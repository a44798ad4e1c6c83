"""The window started in zh_CN speaks Chinese in its menus and actions; started in English, English."""

from __future__ import annotations

import re

from PySide6.QtWidgets import QMenu

from overlapviz._qt.help import plain_name, shortcut_rows
from overlapviz._qt.language_menu import native_name
from overlapviz._qt.translation import start_language
from overlapviz.core.i18n import current_language

CJK = re.compile(r"[\u4e00-\u9fff]")
MNEMONIC_AT_THE_END = re.compile(r"\(&[A-Z]\)")


def _menu_titles(window) -> list[str]:
    return [action.text() for action in window.menuBar().actions()]


def test_the_menu_bar_and_its_actions_speak_chinese(make_window, settings):
    assert start_language(settings, "zh_CN") == "zh_CN" == current_language()
    window = make_window()
    titles = _menu_titles(window)
    assert titles and all(CJK.search(title) for title in titles)
    # the Chinese convention: the keyboard mnemonic in brackets after the words
    assert all(MNEMONIC_AT_THE_END.search(title) for title in titles)
    a = window.window_actions
    for action in (a.open, a.save_session, a.quit, a.run, a.live, a.reset_view, a.bigger_text, a.help_glossary):
        assert CJK.search(action.text()), action.text()
    assert CJK.search(a.reset_defaults.statusTip()) and CJK.search(a.themes["dark"].text())
    assert CJK.search(window.status_label.text())  # "Starting…"


def test_the_language_menu_keeps_each_language_in_its_own_words(make_window, settings):
    start_language(settings, "zh_CN")
    window = make_window()
    languages = window.window_actions.languages
    assert languages["en"].text() == native_name("en") == "English"
    assert CJK.search(languages[""].text())  # "System language", in the window's language
    assert CJK.search(window.findChild(QMenu, "language_menu").title())


def test_help_names_the_actions_in_chinese_without_their_mnemonics(make_window, settings):
    start_language(settings, "zh_CN")
    window = make_window()
    names = [what for _keys, what in shortcut_rows(window)]
    run_name = plain_name(window.window_actions.run.text())  # Quit's key is the platform's: none offscreen
    assert run_name in names and CJK.search(run_name)
    assert all("&" not in name for name in names)
    assert not any(re.search(r"\([A-Z]\)$", name) for name in names)  # "运行(&R)" is "运行", not "运行(R)"


def test_a_menu_entrys_plain_name_drops_the_mnemonic_either_way_it_is_written():
    assert plain_name("&Open session or trace\u2026") == "Open session or trace"
    assert plain_name("打开会话或追踪文件(&O)\u2026") == "打开会话或追踪文件"
    assert plain_name("Save && quit") == "Save & quit"


def test_a_window_in_english_stays_english(make_window, settings):
    assert start_language(settings, "en") == "en"
    window = make_window()
    titles = _menu_titles(window)
    assert {"&File", "&Edit", "&Run", "&View", "&Help"} <= set(titles) and titles[0] == "&File"
    assert not any(CJK.search(title) for title in titles)
    a = window.window_actions
    assert a.open.text() == "&Open session or trace\u2026" and a.themes["dark"].text() == "Dark"
    assert [a.languages[code].text() for code in ("", "en")] == ["&System language", "English"]

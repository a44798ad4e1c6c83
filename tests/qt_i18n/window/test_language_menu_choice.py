"""View ▸ Language: each language in its own words, the remembered one checked, a choice kept for the next start."""

from __future__ import annotations

from PySide6.QtWidgets import QMenu

from overlapviz._qt.language_menu import NATIVE_NAMES, native_name, next_start_note
from overlapviz._qt.translation import SYSTEM_LANGUAGE, choose_language, chosen_language
from overlapviz.core.i18n import available_languages


def _language_menu(window) -> QMenu:
    menu = window.findChild(QMenu, "language_menu")
    assert menu is not None
    return menu


def _entries(window) -> list[str]:
    return [action.text() for action in _language_menu(window).actions() if not action.isSeparator()]


def _checked(window) -> str:
    return next(code for code, action in window.window_actions.languages.items() if action.isChecked())


def test_the_menu_offers_the_system_language_then_each_shipped_one_in_its_own_words(make_window):
    window = make_window()
    assert "zh_CN" in available_languages()
    assert _entries(window) == ["&System language", *(native_name(code) for code in available_languages())]
    assert {"English", "简体中文"} <= set(_entries(window))
    view = window.findChild(QMenu, "view_menu")
    assert _language_menu(window).menuAction() in view.actions()


def test_with_nothing_chosen_the_system_language_is_checked(make_window):
    window = make_window()
    assert _checked(window) == SYSTEM_LANGUAGE
    assert all(action.isCheckable() for action in window.window_actions.languages.values())


def test_choosing_a_language_remembers_it_checks_it_alone_and_says_when_it_applies(make_window, settings):
    window = make_window()
    window.window_actions.languages["en"].trigger()
    assert chosen_language(settings) == "en"
    assert _checked(window) == "en"
    assert sum(action.isChecked() for action in window.window_actions.languages.values()) == 1
    assert window.statusBar().currentMessage() == "The window speaks English from its next start."


def test_a_new_window_shows_the_remembered_choice(make_window, settings):
    choose_language(settings, "zh_CN")
    window = make_window()
    assert _checked(window) == "zh_CN"
    assert window.window_actions.languages["zh_CN"].text() == NATIVE_NAMES["zh_CN"]


def test_choosing_the_system_language_again_forgets_the_choice(make_window, settings):
    choose_language(settings, "zh_CN")
    window = make_window()
    window.window_actions.languages[SYSTEM_LANGUAGE].trigger()
    assert chosen_language(settings) == SYSTEM_LANGUAGE and _checked(window) == SYSTEM_LANGUAGE
    # the environment's language is English in the tests: the note says so in English
    assert window.statusBar().currentMessage() == next_start_note(SYSTEM_LANGUAGE) == next_start_note("en")


def test_reset_to_defaults_forgets_the_language_too(make_window, settings):
    choose_language(settings, "zh_CN")
    window = make_window()
    window.window_actions.reset_defaults.trigger()
    assert chosen_language(settings) == SYSTEM_LANGUAGE
    assert _checked(window) == SYSTEM_LANGUAGE


def test_reset_to_defaults_with_no_language_chosen_says_nothing_of_languages(make_window, settings):
    window = make_window()
    window.window_actions.reset_defaults.trigger()
    assert chosen_language(settings) == SYSTEM_LANGUAGE
    assert "next start" not in window.statusBar().currentMessage()


def test_choosing_chinese_in_an_english_window_says_so_in_chinese(make_window, settings):
    # read from the zh_CN catalogue, though the window's own translator speaks English
    window = make_window()
    window.window_actions.languages["zh_CN"].trigger()
    message = window.statusBar().currentMessage()
    assert chosen_language(settings) == "zh_CN"
    assert "简体中文" in message and "next start" not in message

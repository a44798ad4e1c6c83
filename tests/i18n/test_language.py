"""Which language is active, and numbers as it writes them."""

import pytest

from overlapviz.core.i18n import (
    UnknownLanguageError,
    _,
    available_languages,
    current_language,
    grouped,
    language_from_environment,
    ncount,
    set_language,
    supported_language,
)
from overlapviz.core.number_text import count_text, series_text


def test_english_and_simplified_chinese_are_there():
    assert available_languages() == ("en", "zh_CN")


@pytest.mark.parametrize(
    ("environ", "language"),
    [
        ({}, "en"),
        ({"LANG": "zh_CN.UTF-8"}, "zh_CN"),
        ({"LANG": "C"}, "en"),
        ({"LANG": "fr_FR.UTF-8"}, "en"),  # a system language with no catalogue is no error: English
        ({"LC_ALL": "zh_CN.UTF-8", "LANG": "en_US.UTF-8"}, "zh_CN"),
        ({"LC_MESSAGES": "en_US.UTF-8", "LANG": "zh_CN.UTF-8"}, "en"),
        ({"LANGUAGE": "fr:zh_CN", "LANG": "en_US.UTF-8"}, "zh_CN"),
    ],
)
def test_the_environment_picks_the_language_as_gettext_does(environ, language):
    assert language_from_environment(environ) == language


@pytest.mark.parametrize("name", ["zh_CN", "zh-cn", "zh", "zh_CN.UTF-8"])
def test_a_language_asked_for_by_name(name):
    assert supported_language(name) == "zh_CN"


def test_an_unknown_language_names_those_there_are():
    with pytest.raises(UnknownLanguageError, match=r"'xx'.*en, zh_CN"):
        supported_language("xx")


def test_set_language_switches_every_marked_sentence():
    assert _("device") == "device"
    set_language("zh_CN")
    assert (current_language(), _("device")) == ("zh_CN", "设备")
    set_language("en")
    assert _("device") == "device"


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_counts_are_grouped_in_thousands(language):
    set_language(language)
    assert grouped(3_333_333) == "3,333,333"
    assert count_text(3_333_333, "device op", thousands=True) == "3,333,333 device ops"


def test_plurals_follow_the_language():
    assert [ncount("{count} chunk", "{count} chunks", n) for n in (1, 1024)] == ["1 chunk", "1,024 chunks"]
    set_language("zh_CN")
    assert [ncount("{count} chunk", "{count} chunks", n) for n in (1, 1024)] == ["1 个分块", "1,024 个分块"]


def test_a_list_is_joined_as_the_language_joins_it():
    assert series_text(["a", "b", "c"]) == "a, b and c"
    set_language("zh_CN")
    assert series_text(["a", "b", "c"]) == "a、b和c"

"""Which language is active: the one asked for (``--lang``), else the environment's, else English.

The environment is read as gettext reads it: ``LANGUAGE`` (a list), then ``LC_ALL``,
``LC_MESSAGES``, ``LANG``. A language with no catalogue falls back to English there, since a
system's locale is no mistake of the user's; asking for one by name (`supported_language`) is.
"""

from __future__ import annotations

import gettext
import os
from collections.abc import Mapping
from functools import cache
from pathlib import Path

DOMAIN = "overlapviz"
# The lessons', exercises' and glossary's words: a catalogue of their own, so translating the
# teaching never collides with the program's sentences
CONTENT_DOMAIN = "overlapviz-content"
DEFAULT_LANGUAGE = "en"  # the language the sources are written in: no catalogue
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
_ENVIRONMENT_KEYS = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


class UnknownLanguageError(ValueError):
    """A language was asked for by name and overlapviz has no catalogue for it."""


@cache
def available_languages() -> tuple[str, ...]:
    """English and every language with a compiled catalogue, e.g. ``("en", "zh_CN")``."""
    found = sorted(path.parent.parent.name for path in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.mo"))
    return (DEFAULT_LANGUAGE, *found)


def normalized(name: str) -> str:
    """``zh_CN.UTF-8`` -> ``zh_CN``, ``zh-cn`` -> ``zh_CN``, ``C`` and ``POSIX`` -> ``en``."""
    code = name.strip().split(".", 1)[0].split("@", 1)[0].replace("-", "_")
    if code in {"", "C", "POSIX"}:
        return DEFAULT_LANGUAGE
    language, _underscore, region = code.partition("_")
    return f"{language.lower()}_{region.upper()}" if region else language.lower()


def _match(name: str) -> str | None:
    """The available language `name` means (``zh`` alone means ``zh_CN``), or None."""
    code = normalized(name)
    languages = available_languages()
    if code in languages:
        return code
    return next((known for known in languages if known.split("_", 1)[0] == code.split("_", 1)[0]), None)


def supported_language(name: str) -> str:
    """The language `name` asks for; raises `UnknownLanguageError` naming those there are."""
    code = _match(name)
    if code is None:
        there = ", ".join(available_languages())
        raise UnknownLanguageError(f"no translation for language {name!r}; the languages are {there}")
    return code


def language_from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The first language of the environment that overlapviz speaks; English if none."""
    environ = os.environ if environ is None else environ
    for key in _ENVIRONMENT_KEYS:
        value = environ.get(key, "")
        if not value:
            continue
        # gettext stops at the first variable set; LANGUAGE lists several, the first we speak wins
        names = value.split(":") if key == "LANGUAGE" else [value]
        return next((code for code in map(_match, names) if code is not None), DEFAULT_LANGUAGE)
    return DEFAULT_LANGUAGE


class _Active:
    """The active language and its catalogue: one per process, as gettext's own is."""

    code: str = DEFAULT_LANGUAGE
    translations: gettext.NullTranslations = gettext.NullTranslations()
    content: gettext.NullTranslations = gettext.NullTranslations()


def set_language(code: str | None = None) -> str:
    """Make `code` (None: the environment's) the language of every marked text; returns it."""
    code = language_from_environment() if code is None else supported_language(code)
    _Active.code = code
    _Active.translations = _translations(code)
    _Active.content = _translations(code, CONTENT_DOMAIN)
    return code


def current_language() -> str:
    """The active language's code, ``en`` until `set_language` chose another."""
    return _Active.code


def translations() -> gettext.NullTranslations:
    """The active catalogue (English: none, the sources' own words)."""
    return _Active.translations


def content_translations() -> gettext.NullTranslations:
    """The active catalogue of the teaching content (English: none, the files' own words)."""
    return _Active.content


@cache
def _translations(code: str, domain: str = DOMAIN) -> gettext.NullTranslations:
    if code == DEFAULT_LANGUAGE:
        return gettext.NullTranslations()
    # a language's program text may come before its lessons are translated: they stay English till then
    return gettext.translation(domain, LOCALE_DIR, languages=[code], fallback=domain == CONTENT_DOMAIN)

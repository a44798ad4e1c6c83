"""The marking functions: what a Qt-free module calls to say a sentence in the active language.

Babel's extraction knows them by name (``tools/translations.py`` passes ``ncount:1,2``), so a
sentence marked with any of them reaches the catalogues.
"""

from __future__ import annotations

from overlapviz.core.i18n.language import content_translations, translations
from overlapviz.core.i18n.numbers import grouped


def _(message: str) -> str:
    """`message` in the active language."""
    return translations().gettext(message)


def content_text(message: str) -> str:
    """`message`, a lesson's, an exercise's or a glossary entry's English words, in the active language.

    The teaching content has its own catalogue (domain ``overlapviz-content``), keyed by the
    English text as the files and tables give it; ``tools/content_messages.py`` extracts it.
    """
    return content_translations().gettext(message)


def N_(message: str) -> str:  # noqa: N802 (gettext's own name for a deferred mark)
    """`message` unchanged: marks a sentence kept in a table, translated with `_` where it is shown."""
    return message


def ngettext(singular: str, plural: str, count: int) -> str:
    """`singular` or `plural` in the active language, as its plural rule picks for `count`."""
    return translations().ngettext(singular, plural, count)


def pgettext(context: str, message: str) -> str:
    """`message` in the active language, told apart from the same words elsewhere by `context`."""
    return translations().pgettext(context, message)


def ncount(singular: str, plural: str, count: int, **values: object) -> str:
    """``3,333 device ops``: the phrase for `count`, its ``{count}`` grouped per locale, its other fields `values`."""
    return ngettext(singular, plural, count).format(count=grouped(count), **values)

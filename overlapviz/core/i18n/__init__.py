"""The language overlapviz speaks outside Qt: gettext catalogues, the active language, numbers per locale.

Every user-visible sentence of the Qt-free code is marked where it is written: ``_("...")``
for a sentence, ``ncount(singular, plural, n)`` for a count with its noun, ``N_("...")`` for a
sentence kept in a table and translated where it is shown (a `TranslatedTable` of them translates
as it is read). Placeholders are named (``_("took {ms}").format(ms=...)``), so a translation may
put them in any order. The
catalogues (domain ``overlapviz``) live under ``locale/`` beside this module; docs/translating.md
says how to add a language. The teaching content (lessons, exercises, the glossary) has a
catalogue of its own, domain ``overlapviz-content``, read through ``content_text(text)``.
"""

from overlapviz.core.i18n.catalogue import N_, _, content_text, ncount, ngettext, pgettext
from overlapviz.core.i18n.language import (
    DEFAULT_LANGUAGE,
    UnknownLanguageError,
    available_languages,
    current_language,
    language_from_environment,
    set_language,
    supported_language,
)
from overlapviz.core.i18n.numbers import decimal_text, grouped
from overlapviz.core.i18n.translated_table import TranslatedTable

__all__ = [
    "DEFAULT_LANGUAGE",
    "N_",
    "TranslatedTable",
    "UnknownLanguageError",
    "_",
    "available_languages",
    "content_text",
    "current_language",
    "decimal_text",
    "grouped",
    "language_from_environment",
    "ncount",
    "ngettext",
    "pgettext",
    "set_language",
    "supported_language",
]

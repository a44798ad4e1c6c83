"""Numbers as the active language writes them: the thousands separator and the decimal mark.

The two symbols are entries of the catalogue itself (context ``number symbol``), so adding a
language sets them where its words are; English writes ``3,333,333`` and ``6.09``. Formatting
them here costs nothing at import, where Babel's locale data took 35 to 100 ms to load.
"""

from __future__ import annotations

from overlapviz.core.i18n.language import translations


def thousands_separator() -> str:
    """The active language's thousands separator: ``,`` in English."""
    # Translators: the thousands separator, as in 3,333,333; keep "," where the language uses it
    return translations().pgettext("number symbol", ",")


def decimal_mark() -> str:
    """The active language's decimal mark: ``.`` in English."""
    # Translators: the decimal mark, as in 6.09; keep "." where the language uses it
    return translations().pgettext("number symbol", ".")


def grouped(count: int) -> str:
    """``3,333,333``: a whole number with the active language's thousands separator."""
    text = f"{count:,}"
    separator = thousands_separator()
    return text if separator == "," else text.replace(",", separator)


def decimal_text(text: str) -> str:
    """A number written with ``.`` (``6.09``), with the active language's decimal mark instead."""
    mark = decimal_mark()
    return text if mark == "." else text.replace(".", mark)

"""How wide text shows in a terminal: a CJK character takes two columns, so tables pad by display width.

``f"{title:>8}"`` counts characters; a Chinese header of two characters then fills four columns
and every column after it slips. These functions pad by what the terminal shows instead.
"""

from __future__ import annotations

import unicodedata


def display_width(text: str) -> int:
    """The columns `text` takes in a terminal: two for a wide (CJK) character, one for any other."""
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)


def ljust(text: str, width: int) -> str:
    """`text` padded on the right to `width` columns (as ``f"{text:<{width}}"`` for narrow text)."""
    return text + " " * max(0, width - display_width(text))


def rjust(text: str, width: int) -> str:
    """`text` padded on the left to `width` columns (as ``f"{text:>{width}}"`` for narrow text)."""
    return " " * max(0, width - display_width(text)) + text

"""How wide text shows in a terminal: a CJK character takes two columns, so tables pad by display width.

``f"{title:>8}"`` counts characters; a Chinese header of two characters then fills four columns
and every column after it slips. These functions pad by what the terminal shows instead.
"""

from __future__ import annotations

import textwrap
import unicodedata
from collections.abc import Iterator

# closing punctuation that never begins a line (Chinese typesetting's rule, and ASCII's alike)
_NO_LINE_START = frozenset("，。、：；！？）」』》】,.:;!?)")


def _wide(char: str) -> bool:
    return unicodedata.east_asian_width(char) in "WF"


def display_width(text: str) -> int:
    """The columns `text` takes in a terminal: two for a wide (CJK) character, one for any other."""
    return sum(2 if _wide(char) else 1 for char in text)


def wrap(text: str, width: int) -> list[str]:
    """`text` in lines of at most `width` columns, as `textwrap.wrap` does, breaking between CJK characters too.

    Text with no wide character is wrapped by `textwrap.wrap` itself, line for line the same. A
    Chinese sentence has no spaces to break at: a line may end after any wide character, but
    no line begins with closing punctuation (``，。）``: the character before it goes down with it),
    and a Latin word or a number is never cut.
    """
    if not any(_wide(char) for char in text):
        return textwrap.wrap(text, width)
    lines: list[str] = []
    line: list[str] = []  # the units of the line being filled
    for unit in _units(text):
        if unit.isspace():
            line += [" "] if line else []
            continue
        if line and display_width("".join(line) + unit) > width:
            # closing punctuation takes the unit before it to the next line rather than begin it
            carried = [line.pop()] if unit in _NO_LINE_START and len(line) > 1 else []
            lines.append("".join(line).rstrip())
            line = carried
        line.append(unit)
    if line:
        lines.append("".join(line).rstrip())
    return [text for text in lines if text]


def _units(text: str) -> Iterator[str]:
    """What a line may not be broken inside: a wide character, a run of narrow ones, a run of spaces."""
    run = ""
    for char in text:
        if _wide(char):
            if run:
                yield run
                run = ""
            yield char
        elif run and run[-1].isspace() != char.isspace():
            yield run
            run = char
        else:
            run += char
    if run:
        yield run


def ljust(text: str, width: int) -> str:
    """`text` padded on the right to `width` columns (as ``f"{text:<{width}}"`` for narrow text)."""
    return text + " " * max(0, width - display_width(text))


def rjust(text: str, width: int) -> str:
    """`text` padded on the left to `width` columns (as ``f"{text:>{width}}"`` for narrow text)."""
    return " " * max(0, width - display_width(text)) + text

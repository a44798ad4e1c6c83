"""Text that a wrapping label never breaks between a number and its unit, nor inside a unit.

Qt breaks a line at a space and after a slash, so "+35.8 GB/s" in a narrow cell reads
"+35.8 GB/" over "s". Every text the window wraps (the metrics panel, the findings, the
compare table, the status bar) passes through `unbreakable` on its way to a widget; the
text itself (`core.number_text`) keeps plain spaces, as the command line prints it.
"""

from __future__ import annotations

import re

NO_BREAK_SPACE = "\u00a0"
WORD_JOINER = "\u2060"  # invisible, and no line break on either side of it
UNITS = ("GB/s", "ms", "\u00b5s", "ns", "s", "KiB", "MiB", "GiB", "B", "%", "\u00d7")
_NUMBER_THEN_UNIT = re.compile(r"(?<=\d) (?=(?:" + "|".join(re.escape(u) for u in UNITS) + r")(?![\w/]))")


def unbreakable(text: str) -> str:
    """`text` with a no-break space between each number and its unit and no break inside ``GB/s``."""
    return _NUMBER_THEN_UNIT.sub(NO_BREAK_SPACE, text).replace("GB/s", f"GB/{WORD_JOINER}s")


def as_read(text: str) -> str:
    """`text` as a reader reads it: `unbreakable`'s no-break spaces as spaces, its joiners gone."""
    return text.replace(NO_BREAK_SPACE, " ").replace(WORD_JOINER, "")


def elide_middle(name: str, limit: int) -> str:
    """`name` cut to `limit` characters by an ellipsis in the middle: its start and its end say most."""
    if len(name) <= limit:
        return name
    tail = (limit - 1) // 2
    return f"{name[: limit - 1 - tail]}\u2026{name[len(name) - tail :]}"

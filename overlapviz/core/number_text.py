"""Numbers as text: counts with their noun in the right number, decimals without a negative zero.

Every printed count and fixed-point number goes through here, so that no label, caption,
summary or finding says "1 chunks" or "-0.0 %".
"""

from __future__ import annotations

IRREGULAR_PLURALS = {"copy": "copies", "prefetch": "prefetches"}


def plural(noun: str, count: int) -> str:
    """`noun` as it reads after `count`: ``chunk`` for 1, ``chunks`` otherwise; ``H2D copies``."""
    if count == 1:
        return noun
    head, space, last = noun.rpartition(" ")
    return f"{head}{space}{IRREGULAR_PLURALS.get(last, last + 's')}"


def counted(count: int, plural_phrase: str) -> str:
    """``1 memset``, ``2 memsets``, ``1 copy of an unknown kind``: a count before a phrase given in the plural.

    For labels kept in the plural where they are keys (the counts of what a trace does not draw).
    """
    if count != 1:
        return f"{count:,} {plural_phrase}"
    head, of, tail = plural_phrase.partition(" of ")
    before, space, word = head.rpartition(" ")
    singular = next((one for one, many in IRREGULAR_PLURALS.items() if many == word), word.removesuffix("s"))
    return f"1 {before}{space}{singular}{of}{tail}"


def count_text(count: int, noun: str, *, thousands: bool = False) -> str:
    """``1 chunk``, ``16 chunks``, ``0 copies``; ``1,024 calls`` with `thousands`."""
    number = f"{count:,}" if thousands else str(count)
    return f"{number} {plural(noun, count)}"


def series_text(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``: items as a sentence lists them."""
    if len(items) < 2:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


def fixed(value: float, decimals: int) -> str:
    """`value` with `decimals` decimals, never ``-0`` or ``-0.0``: a value that rounds to zero is zero."""
    text = f"{value:.{decimals}f}"
    if text.startswith("-") and not text.strip("-0."):
        return text[1:]
    return text

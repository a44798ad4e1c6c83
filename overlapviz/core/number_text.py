"""Numbers as text: counts with their noun in the right number, figures to one rule.

Every printed count, time and rate goes through here, so that no label, caption, summary or
finding says "1 chunks", "-0.0 %", "0.000570 ms" in one place and "0.00 ms" in another. The
rule for figures (docs/metrics.md, "How figures are written"): at least three significant
digits, one decimal from 10 up (``7955.6``), two from 1 to 10 (``6.09``), three significant
digits below 1 (``0.742``); a time under 0.1 ms in µs by the same rule (``74.2 µs``), one
under 1 µs in whole ns (``570 ns``).
"""

from __future__ import annotations

import math

from overlapviz.core.i18n import N_, _, decimal_text, grouped, ncount, pgettext

IRREGULAR_PLURALS = {"copy": "copies", "prefetch": "prefetches"}
NS_PER_MS = 1_000_000
NS_PER_US = 1_000
SMALLEST_MS = 0.1  # a shorter time is written in µs: "0.0102 ms" reads worse than "10.2 µs"


def plural(noun: str, count: int) -> str:
    """`noun` as it reads after `count`: ``chunk`` for 1, ``chunks`` otherwise; ``H2D copies``."""
    if count == 1:
        return noun
    head, space, last = noun.rpartition(" ")
    return f"{head}{space}{IRREGULAR_PLURALS.get(last, last + 's')}"


# The labels a trace counts what it does not draw under (`TraceMeta.not_shown`'s keys, English in
# its files), each with its words for one and for many in the active language.
COUNTED_LABELS = {
    "host-to-host copies": (N_("{count} host-to-host copy"), N_("{count} host-to-host copies")),
    "copies of an unknown kind": (N_("{count} copy of an unknown kind"), N_("{count} copies of an unknown kind")),
    "annotation ranges as the GPU ran them": (
        N_("{count} annotation range as the GPU ran it"), N_("{count} annotation ranges as the GPU ran them")
    ),
    "memsets": (N_("{count} memset"), N_("{count} memsets")),
}


def counted(count: int, plural_phrase: str) -> str:
    """``1 memset``, ``2 memsets``, ``1 copy of an unknown kind``: a count before a phrase given in the plural.

    For labels kept in the plural where they are keys (the counts of what a trace does not draw);
    a label of `COUNTED_LABELS` is said in the active language.
    """
    if plural_phrase in COUNTED_LABELS:
        return ncount(*COUNTED_LABELS[plural_phrase], count)
    if count != 1:
        return f"{grouped(count)} {plural_phrase}"
    head, of, tail = plural_phrase.partition(" of ")
    before, space, word = head.rpartition(" ")
    singular = next((one for one, many in IRREGULAR_PLURALS.items() if many == word), word.removesuffix("s"))
    return f"1 {before}{space}{singular}{of}{tail}"


def count_text(count: int, noun: str, *, thousands: bool = False) -> str:
    """``1 chunk``, ``16 chunks``, ``0 copies``; ``1,024 calls`` with `thousands`."""
    number = grouped(count) if thousands else str(count)
    return f"{number} {plural(noun, count)}"


def series_text(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``: items as a sentence lists them."""
    if len(items) < 2:
        return "".join(items)
    # Translators: what separates the items of a list but the last two, as in "a, b and c"
    first = pgettext("list", ", ").join(items[:-1])
    return _("{first} and {last}").format(first=first, last=items[-1])


def fixed(value: float, decimals: int) -> str:
    """`value` with `decimals` decimals, never ``-0`` or ``-0.0``: a value that rounds to zero is zero."""
    text = f"{value:.{decimals}f}"
    if text.startswith("-") and not text.strip("-0."):
        text = text[1:]
    return decimal_text(text)


def significant(value: float) -> str:
    """``7955.6``, ``35.8``, ``6.09``, ``0.0742``: `value` to the figures' rule, ``0`` for zero."""
    if abs(value) < 10:
        value = float(f"{value:.3g}")  # 9.999 is 10.0, not 10.00
    magnitude = abs(value)
    if magnitude >= 10:
        return fixed(value, 1)
    if magnitude >= 1:
        return fixed(value, 2)
    if magnitude == 0 or not math.isfinite(magnitude):
        return fixed(value, 0)
    return fixed(value, 2 - math.floor(math.log10(magnitude)))


def duration_text(ns: float) -> str:
    """``7955.6 ms``, ``6.09 ms``, ``0.742 ms``, ``74.2 µs``, ``570 ns``: in ms, a very short time in µs or ns."""
    whole_ns = round(ns)  # a trace's times are whole ns
    ms = whole_ns / NS_PER_MS
    if abs(float(f"{ms:.3g}")) >= SMALLEST_MS or whole_ns == 0:  # 99.996 µs reads as 0.100 ms
        return f"{significant(ms)} ms"
    if abs(whole_ns) >= NS_PER_US:
        return f"{significant(whole_ns / NS_PER_US)} \u00b5s"
    return f"{whole_ns} ns"


def rate_text(gbps: float) -> str:
    """``55.4 GB/s``: a copy rate in 10^9 bytes per second."""
    return f"{significant(gbps)} GB/s"

"""Reading and showing a setting's value: sizes, counts, and the error that names a bad one.

Every reader of settings (the command line, presets, session files, the remembered config)
goes through these, so a size or a count means the same thing wherever it is written.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from fractions import Fraction

from overlapviz.core.i18n import _

FLOAT32_BYTES = 4
KIB = 1024
MIB = 1024 * KIB
GIB = 1024 * MIB

MIN_SIZE_BYTES = 4 * KIB
MAX_SIZE_BYTES = 64 * GIB


class ConfigError(ValueError):
    """A pipeline value is out of range; the message names the field and what is allowed."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field


def check_int(name: str, value: object, low: int, high: int, show: Callable[[int], str] = str) -> None:
    """Refuse `value` unless it is a whole number (not a bool) from `low` to `high`."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(name, _("must be a whole number, got {value}").format(value=repr(value)))
    if not low <= value <= high:
        shown = show(value) if abs(value) <= 2**63 else shown_text(value)  # no float overflow, no 400-digit line
        raise ConfigError(
            name,
            _("{value} is out of range; allowed {low} to {high}").format(value=shown, low=show(low), high=show(high)),
        )


_SIZE_UNITS = {
    "": 1, "b": 1,
    "k": KIB, "kb": 1000, "kib": KIB,
    "m": MIB, "mb": 1000**2, "mib": MIB,
    "g": GIB, "gb": 1000**3, "gib": GIB,
}  # fmt: skip
# ASCII digits only: Python's \d and int() also take other scripts' digits ("１６", "٣٤").
_SIZE_PATTERN = re.compile(r"^\s*([0-9]+(?:\.[0-9]+)?)\s*([a-zA-Z]{0,3})\s*$", re.ASCII)
_MAX_COUNT_DIGITS = 18  # any count past this is far out of every range, and stays an int64
_MAX_SIZE_DIGITS = 30  # far past any size allowed: the range check then speaks of bytes, not digits


def parse_size(text: str) -> int:
    """Parse ``256MiB``, ``1GiB``, ``64k`` or a plain byte count into bytes.

    The arithmetic is exact (fractions, not floats), so ``1.0000000000000001GiB`` is refused
    as not a whole number of bytes instead of being read as 1 GiB, and no value, however
    long, overflows.
    """
    match = _SIZE_PATTERN.match(str(text))
    unit = match.group(2).lower() if match else ""
    if not match or unit not in _SIZE_UNITS:
        raise ConfigError(
            "size", _("{text} is not a size; write e.g. 256MiB, 1GiB or 1048576").format(text=shown_text(text))
        )
    if len(match.group(1)) > _MAX_SIZE_DIGITS:
        message = _("{text} is far too large; at most {size}")
        raise ConfigError("size", message.format(text=shown_text(text), size=format_size(MAX_SIZE_BYTES)))
    value = Fraction(match.group(1)) * _SIZE_UNITS[unit]
    if value.denominator != 1:
        raise ConfigError("size", _("{text} is not a whole number of bytes").format(text=shown_text(text)))
    return int(value)


def parse_count(text: str, field: str) -> int:
    """A whole number written in ASCII digits (an optional sign), as the CLI and presets take counts."""
    match = re.fullmatch(r"\s*([-+]?)([0-9]+)\s*", str(text), re.ASCII)
    if not match:
        raise ConfigError(field, _("{text} is not a whole number").format(text=shown_text(text)))
    if len(match.group(2).lstrip("0")) > _MAX_COUNT_DIGITS:
        raise ConfigError(field, _("{text} is far too large").format(text=shown_text(text)))
    return int(match.group(1) + match.group(2))


def shown_text(text: object, limit: int = 40) -> str:
    """`text` quoted for a message, cut short: a message stays one readable line."""
    if isinstance(text, int) and text.bit_length() > 128:  # str() of a huge int is slow, or refused
        return _("a number of about {digits} digits").format(digits=int(text.bit_length() * 0.30103))
    shown = repr(str(text))
    return shown if len(shown) <= limit else shown[: limit - 4] + "...'"


def format_size(n_bytes: object) -> str:
    """``268435456`` -> ``256 MiB``; exact binary units where they fit."""
    if not isinstance(n_bytes, int):
        return str(n_bytes)
    for unit, scale in (("GiB", GIB), ("MiB", MIB), ("KiB", KIB)):
        if n_bytes >= scale:
            value = n_bytes / scale
            return f"{value:g} {unit}" if value == int(value) else f"{value:.3g} {unit}"
    return f"{n_bytes} B"

"""Microseconds written as JSON number text, to exact integer nanoseconds.

Chrome trace files give times as microseconds with the nanoseconds as three decimals
(``1764578400123456.789``). A float64 holds such a value only to about a quarter of a
microsecond once it counts from 1970, so the text itself is read: digit by digit, for all
values at once, with numpy. Texts with an exponent (``1.5e3``) or dozens of decimals, which
no profiler writes but a rewritten file may hold, take an exact decimal path one by one.
Digits past the third decimal round to the nearest nanosecond, halves away from zero.

Profilers write every time with exactly three decimals; `profiler_micros_ns` reads texts of
that one form from a single buffer, without a Python object per text, and says when a text
is not of it (the caller then asks `micros_text_to_ns`, which names the text that is wrong).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import ROUND_HALF_UP, Decimal, localcontext

import numpy as np
import numpy.typing as npt

# 4e18 ns is the year 2096 counted from 1970: a base time plus a time after it, each below
# this, stay inside int64.
MAX_NS = 4 * 10**18
_MAX_INTEGER_DIGITS = 16  # 9999999999999999.999 us still fits the uint64 the digits add up in
_WIDEST_PLAIN = 40  # longer number texts take the decimal path
_POWERS = np.array([10**k for k in range(20)], dtype=np.uint64)
_ZERO, _NINE, _DOT, _MINUS, _NEWLINE = (ord(c) for c in "09.-\n")
_EXPONENT = (ord("e"), ord("E"))
_JSON_NUMBER = re.compile(rb"-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?")
# What is wrong with a text (`MicrosTextError`'s words, which its callers turn into a sentence of theirs)
NOT_A_NUMBER = "not a number"
OUT_OF_RANGE = "out of range"


class MicrosTextError(ValueError):
    """One text is not a number of microseconds within range; `index` says which."""

    def __init__(self, index: int, why: str) -> None:
        super().__init__(why)
        self.index = index


def micros_text_to_ns(texts: Sequence[bytes]) -> npt.NDArray[np.int64]:
    """Exact nanoseconds of JSON number texts that count microseconds.

    Parameters
    ----------
    texts
        One JSON number per value, as its bytes (``b"5259022113484.411"``).

    Returns
    -------
    numpy.ndarray
        int64 nanoseconds, one per text.

    Raises
    ------
    MicrosTextError
        A text is not a JSON number, or its magnitude is `MAX_NS` ns or more; ``index`` is
        the first such text.
    """
    result = np.zeros(len(texts), dtype=np.int64)
    lengths = np.fromiter(map(len, texts), dtype=np.int64, count=len(texts))
    rows = np.flatnonzero(lengths <= _WIDEST_PLAIN)
    width = int(lengths[rows].max(initial=1)) or 1
    chars = np.array([texts[i] for i in rows.tolist()], dtype=f"S{width}").view(np.uint8).reshape(len(rows), width)
    exponent = np.isin(chars, _EXPONENT).any(axis=1)
    plain_rows = rows[~exponent]
    values, not_number = _plain_ns(chars[~exponent])
    failures = [(int(plain_rows[np.argmax(not_number)]), NOT_A_NUMBER)] if not_number.any() else []
    over = np.abs(values) >= MAX_NS
    if over.any():
        failures.append((int(plain_rows[np.argmax(over)]), OUT_OF_RANGE))
    result[plain_rows] = values
    first_failure = min(failures, default=(len(texts), ""))
    for row in np.union1d(rows[exponent], np.flatnonzero(lengths > _WIDEST_PLAIN)).tolist():
        if row > first_failure[0]:
            break
        result[row] = _decimal_ns(row, texts[row])
    if failures:
        raise MicrosTextError(*first_failure)
    return result


def profiler_micros_ns(lines: bytes, count: int) -> npt.NDArray[np.int64] | None:
    r"""Exact nanoseconds of `count` texts joined by newlines, each digits, a dot and three digits.

    Parameters
    ----------
    lines
        The texts, one per line (``b"5259022113484.411\n0.832"``), no newline at the end.
    count
        How many texts there are.

    Returns
    -------
    numpy.ndarray or None
        int64 nanoseconds, one per text; None when a text is of another form (no dot, other
        decimals, a sign, an exponent, a newline of its own) or `MAX_NS` ns or more.
    """
    chars = np.frombuffer(lines, dtype=np.uint8)
    ends = np.append(np.flatnonzero(chars == _NEWLINE), chars.size)  # one past each text
    if count == 0 or ends.size != count:
        return None if count else np.zeros(0, dtype=np.int64)
    lengths = ends - np.append(0, ends[:-1] + 1)
    integer_digits = lengths - 4
    if (integer_digits < 1).any() or (integer_digits > _MAX_INTEGER_DIGITS).any():
        return None
    dots = chars == _DOT
    digits = (chars - np.uint8(_ZERO)) <= 9  # every other character wraps past 9
    # one dot per text, fourth from its end, and nothing else but digits and the newlines
    if (
        not dots[ends - 4].all()
        or np.count_nonzero(dots) != count
        or np.count_nonzero(digits) != chars.size - 2 * count + 1
    ):
        return None
    return _right_aligned_ns(chars, ends, lengths)


def _right_aligned_ns(chars: npt.NDArray[np.uint8], ends: npt.NDArray[np.intp],
                      lengths: npt.NDArray[np.intp]) -> npt.NDArray[np.int64] | None:  # fmt: skip
    """Nanoseconds of checked ``digits.ddd`` texts, a digit place at a time from the right: as many passes as places."""
    total = np.zeros(ends.size, dtype=np.uint64)
    for place in range(1, int(lengths.max()) + 1):
        if place == 4:
            continue  # the dot
        present = lengths >= place
        digit = chars[np.where(present, ends - place, 0)].astype(np.uint64) - np.uint64(_ZERO)
        total += np.where(present, digit, np.uint64(0)) * _POWERS[place - 1 if place < 4 else place - 2]
    if (total >= np.uint64(MAX_NS)).any():
        return None
    return total.astype(np.int64)


def _plain_ns(chars: npt.NDArray[np.uint8]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
    """Nanoseconds of rows of ``-?digits(.digits)?`` (NUL-padded), and which rows are not that."""
    rows, width = chars.shape
    digit = (chars >= _ZERO) & (chars <= _NINE)
    dot = chars == _DOT
    negative = chars[:, 0] == _MINUS
    used = chars != 0
    length = used.sum(axis=1)
    has_dot = dot.any(axis=1)
    dot_at = np.where(has_dot, dot.argmax(axis=1), length)
    columns = np.arange(width)
    allowed = digit | (dot & (columns == dot_at[:, None])) | (negative[:, None] & (columns == 0))
    integer_digits = dot_at - negative
    not_number = (
        (allowed != (columns < length[:, None])).any(axis=1)  # a stray character, or a NUL inside
        | (integer_digits < 1)
        | (has_dot & (dot_at == length - 1))  # "5." is not a number in JSON
    )
    too_long = integer_digits > _MAX_INTEGER_DIGITS
    total = np.zeros(rows, dtype=np.uint64)
    round_up = np.zeros(rows, dtype=bool)
    counted_rows = ~not_number & ~too_long
    for column in range(width):
        # the power of ten this column's digit carries, counted in nanoseconds
        power = np.where(column < dot_at, dot_at - 1 - column, dot_at - column) + 3
        is_digit = digit[:, column] & counted_rows
        value = chars[:, column].astype(np.uint64) - np.uint64(_ZERO)
        total += np.where(is_digit & (power >= 0), value * _POWERS[np.clip(power, 0, 19)], np.uint64(0))
        round_up |= is_digit & (power == -1) & (value >= 5)
    total += round_up.astype(np.uint64)
    magnitude = np.where(too_long | (total >= np.uint64(MAX_NS)), np.uint64(MAX_NS), total).astype(np.int64)
    return np.where(negative, -magnitude, magnitude), not_number


def _decimal_ns(row: int, text: bytes) -> int:
    """Nanoseconds of one number text with an exponent or many digits, exactly."""
    if _JSON_NUMBER.fullmatch(text) is None:
        raise MicrosTextError(row, NOT_A_NUMBER)
    value = Decimal(text.decode("ascii"))
    if value.adjusted() >= _MAX_INTEGER_DIGITS or abs(value).scaleb(3) >= MAX_NS:
        raise MicrosTextError(row, OUT_OF_RANGE)
    if value.adjusted() < -4:
        return 0  # under 0.1 ns
    with localcontext() as context:
        context.prec = 60  # every digit of a value under MAX_NS ns, with decimals to spare
        return int(value.scaleb(3).to_integral_value(rounding=ROUND_HALF_UP))

"""The values each control offers.

Sizes and chunk counts on log scales (every count up to 16, then powers of two and the
midpoints 1.5x between them, so 12 or 24 chunks for 3 streams are there), kernel iterations on
a ladder around the default. A chunk count need not divide the buffer: the last chunk takes
what is left over.

Pure functions, so the snapping rules are tested without a window.
"""

from __future__ import annotations

import math

from overlapviz.core.config import DEFAULT_ITERS, FLOAT32_BYTES, MAX_RING_SLOTS, MIB

STREAM_VALUES: tuple[int, ...] = tuple(range(1, 33))
MAX_SLIDER_CHUNKS = 1024

# 1 MiB to 4 GiB: every power of two and the midpoint 1.5x between them.
SIZE_VALUES: tuple[int, ...] = tuple(
    sorted({2**p * MIB for p in range(13)} | {3 * 2**p * MIB // 2 for p in range(12)})
)

# 0 (copies only), then steps of sqrt(2) from 1/64 to 8 times the default intensity, so the
# default sits exactly on the ladder.
ITER_VALUES: tuple[int, ...] = (0, *sorted({round(DEFAULT_ITERS * 2 ** (k / 2)) for k in range(-12, 7)}))

# Every slot count up to 8 (where a ring's size matters), then powers of two and the midpoints
# 1.5x between them up to the most the config allows.
_RING_LADDER = {*range(1, 9), *(2**p for p in range(4, 7)), *(3 * 2**p for p in range(2, 5))}
RING_SLOT_VALUES: tuple[int, ...] = tuple(sorted(n for n in _RING_LADDER if n <= MAX_RING_SLOTS))

EVERY_CHUNK_COUNT_UP_TO = 16


def chunk_values(size_bytes: int, limit: int = MAX_SLIDER_CHUNKS) -> tuple[int, ...]:
    """Chunk counts up to `limit` (and at most one float32 element per chunk) on a log-like ladder."""
    top = min(limit, size_bytes // FLOAT32_BYTES)
    ladder = set(range(1, EVERY_CHUNK_COUNT_UP_TO + 1))
    ladder |= {2**p for p in range(top.bit_length())} | {3 * 2**p for p in range(top.bit_length())}
    return tuple(sorted(n for n in ladder if n <= top))


def nearest_value(values: tuple[int, ...], wanted: int, *, log: bool = True) -> int:
    """The entry of `values` closest to `wanted` (by ratio when `log`); ties go to the smaller."""
    if not values:
        raise ValueError("no values to choose from")
    if log and wanted > 0:
        return min(values, key=lambda v: (abs(math.log(v / wanted)) if v > 0 else math.inf, v))
    return min(values, key=lambda v: (abs(v - wanted), v))

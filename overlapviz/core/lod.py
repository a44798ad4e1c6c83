"""Level of detail: what to draw of a lane at the current zoom, as pure functions.

A lane can hold 10^5 spans; most of them are narrower than a pixel when the whole run is in
view. `visible_spans` culls spans to the visible window, clips them to it, and merges runs of
spans narrower than `min_width` (a pixel, in time units) into one span with a count, so that
the number of rectangles follows the number of pixels rather than the number of spans.

Merging fills only gaps narrower than `min_width` between narrow spans: the drawn coverage
differs from the spans' own coverage by less than a pixel per gap, and every gap of a pixel
or more stays visible. Spans at least `min_width` wide are kept as they are.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

Array = npt.NDArray[np.generic]


def visible_spans(
    starts: npt.ArrayLike, ends: npt.ArrayLike, t0: float, t1: float, min_width: float
) -> tuple[Array, Array, npt.NDArray[np.int64]]:
    """Cull spans to the window [t0, t1], clip them to it and merge subpixel runs.

    Parameters
    ----------
    starts, ends
        Span start and end times (any one time unit, integer or float), same length.
    t0, t1
        The visible window, in the same unit; ``t0 <= t1``.
    min_width
        The width of one pixel in the same unit; spans narrower than it are merged with
        neighbouring narrow spans less than `min_width` away. 0 merges nothing.

    Returns
    -------
    starts, ends, counts
        Drawn spans sorted by start, clipped to the window, and how many input spans each
        stands for. A span that only touches the window (or has zero width inside it) is
        visible and counts.

    Raises
    ------
    ValueError
        When the arrays differ in length, the window is reversed, or `min_width` is negative
        or not a number.
    """
    s, e = np.asarray(starts), np.asarray(ends)
    if s.shape != e.shape or s.ndim != 1:
        raise ValueError(f"starts and ends must be 1-D arrays of one length, got {s.shape} and {e.shape}")
    if not t0 <= t1:
        raise ValueError(f"the window ends ({t1}) before it starts ({t0})")
    if math.isnan(min_width) or min_width < 0:
        raise ValueError(f"min_width must be 0 or more, got {min_width}")
    shown = (s <= t1) & (e >= t0)
    s, e = np.maximum(s[shown], t0), np.minimum(e[shown], t1)
    if s.size > 1 and (np.diff(s) < 0).any():
        order = np.argsort(s, kind="stable")
        s, e = s[order], e[order]
    narrow = (e - s) < min_width
    merged_s, merged_e, merged_n = _merge_runs(s[narrow], e[narrow], min_width)
    out_s = np.concatenate((s[~narrow], merged_s))
    out_e = np.concatenate((e[~narrow], merged_e))
    out_n = np.concatenate((np.ones(int((~narrow).sum()), dtype=np.int64), merged_n))
    order = np.argsort(out_s, kind="stable")
    return out_s[order], out_e[order], out_n[order]


def _merge_runs(s: Array, e: Array, min_width: float) -> tuple[Array, Array, npt.NDArray[np.int64]]:
    """Merge sorted spans into runs whose inner gaps are all narrower than `min_width`."""
    if s.size == 0:
        return s, e, np.zeros(0, dtype=np.int64)
    reach = np.maximum.accumulate(e)
    # Within a run, the furthest end so far is the run's own: a new run starts only after a
    # gap of min_width or more, past every earlier end.
    gaps = np.asarray(s[1:] - reach[:-1], dtype=np.float64)
    opens = np.concatenate((np.ones(1, dtype=bool), gaps >= min_width))
    first = np.flatnonzero(opens)
    last = np.concatenate((first[1:] - 1, [s.size - 1]))
    counts = (last - first + 1).astype(np.int64)
    return s[first], reach[last], counts

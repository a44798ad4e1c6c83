"""The device rectangles of ink bars: where spans are narrower than a pixel, each column's busy share as a bar.

A whole trace in view is mostly ink: at 1024 chunks over 32 streams every one of about a
hundred layers is a few hundred columns of it. Worked out layer by layer, the fixed cost of
a dozen small array operations per layer is most of a repaint; so the bars of all the layers
of a picture are worked out at once, on the layers' columns laid end to end, and handed back
layer by layer, each the same rectangles its own layer would give: the first batch item to
paint after a change works out those of every item of the picture (`picture_rects`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
import numpy.typing as npt
from PySide6.QtGui import QTransform

FloatArray = npt.NDArray[np.float64]
IntpArray = npt.NDArray[np.intp]
NO_RECTS: FloatArray = np.zeros((0, 4))


class InkLayer(NamedTuple):
    """One layer's ink as `ink_rects` takes it: column edges (ms), ink, base and the lane's rows."""

    edges_ms: FloatArray
    ink: FloatArray
    base: FloatArray
    rows_y: tuple[float, float]


def ink_layers_rects(layers: Sequence[InkLayer], transform: QTransform) -> list[FloatArray]:
    """`ink_rects` of each of `layers` (of one item or of many), worked out for all of them at once."""
    return layers_ink_rects(
        [layer.edges_ms for layer in layers], [layer.ink for layer in layers], [layer.base for layer in layers],
        [layer.rows_y for layer in layers], transform,
    )  # fmt: skip


def ink_rects(
    edges_ms: FloatArray, ink: FloatArray, base: FloatArray, rows_y: tuple[float, float], transform: QTransform
) -> FloatArray:
    """(x, y, w, h) device rectangles of one layer's ink bars: whole pixels across, the share of the lane's height up.

    Column i spans `edges_ms[i]` to `edges_ms[i + 1]`; its bar rises from `base[i]` of the
    lane's height (from its bottom) by `ink[i]`, never past the lane's top. Neighbouring
    bars of one height are one rectangle (a busy stretch is one bar, as a span is).
    """
    return layers_ink_rects([edges_ms], [ink], [base], [rows_y], transform)[0]


def layers_ink_rects(
    edges_ms: Sequence[FloatArray],
    inks: Sequence[FloatArray],
    bases: Sequence[FloatArray],
    rows_y: Sequence[tuple[float, float]],
    transform: QTransform,
) -> list[FloatArray]:
    """`ink_rects` of each layer (its edges, ink, base and lane's rows), worked out for all the layers at once."""
    if transform.m12() or transform.m21():
        raise ValueError("the timeline is never rotated or sheared")
    if not inks:
        return []
    counts = np.array([len(ink) for ink in inks], dtype=np.intp)
    ink = np.concatenate(inks)
    # most columns of a layer are empty (a stream's few dozen ops over a thousand columns):
    # only those with ink are read further
    inked = np.flatnonzero(ink > 0)
    layer = np.searchsorted(np.cumsum(counts), inked, side="right")  # the layer of each column inked
    column_left = inked + layer  # each layer before a column has one edge more than columns
    x = np.rint(np.concatenate(edges_ms)[np.concatenate((column_left, column_left + 1))] * transform.m11()
                + transform.m31()).reshape(2, -1)  # fmt: skip
    lane_y = np.array(rows_y, dtype=np.float64).reshape(-1, 2) * transform.m22() + transform.m32()
    bottom, height = lane_y.max(axis=1)[layer], np.abs(lane_y[:, 1] - lane_y[:, 0])[layer]
    base = np.concatenate(bases)[inked]
    low, high = np.minimum(base, 1.0), np.minimum(base + ink[inked], 1.0)
    left, right = np.minimum(x[0], x[1]), np.maximum(x[0], x[1])
    first, last = _runs_alike(np.flatnonzero((high > low) & (right > left)), inked, low, high, layer)
    top = bottom[first] - high[first] * height[first]
    rects = np.column_stack((left[first], top, right[last] - left[first], (high - low)[first] * height[first]))
    return np.split(rects, np.cumsum(np.bincount(layer[first], minlength=len(inks)))[:-1])


def _runs_alike(
    bars: IntpArray, columns: IntpArray, low: FloatArray, high: FloatArray, layer: IntpArray
) -> tuple[IntpArray, IntpArray]:
    """The first and last of each run of `bars` on neighbouring `columns` of one layer that share `low` and `high`.

    `bars` index `columns` (the columns, laid end to end, that have ink) and the arrays beside it.
    """
    if not len(bars):
        return bars, bars
    after, before = bars[1:], bars[:-1]
    opens = np.ones(len(bars), dtype=bool)  # a bar that does not continue the one before it
    apart = (columns[after] != columns[before] + 1) | (layer[after] != layer[before])
    opens[1:] = apart | (low[after] != low[before]) | (high[after] != high[before])
    starts = np.flatnonzero(opens)
    return bars[starts], bars[np.append(starts[1:] - 1, len(bars) - 1)]

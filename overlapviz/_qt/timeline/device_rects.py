"""Rectangles in data coordinates turned into whole device pixels and drawn in one call.

Painting in device space keeps edges crisp, keeps every rectangle at least one pixel wide
(spans narrower than a pixel are not drawn this way but as the ink of their columns, see
`span_item`), and keeps hatching at a fixed pixel pitch whatever the zoom. The rectangles go to
`QPainter.drawRects` through pyqtgraph's `PrimitiveArray` (as its `BarGraphItem` does), so
10^4 rectangles cost one call and no Python object each.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import numpy.typing as npt
from pyqtgraph.Qt.internals import PrimitiveArray
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QBrush, QPainter, QPen, QTransform

FloatArray = npt.NDArray[np.float64]


def to_device(x0: FloatArray, x1: FloatArray, y0: FloatArray, y1: FloatArray, transform: QTransform) -> FloatArray:
    """(x, y, w, h) rows in whole device pixels, at least one pixel wide and high.

    `transform` maps data to device coordinates; views only scale and translate.
    """
    if transform.m12() or transform.m21():
        raise ValueError("the timeline is never rotated or sheared")
    left, right = np.rint(x0 * transform.m11() + transform.m31()), np.rint(x1 * transform.m11() + transform.m31())
    top, bottom = np.rint(y0 * transform.m22() + transform.m32()), np.rint(y1 * transform.m22() + transform.m32())
    left, right = np.minimum(left, right), np.maximum(left, right)
    top, bottom = np.minimum(top, bottom), np.maximum(top, bottom)
    return np.column_stack((left, top, np.maximum(right - left, 1.0), np.maximum(bottom - top, 1.0)))


class RectBatch:
    """A reusable buffer of device rectangles for one `drawRects` call."""

    def __init__(self) -> None:
        self._array = PrimitiveArray(QRectF, 4)

    def draw(self, painter: QPainter, rects: FloatArray, brushes: Iterable[QBrush], pen: QPen | None = None) -> None:
        """Fill (and outline, with `pen`) `rects` once per brush, in device coordinates."""
        if not len(rects):
            return
        self._array.resize(len(rects))
        self._array.ndarray()[:] = rects
        painter.setPen(pen if pen is not None else Qt.PenStyle.NoPen)
        for brush in brushes:
            painter.setBrush(brush)
            painter.drawRects(*self._array.drawargs())

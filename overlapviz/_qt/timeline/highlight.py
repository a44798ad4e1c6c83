"""Outlines around the spans a finding points at, in every lane that shows them."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPen
from PySide6.QtWidgets import QGraphicsObject

from overlapviz._qt.timeline.device_rects import RectBatch, to_device
from overlapviz.core.trace.spans import Trace
from overlapviz.view.layout import TimelineLayout

OUTLINE_PX = 3
NS_PER_MS = 1e6


class HighlightItem(QGraphicsObject):
    """Draws an outline around each highlighted span."""

    def __init__(self, colour: str) -> None:
        super().__init__()
        self._boxes = np.zeros((0, 4))  # x0, x1 (ms), y0, y1 per outlined span
        self._batch = RectBatch()
        self._pen = QPen()
        self.set_colour(colour)

    def set_colour(self, colour: str) -> None:
        """Outline in `colour`."""
        self._pen = QPen(QColor(colour), OUTLINE_PX)
        self._pen.setJoinStyle(Qt.PenJoinStyle.MiterJoin)
        self.update()

    def set_rows(self, trace: Trace, layout: TimelineLayout, rows: npt.ArrayLike) -> None:
        """Outline `rows` (empty: none) wherever `layout` draws them."""
        wanted = np.asarray(rows, dtype=np.intp)
        boxes = []
        for placed in layout.lanes:
            hits = placed.rows[np.isin(placed.rows, wanted)]
            for start, end in zip(trace["start_ns"][hits], trace["end_ns"][hits], strict=True):
                boxes.append((start / NS_PER_MS, end / NS_PER_MS, placed.span_top, placed.span_bottom))
        self.prepareGeometryChange()
        self._boxes = np.asarray(boxes, dtype=np.float64).reshape(-1, 4)
        self.update()

    def count(self) -> int:
        """How many outlines are drawn."""
        return len(self._boxes)

    def boundingRect(self) -> QRectF:  # noqa: N802 (Qt's name)
        """Every outlined span."""
        if not len(self._boxes):
            return QRectF()
        x0, x1 = self._boxes[:, 0].min(), self._boxes[:, 1].max()
        y0, y1 = self._boxes[:, 2].min(), self._boxes[:, 3].max()
        return QRectF(x0, y0, max(x1 - x0, 1e-9), y1 - y0)

    def paint(self, painter: QPainter, *_args: Any) -> None:
        """Outline the boxes a little outside the spans, so the span's colour stays visible."""
        if not len(self._boxes):
            return
        transform = painter.transform()
        painter.save()
        painter.resetTransform()
        b = self._boxes
        rects = to_device(b[:, 0], b[:, 1], b[:, 2], b[:, 3], transform)
        rects[:, :2] -= OUTLINE_PX / 2
        rects[:, 2:] += OUTLINE_PX
        self._batch.draw(painter, rects, [QBrush(Qt.BrushStyle.NoBrush)], self._pen)
        painter.restore()

"""The shading behind the lanes: a band behind every other group, a line between lanes, a rule above each GPU."""

from __future__ import annotations

from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QPainter
from PySide6.QtWidgets import QGraphicsObject

from overlapviz._qt.themes import Theme
from overlapviz._qt.timeline.device_rects import RectBatch, to_device
from overlapviz.view.layout import TimelineLayout

SEPARATOR_ALPHA = 0.35


class LaneBackdrop(QGraphicsObject):
    """Group bands and lane separators across the visible time window."""

    def __init__(self, layout: TimelineLayout, theme: Theme) -> None:
        super().__init__()
        self._layout = layout
        self._theme = theme
        self._window = (0.0, 1.0)
        self._batch = RectBatch()

    def set_theme(self, theme: Theme) -> None:
        """Repaint in `theme`'s colours."""
        self._theme = theme
        self.update()

    def set_layout(self, layout: TimelineLayout) -> None:
        """Shade the lanes where `layout` places them."""
        self.prepareGeometryChange()
        self._layout = layout
        self.update()

    def set_window(self, t0_ms: float, t1_ms: float) -> None:
        """Cover the time window [t0, t1]."""
        self.prepareGeometryChange()
        self._window = (t0_ms, t1_ms)
        self.update()

    def boundingRect(self) -> QRectF:  # noqa: N802 (Qt's name)
        """The visible window across every lane."""
        t0, t1 = self._window
        return QRectF(t0, 0.0, max(t1 - t0, 1e-9), self._layout.height)

    def paint(self, painter: QPainter, *_args: Any) -> None:
        """Bands first, then the separators, then the rules that begin each GPU's lanes."""
        transform = painter.transform()
        painter.save()
        painter.resetTransform()
        t0, t1 = self._window
        bands = [band for index, band in enumerate(self._layout.groups) if index % 2 == 1]
        self._fill(painter, transform, t0, t1, [(b.top, b.bottom) for b in bands], QColor(self._theme.band))
        separator = QColor(self._theme.muted)
        separator.setAlphaF(SEPARATOR_ALPHA)
        lines = [(lane.bottom, lane.bottom) for lane in self._layout.lanes]
        self._fill(painter, transform, t0, t1, lines, separator)
        rules = [(device.top, device.top) for device in self._layout.devices]
        self._fill(painter, transform, t0, t1, rules, QColor(self._theme.muted))
        painter.restore()

    def _fill(
        self, painter: QPainter, transform: Any, t0: float, t1: float, spans: list[tuple[float, float]], colour: QColor
    ) -> None:
        if not spans:
            return
        y = np.asarray(spans, dtype=np.float64)
        x0, x1 = np.full(len(y), t0), np.full(len(y), t1)
        self._batch.draw(painter, to_device(x0, x1, y[:, 0], y[:, 1], transform), [pg.mkBrush(colour)])

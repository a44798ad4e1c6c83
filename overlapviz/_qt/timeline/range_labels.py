"""The names of annotation ranges, written inside each range wide enough to hold them.

The ranges of one annotation row never overlap (`view.annotation_depth`), so their starts
and their ends are both sorted and the ranges in view are one `searchsorted` away. A name
too long for its range is cut short with an ellipsis; a range too narrow for even that
shows none. Text is set in device pixels, so it keeps its size at any zoom, and shrinks to
fit a thin row. During a replay only the ranges begun by the cursor are named.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter
from PySide6.QtWidgets import QGraphicsObject

from overlapviz.core.trace.spans import Trace
from overlapviz.view.layout import PlacedLane
from overlapviz.view.palette import ANNOTATION_TEXT
from overlapviz.view.span_sets import SpanSet

NS_PER_MS = 1e6
PAD_PX = 3  # between a range's edge and its name
MIN_TEXT_PX = 7  # a row too thin for text this size shows no names
MAX_LABELS_PER_ROW = 400  # in one window: more names than that could not be read anyway
ELLIPSIS = "\u2026"
LINE_PER_PIXEL_SIZE = 1.25  # a font's line height over its pixel size, about, in common fonts


@dataclass(frozen=True, slots=True)
class _Row:
    starts_ms: npt.NDArray[np.float64]
    ends_ms: npt.NDArray[np.float64]
    name_ids: npt.NDArray[np.int32]  # into the trace's names
    top: float
    bottom: float


class RangeLabelItem(QGraphicsObject):
    """Writes the name of each annotation range of `sets` inside it, where it fits."""

    def __init__(self, sets: Sequence[SpanSet], lanes: Mapping[str, PlacedLane], trace: Trace) -> None:
        super().__init__()
        self._names = trace.names
        self._rows = [
            _Row(s.starts / NS_PER_MS, s.ends / NS_PER_MS, trace["name"][s.rows], lanes[s.lane_key].span_top,
                 lanes[s.lane_key].span_bottom)
            for s in sets if len(s)
        ]  # fmt: skip
        self._window = (0.0, 0.0)
        self._cursor_ms: float | None = None
        self._font = QFont()
        self._colour = QColor(ANNOTATION_TEXT)
        self._bounds = _bounds(self._rows)
        self.written: list[str] = []  # the names (or their shortened forms) the last paint wrote

    def set_font(self, font: QFont) -> None:
        """Write in `font` (shrunk where a row is thinner)."""
        self._font = QFont(font)
        self.update()

    def set_window(self, t0_ms: float, t1_ms: float) -> None:
        """Name the ranges of the window [t0, t1]."""
        self._window = (t0_ms, t1_ms)
        self.update()

    def set_cursor(self, t_ms: float | None) -> None:
        """Name only the ranges begun by `t_ms` (None: all)."""
        self._cursor_ms = t_ms
        self.update()

    def boundingRect(self) -> QRectF:  # noqa: N802 (Qt's name)
        """Every range."""
        return self._bounds

    def paint(self, painter: QPainter, *_args: Any) -> None:
        """Each row's names in device pixels, left-aligned inside the visible part of their range."""
        transform = painter.transform()
        painter.save()
        painter.resetTransform()
        painter.setPen(self._colour)
        self.written = []
        for row in self._rows:
            self._paint_row(painter, transform, row)
        painter.restore()

    def _paint_row(self, painter: QPainter, transform: Any, row: _Row) -> None:
        top, bottom = (y * transform.m22() + transform.m32() for y in (row.top, row.bottom))
        top, bottom = min(top, bottom), max(top, bottom)
        font = _fitting_font(self._font, bottom - top)
        if font is None:
            return
        painter.setFont(font)
        metrics = QFontMetrics(font)
        t0, t1 = self._window
        last = t1 if self._cursor_ms is None else min(t1, self._cursor_ms)
        first_index = int(np.searchsorted(row.ends_ms, t0, side="left"))
        end_index = min(int(np.searchsorted(row.starts_ms, last, side="right")), first_index + MAX_LABELS_PER_ROW)
        for index in range(first_index, end_index):
            end = row.ends_ms[index] if self._cursor_ms is None else min(row.ends_ms[index], self._cursor_ms)
            left = max(row.starts_ms[index], t0) * transform.m11() + transform.m31()
            right = min(end, t1) * transform.m11() + transform.m31()
            room = int(right - left) - 2 * PAD_PX
            name = self._names[int(row.name_ids[index])]
            text = metrics.elidedText(name, Qt.TextElideMode.ElideRight, room) if room > 0 else ""
            if text and text != ELLIPSIS:
                box = QRectF(left + PAD_PX, top, room, bottom - top)
                painter.drawText(box, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, text)
                self.written.append(text)


def _fitting_font(font: QFont, row_px: float) -> QFont | None:
    """`font`, smaller where the row is thinner than its line; None where even the smallest would not fit."""
    metrics = QFontMetrics(font)
    if metrics.height() <= row_px:
        return font
    size = int(row_px / LINE_PER_PIXEL_SIZE)
    if size < MIN_TEXT_PX:
        return None
    smaller = QFont(font)
    smaller.setPixelSize(size)
    return smaller


def _bounds(rows: list[_Row]) -> QRectF:
    if not rows:
        return QRectF()
    x0 = min(float(row.starts_ms[0]) for row in rows)
    x1 = max(float(row.ends_ms[-1]) for row in rows)
    y0, y1 = min(row.top for row in rows), max(row.bottom for row in rows)
    return QRectF(x0, y0, max(x1 - x0, 1e-9), y1 - y0)

"""Draws the callouts: a bracket over the spans a finding explains, its words just above.

Each callout has a row of its own above its lane (see `layout`), so neither the words nor
the bracket cover a span. The bracket runs along the bottom of the row with a tick down to
the lane at each end; the words sit on it, on a pad of the background colour, moved left
when they would run off the visible window and shortened with an ellipsis when even that is
not enough. Text and lines are in the theme's text colour, so they read in every theme; the
text shrinks to fit its row when the lanes are short.
"""

from __future__ import annotations

from typing import Any

import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPen, QTransform

from overlapviz._qt.themes import Theme
from overlapviz.view.callouts import Callout
from overlapviz.view.layout import TimelineLayout

NS_PER_MS = 1e6
PAD_PX = 4.0
MIN_TEXT_PX = 7
PAD_ALPHA = 0.85
BRACKET_SHARE = 0.8  # the bracket's height in its row, from the top


class CalloutItem(pg.GraphicsObject):  # type: ignore[misc]  # pyqtgraph is untyped
    """Every callout of one trace, drawn in device pixels."""

    def __init__(self, layout: TimelineLayout, callouts: list[Callout], theme: Theme) -> None:
        super().__init__()
        lanes = {placed.lane.key: placed for placed in layout.lanes}
        used: dict[str, int] = {}
        self._placed = []
        for callout in callouts:
            placed = lanes.get(callout.lane_key)
            if placed is None or used.get(callout.lane_key, 0) >= placed.callouts:
                continue
            row = used.get(callout.lane_key, 0)
            used[callout.lane_key] = row + 1
            self._placed.append((callout, placed.callout_row(row), placed.span_top))
        self._theme = theme
        self._font = QFont()
        self._window = (0.0, 1.0)
        self._cursor_ms: float | None = None
        self._bounds = _bounds(self._placed)

    @property
    def callouts(self) -> list[Callout]:
        """The callouts drawn, top to bottom within each lane."""
        return [callout for callout, _row, _lane_top in self._placed]

    def set_theme(self, theme: Theme) -> None:
        """Draw in `theme`'s colours."""
        self._theme = theme
        self.update()

    def set_font(self, font: QFont) -> None:
        """Write the words in `font` (bold), shrunk where a row is too short for it."""
        self._font = QFont(font)
        self._font.setBold(True)
        self.update()

    def set_window(self, t0_ms: float, t1_ms: float) -> None:
        """The visible time window: words stay inside it."""
        self.prepareGeometryChange()
        self._window = (t0_ms, t1_ms)
        self.update()

    def set_cursor(self, t_ms: float | None) -> None:
        """Show only what started before `t_ms` (None: everything), cut at `t_ms`."""
        self._cursor_ms = t_ms
        self.update()

    def boundingRect(self) -> QRectF:  # noqa: N802 (Qt's name)
        """The callout rows across the visible window."""
        if self._bounds is None:
            return QRectF()
        t0, t1 = self._window
        top, bottom = self._bounds
        return QRectF(t0, top, max(t1 - t0, 1e-9), bottom - top)

    def paint(self, painter: QPainter, *_args: Any) -> None:
        """Brackets, then the words on their pads."""
        if not self._placed:
            return
        transform = painter.transform()
        painter.save()
        painter.resetTransform()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        for callout, row, lane_top in self._placed:
            self._paint_one(painter, transform, callout, row, lane_top)
        painter.restore()

    def _paint_one(
        self, painter: QPainter, transform: QTransform, callout: Callout, row: tuple[float, float], lane_top: float
    ) -> None:
        segments = self._shown_segments(callout)
        if not segments:
            return
        top = transform.map(QPointF(0.0, row[0])).y()
        bottom = transform.map(QPointF(0.0, row[1])).y()
        bracket_y = top + (bottom - top) * BRACKET_SHARE
        tick_end = transform.map(QPointF(0.0, lane_top)).y()
        colour = QColor(self._theme.foreground)
        font = self._fitted_font(bracket_y - top)
        pen = QPen(colour, max(2.0, font.pixelSize() / 8))
        painter.setPen(pen)
        xs = [(transform.map(QPointF(s, 0.0)).x(), transform.map(QPointF(e, 0.0)).x()) for s, e in segments]
        for x0, x1 in xs:
            painter.drawLine(QPointF(x0, tick_end), QPointF(x0, bracket_y))
            painter.drawLine(QPointF(x0, bracket_y), QPointF(x1, bracket_y))
            painter.drawLine(QPointF(x1, bracket_y), QPointF(x1, tick_end))
        view_left = transform.map(QPointF(self._window[0], 0.0)).x()
        view_right = transform.map(QPointF(self._window[1], 0.0)).x()
        self._paint_words(painter, callout.text, font, xs[0][0], (view_left, view_right), (top, bracket_y))

    def _paint_words(
        self, painter: QPainter, text: str, font: QFont, x: float, view: tuple[float, float], band: tuple[float, float]
    ) -> None:
        metrics = QFontMetricsF(font)
        room = max(view[1] - view[0] - 2 * PAD_PX, 0.0)
        shown = metrics.elidedText(text, Qt.TextElideMode.ElideRight, room - 2 * PAD_PX)
        width = metrics.horizontalAdvance(shown) + 2 * PAD_PX
        left = min(max(x, view[0] + PAD_PX), view[1] - PAD_PX - width)
        height = min(metrics.height() + 2, band[1] - band[0])
        box = QRectF(left, band[1] - height - 1, width, height)
        pad = QColor(self._theme.background)
        pad.setAlphaF(PAD_ALPHA)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(pad)
        painter.drawRoundedRect(box, 3, 3)
        painter.setFont(font)
        painter.setPen(QColor(self._theme.foreground))
        painter.drawText(box, Qt.AlignmentFlag.AlignCenter, shown)

    def _fitted_font(self, room_px: float) -> QFont:
        """The font at its own size, or smaller so that a line fits `room_px`."""
        font = QFont(self._font)
        own = font.pixelSize() if font.pixelSize() > 0 else round(QFontMetricsF(font).height() / 1.25)
        font.setPixelSize(max(MIN_TEXT_PX, min(own, int((room_px - 2) / 1.25))))
        return font

    def _shown_segments(self, callout: Callout) -> list[tuple[float, float]]:
        """The segments in ms, cut at the cursor."""
        segments = [(start / NS_PER_MS, end / NS_PER_MS) for start, end in callout.segments]
        if self._cursor_ms is None:
            return segments
        cursor = self._cursor_ms
        return [(start, min(end, cursor)) for start, end in segments if start <= cursor]


def _bounds(placed: list[tuple[Callout, tuple[float, float], float]]) -> tuple[float, float] | None:
    if not placed:
        return None
    return min(row[0] for _c, row, _t in placed), max(lane_top for _c, _row, lane_top in placed)

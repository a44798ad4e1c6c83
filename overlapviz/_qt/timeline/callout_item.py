"""Draws the callouts: a bracket over the spans a finding explains, its words just above.

Each callout has a row of its own above its lane (see `layout`), so neither the words nor
the bracket cover a span. The rows are as tall as the words need (`row_px`): the timeline
sizes them from this item's font, which is the timeline's own (it follows the window's text
size), and from the words themselves (Chinese ones are set in a taller fallback font), so the
words are never shrunk nor cut. The bracket runs along the bottom of the row with a tick down
to the lane at each end; the words sit on it, on a pad of the background colour, moved left
when they would run off the visible window and cut at a whole word (or between two Chinese
characters), with an ellipsis, when even that is not enough (the whole text is the callout's
tooltip). A row the plot has no room for (a very short window) keeps its bracket and leaves
its words to the tooltip. Text and lines are in the theme's text colour, so they read in
every theme.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPointF, QRectF, Qt, QTextBoundaryFinder
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPen, QTransform
from PySide6.QtWidgets import QGraphicsObject

from overlapviz._qt.themes import Theme
from overlapviz._qt.timeline.text_extent import line_height
from overlapviz.core.i18n.text_width import display_width
from overlapviz.view.callouts import Callout
from overlapviz.view.layout import TimelineLayout

NS_PER_MS = 1e6
PAD_PX = 4.0  # beside the words, inside their pad
TEXT_MARGIN_PX = 2.0  # above and below the words, inside their pad
GAP_SHARE = 0.3  # room under the bracket, above the lane, in line heights
PAD_ALPHA = 0.85
ELLIPSIS = "\u2026"
TRAILING_PUNCTUATION = ",:;\uff0c\uff1a\uff1b\u3001"  # left out before the ellipsis: ",:;" and Chinese "，：；、"

Placed = tuple[Callout, tuple[float, float], float]  # the callout, its row (top, bottom), its lane's span top


class CalloutItem(QGraphicsObject):
    """Every callout of one trace, drawn in device pixels."""

    def __init__(self, layout: TimelineLayout, callouts: list[Callout], theme: Theme) -> None:
        super().__init__()
        self._callouts = callouts
        self._placed = _place(layout, callouts)
        self._theme = theme
        self._font = callout_font(QFont())
        self._line_px = self._words_line_px()
        self._window = (0.0, 1.0)
        self._cursor_ms: float | None = None
        self._bounds = _bounds(self._placed)
        self._word_boxes: list[tuple[QRectF, Callout]] = []  # scene coordinates, as last painted
        self.written: list[str] = []  # the words in each of those boxes: whole, or cut short with an ellipsis

    @property
    def callouts(self) -> list[Callout]:
        """The callouts drawn, top to bottom within each lane."""
        return [callout for callout, _row, _lane_top in self._placed]

    @property
    def font(self) -> QFont:
        """The font the words are written in."""
        return QFont(self._font)

    @property
    def drawn_words(self) -> list[tuple[QRectF, Callout]]:
        """Where the words of each callout were last painted (scene coordinates: ms, lane heights)."""
        return list(self._word_boxes)

    def row_px(self) -> float:
        """How many pixels tall a callout row must be for its words and bracket."""
        return row_px_for(self._line_px)

    def set_layout(self, layout: TimelineLayout) -> None:
        """Sit in the rows of `layout` (the same lanes and callouts, placed anew)."""
        self.prepareGeometryChange()
        self._placed = _place(layout, self._callouts)
        self._bounds = _bounds(self._placed)
        self.update()

    def set_theme(self, theme: Theme) -> None:
        """Draw in `theme`'s colours."""
        self._theme = theme
        self.update()

    def set_font(self, font: QFont) -> None:
        """Write the words in `font`, bold (the rows follow: see `row_px`)."""
        self._font = callout_font(font)
        self._line_px = self._words_line_px()
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

    def text_at(self, t_ms: float, y: float) -> str | None:
        """The whole text of the callout drawn at scene point (t, y), if any: its bracket or its words."""
        for box, callout in self._word_boxes:
            if box.contains(QPointF(t_ms, y)):
                return callout.text
        for callout, (top, bottom), _lane_top in self._placed:
            segments = self._shown_segments(callout)
            if segments and top <= y <= bottom and segments[0][0] <= t_ms <= segments[-1][1]:
                return callout.text
        return None

    def boundingRect(self) -> QRectF:  # noqa: N802 (Qt's name)
        """The callout rows across the visible window."""
        if self._bounds is None:
            return QRectF()
        t0, t1 = self._window
        top, bottom = self._bounds
        return QRectF(t0, top, max(t1 - t0, 1e-9), bottom - top)

    def paint(self, painter: QPainter, *_args: Any) -> None:
        """Brackets, then the words on their pads."""
        self._word_boxes = []
        self.written = []
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
        line = self._line_px
        top = transform.map(QPointF(0.0, row[0])).y()
        bottom = transform.map(QPointF(0.0, row[1])).y()
        bracket_y = bottom - min(GAP_SHARE * line, (bottom - top) / 3)
        tick_end = transform.map(QPointF(0.0, lane_top)).y()
        painter.setPen(QPen(QColor(self._theme.foreground), max(2.0, line / 10)))
        xs = [(transform.map(QPointF(s, 0.0)).x(), transform.map(QPointF(e, 0.0)).x()) for s, e in segments]
        for x0, x1 in xs:
            painter.drawLine(QPointF(x0, tick_end), QPointF(x0, bracket_y))
            painter.drawLine(QPointF(x0, bracket_y), QPointF(x1, bracket_y))
            painter.drawLine(QPointF(x1, bracket_y), QPointF(x1, tick_end))
        box_height = line + 2 * TEXT_MARGIN_PX
        if bracket_y - top < box_height:
            return  # no room for the words at their size: the tooltip has them
        view_left = transform.map(QPointF(self._window[0], 0.0)).x()
        view_right = transform.map(QPointF(self._window[1], 0.0)).x()
        box, shown = self._paint_words(
            painter, callout.text, xs[0][0], (view_left, view_right), bracket_y - 1 - box_height
        )
        inverse, _invertible = transform.inverted()
        self._word_boxes.append((inverse.mapRect(box), callout))
        self.written.append(shown)

    def _paint_words(
        self, painter: QPainter, text: str, x: float, view: tuple[float, float], top: float
    ) -> tuple[QRectF, str]:
        """The words at `x` (kept inside `view`), their pad's top at `top`; returns the pad and the words shown."""
        metrics = QFontMetricsF(self._font)
        room = max(view[1] - view[0] - 2 * PAD_PX, 0.0)
        shown = elide_at_words(text, metrics, room - 2 * PAD_PX)
        width = metrics.horizontalAdvance(shown) + 2 * PAD_PX
        left = min(max(x, view[0] + PAD_PX), view[1] - PAD_PX - width)
        box = QRectF(left, top, width, self._line_px + 2 * TEXT_MARGIN_PX)
        pad = QColor(self._theme.background)
        pad.setAlphaF(PAD_ALPHA)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(pad)
        painter.drawRoundedRect(box, 3, 3)
        painter.setFont(self._font)
        painter.setPen(QColor(self._theme.foreground))
        painter.drawText(box, Qt.AlignmentFlag.AlignCenter, shown)
        return box, shown

    def _words_line_px(self) -> float:
        """How tall a line of the words is in their font: as the tallest of them, Chinese included."""
        return line_height(self._font, (callout.text for callout in self._callouts))

    def _shown_segments(self, callout: Callout) -> list[tuple[float, float]]:
        """The segments in ms, cut at the cursor."""
        segments = [(start / NS_PER_MS, end / NS_PER_MS) for start, end in callout.segments]
        if self._cursor_ms is None:
            return segments
        cursor = self._cursor_ms
        return [(start, min(end, cursor)) for start, end in segments if start <= cursor]


def callout_font(font: QFont) -> QFont:
    """The callouts' font: `font`, bold, at its own size."""
    bold = QFont(font)
    bold.setBold(True)
    return bold


def row_px_for(line_px: float) -> float:
    """The pixels a callout row needs for words `line_px` tall: the words on their pad, the bracket, a gap."""
    return line_px + 2 * TEXT_MARGIN_PX + 1 + GAP_SHARE * line_px


def elide_at_words(text: str, metrics: QFontMetricsF, room_px: float) -> str:
    """`text`, or as much of its start as fits `room_px` with an ellipsis, cut where a line may break.

    That is at a space, or beside a Chinese (or other wide) character: Chinese has no spaces
    between words, and a sentence of it cut only at spaces would lose all its words at once.
    Empty: not even the first word fits.
    """
    if metrics.horizontalAdvance(text) <= room_px:
        return text
    for end in reversed(cut_points(text)):
        shown = text[:end].rstrip().rstrip(TRAILING_PUNCTUATION) + ELLIPSIS
        if metrics.horizontalAdvance(shown) <= room_px:
            return shown
    return ""


def cut_points(text: str) -> list[int]:
    """Where `text` may be cut short, ascending: its line breaks after a space or beside a wide character.

    Unicode's line breaking (as Qt wraps text) keeps a number or a closing mark with what it
    belongs to; of its breaks, those inside a word of Latin letters (after a hyphen) are left out.
    Neither the start nor the end of `text` is one.
    """
    finder = QTextBoundaryFinder(QTextBoundaryFinder.BoundaryType.Line, text)
    points = []
    position = finder.toNextBoundary()
    while 0 < position < len(text):
        before, after = text[position - 1], text[position]
        if before.isspace() or display_width(before) == 2 or display_width(after) == 2:
            points.append(position)
        position = finder.toNextBoundary()
    return points


def _place(layout: TimelineLayout, callouts: list[Callout]) -> list[Placed]:
    lanes = {placed.lane.key: placed for placed in layout.lanes}
    used: dict[str, int] = {}
    placed_callouts: list[Placed] = []
    for callout in callouts:
        lane = lanes.get(callout.lane_key)
        row = used.get(callout.lane_key, 0)
        if lane is None or row >= lane.callouts:
            continue
        used[callout.lane_key] = row + 1
        placed_callouts.append((callout, lane.callout_row(row), lane.span_top))
    return placed_callouts


def _bounds(placed: list[Placed]) -> tuple[float, float] | None:
    if not placed:
        return None
    return min(row[0] for _c, row, _t in placed), max(lane_top for _c, _row, lane_top in placed)

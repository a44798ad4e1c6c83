"""Where an exported picture writes its words: each piece of text, the box it takes, the room it is given.

Read from the laid-out picture itself, in its logical pixels: the labels (title, captions,
deltas, the "simulated" badge), the colour key's labels, each timeline's lane titles, time
ticks and axis title, and the callouts' words. The box is the text as Qt lays it out in its
font, fallback fonts included (a Chinese character's line is taller than a Latin font's); the
room is what the text is drawn inside and cut at: its label, the box `drawText` was given, the
axis, the plot. A piece is cut when its box leaves its room or the picture.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pyqtgraph as pg
from PySide6.QtCore import QPoint, QPointF, QRect, QRectF, QSizeF, Qt
from PySide6.QtGui import QFont, QImage, QPainter, QTextDocument
from PySide6.QtWidgets import QLabel, QWidget

from overlapviz._qt.timeline.text_extent import ink_height, text_size
from overlapviz._qt.timeline.widget import TimelineWidget
from overlapviz._qt.widgets.legend import LegendBar

TOLERANCE_PX = 0.5  # rounding of positions to whole pixels
TALL = 1 << 20  # room enough for any wrapped text


@dataclass(frozen=True, slots=True)
class Written:
    """One piece of text: which part of the picture, the text, where it lies and the room it has."""

    part: str
    text: str
    box: QRectF
    room: QRectF


def written_words(view: QWidget) -> list[Written]:
    """Every piece of text `view` (laid out) shows, in its coordinates."""
    words = [*_labels(view), *_legend_labels(view)]
    for timeline in view.findChildren(TimelineWidget):
        words += _axis_words(view, timeline) + _callout_words(view, timeline)
    return words


def cut(words: list[Written], picture: QRectF) -> list[str]:
    """Each piece whose text leaves its room or the picture."""
    return [
        f"{word.part} {word.text!r}: {_rect(word.box)} outside {_rect(room)}"
        for word in words
        for room in (word.room, picture)
        if not _holds(room, word.box)
    ]


def overlapping(words: list[Written]) -> list[str]:
    """Each two pieces whose texts cover one another."""
    found = []
    for index, word in enumerate(words):
        for other in words[index + 1 :]:
            common = word.box.intersected(other.box)
            if common.width() > TOLERANCE_PX and common.height() > TOLERANCE_PX:
                found.append(f"{word.part} {word.text!r} {_rect(word.box)} over {other.part} {other.text!r}")
    return found


def lane_titles(timeline: TimelineWidget) -> list[str]:
    """The titles the lane axis writes (the texts of its draw specs)."""
    return [text for _rect, _flags, text in _text_specs(_plot(timeline).getPlotItem().getAxis("left"))]


def _holds(room: QRectF, box: QRectF) -> bool:
    grown = room.adjusted(-TOLERANCE_PX, -TOLERANCE_PX, TOLERANCE_PX, TOLERANCE_PX)
    return grown.contains(box)


def _rect(rect: QRectF) -> str:
    return f"({rect.left():.1f}, {rect.top():.1f}, {rect.width():.1f} x {rect.height():.1f})"


def _in_view(view: QWidget, widget: QWidget, rect: QRectF) -> QRectF:
    return rect.translated(QPointF(widget.mapTo(view, QPoint(0, 0))))


def _labels(view: QWidget) -> list[Written]:
    """Each label on show: its text as laid out at the label's width, its room the label."""
    words = []
    for label in view.findChildren(QLabel):
        if not label.isVisibleTo(view) or not label.text():
            continue
        room = _in_view(view, label, QRectF(label.rect()))
        words.append(Written("label", label.text(), QRectF(room.topLeft(), _label_needs(label)), room))
    return words


def _label_needs(label: QLabel) -> QSizeF:
    """The size `label` needs for all of its text at its width (only the height grows for wrapped text)."""
    if not label.wordWrap():
        return QSizeF(label.sizeHint())
    contents = label.contentsRect()
    frame = label.width() - contents.width()
    if label.textFormat() == Qt.TextFormat.RichText:
        document = QTextDocument()
        document.setDefaultFont(label.font())
        document.setDocumentMargin(0)
        document.setHtml(label.text())
        document.setTextWidth(contents.width())
        width = math.ceil(document.idealWidth())
    else:
        wrapped = QRect(0, 0, contents.width(), TALL)
        width = label.fontMetrics().boundingRect(wrapped, Qt.TextFlag.TextWordWrap, label.text()).width()
    return QSizeF(width + frame, label.heightForWidth(label.width()))


def _legend_labels(view: QWidget) -> list[Written]:
    """Each colour key label: its text centred on its box, which `drawText` cuts at."""
    words = []
    for legend in view.findChildren(LegendBar):
        if not legend.isVisibleTo(view):
            continue
        whole = _in_view(view, legend, QRectF(legend.rect()))
        for placed in legend.placed():
            room = _in_view(view, legend, QRectF(placed.label_box))
            size = text_size(legend.font(), placed.text)
            box = QRectF(room.left(), room.center().y() - size.height() / 2, size.width(), size.height())
            words.append(Written("legend", placed.text, box, room.intersected(whole)))
    return words


def _plot(timeline: TimelineWidget) -> pg.PlotWidget:
    plot = timeline.findChild(pg.PlotWidget, "timeline_plot")
    assert isinstance(plot, pg.PlotWidget)
    return plot


def _from_scene(view: QWidget, timeline: TimelineWidget, rect: QRectF) -> QRectF:
    """`rect` of the plot's graphics scene in `view`'s coordinates."""
    plot = _plot(timeline)
    return _in_view(view, plot.viewport(), plot.viewportTransform().mapRect(rect))


def _text_specs(axis: pg.AxisItem) -> list[tuple[QRectF, int, str]]:
    """What `axis` writes where, as pyqtgraph works it out for its paint."""
    image = QImage(8, 8, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    try:
        if axis.style["tickFont"] is not None:
            painter.setFont(axis.style["tickFont"])
        specs = axis.generateDrawSpecs(painter)
    finally:
        painter.end()
    return [] if specs is None else list(specs[2])


def _axis_words(view: QWidget, timeline: TimelineWidget) -> list[Written]:
    """The lane titles and time ticks, their room the axis; the axis title, its room the plot."""
    plot = _plot(timeline)
    words = []
    for side, part in (("left", "lane title"), ("bottom", "time tick")):
        axis = plot.getPlotItem().getAxis(side)
        font = QFont(axis.style["tickFont"] or QFont())
        room = _from_scene(view, timeline, axis.mapRectToScene(axis.boundingRect()))
        for rect, flags, text in _text_specs(axis):
            # a title's letters, as wide as its line and as tall as its ink (a fallback font's leading is blank)
            box = _aligned(rect, int(flags), QSizeF(text_size(font, text).width(), ink_height(font, (text,))))
            words.append(Written(part, text, _from_scene(view, timeline, axis.mapRectToScene(box)), room))
        label = axis.label
        if axis.labelText and label.isVisible():
            margin = label.document().documentMargin()
            box = label.mapRectToScene(label.boundingRect().adjusted(margin, margin, -margin, -margin))
            room = _in_view(view, plot, QRectF(plot.rect()))
            words.append(Written("axis title", axis.labelText, _from_scene(view, timeline, box), room))
    return words


def _aligned(rect: QRectF, flags: int, size: QSizeF) -> QRectF:
    """Where text of `size` lies when drawn in `rect` with `flags` (pyqtgraph's rects are 0.8 of its height)."""
    if flags & Qt.AlignmentFlag.AlignRight:
        left = rect.right() - size.width()
    elif flags & Qt.AlignmentFlag.AlignHCenter:
        left = rect.center().x() - size.width() / 2
    else:
        left = rect.left()
    if flags & Qt.AlignmentFlag.AlignTop:
        top = rect.top()
    elif flags & Qt.AlignmentFlag.AlignBottom:
        top = rect.bottom() - size.height()
    else:
        top = rect.center().y() - size.height() / 2
    return QRectF(QPointF(left, top), size)


def _callout_words(view: QWidget, timeline: TimelineWidget) -> list[Written]:
    """Each callout's words: centred on their pad, which `drawText` cuts at; the pad inside the plot's lanes."""
    scene = timeline.scene_items
    if scene is None:
        return []
    item = scene.callout_item
    view_box = _plot(timeline).getPlotItem().getViewBox()
    lanes = _from_scene(view, timeline, view_box.sceneBoundingRect())
    words = []
    for (pad, _callout), text in zip(item.drawn_words, item.written, strict=True):
        room = _from_scene(view, timeline, view_box.mapViewToScene(pad).boundingRect())
        size = text_size(item.font, text)
        centre = room.center()
        box = QRectF(centre.x() - size.width() / 2, centre.y() - size.height() / 2, size.width(), size.height())
        words.append(Written("callout", text, box, room.intersected(lanes)))
    return words

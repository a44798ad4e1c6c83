"""Whether the text on show fits: each label's text inside its widget, no two text widgets over each other.

A label's text is measured as Qt lays it out: plain text with `QFontMetrics.boundingRect`
(word-wrapped where the label wraps), rich text with a `QTextDocument` of the label's font and
width (a label lays its rich text out in one). Chinese has no spaces, so a wrapped line breaks
between any two characters; a label that does not wrap keeps its text on one line, which must
then fit its width.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QFontMetrics, QTextDocument, QTextOption
from PySide6.QtWidgets import QAbstractButton, QLabel, QWidget

SLACK = 1  # px: Qt rounds a text's size up to whole pixels, the layout rounds a widget's down


def _is_rich(label: QLabel) -> bool:
    return label.textFormat() == Qt.TextFormat.RichText or (
        label.textFormat() == Qt.TextFormat.AutoText and Qt.mightBeRichText(label.text())
    )


def text_size(label: QLabel, width: int) -> tuple[int, int]:
    """The width and height `label`'s text takes when laid out `width` pixels wide."""
    if _is_rich(label):
        document = QTextDocument()
        document.setDefaultFont(label.font())
        document.setDocumentMargin(0)
        document.setHtml(label.text())
        option = QTextOption(label.alignment())
        # as a label wraps: at the line breaks Unicode allows (between any two Chinese characters)
        option.setWrapMode(QTextOption.WrapMode.WordWrap if label.wordWrap() else QTextOption.WrapMode.ManualWrap)
        document.setDefaultTextOption(option)
        document.setTextWidth(width if label.wordWrap() else -1)
        return math.ceil(document.idealWidth()), math.ceil(document.size().height())
    flags = Qt.TextFlag.TextWordWrap if label.wordWrap() else Qt.TextFlag(0)
    box = QFontMetrics(label.font()).boundingRect(QRect(0, 0, width, 100_000), flags, label.text())
    return box.width(), box.height()


def clipped_labels(root: QWidget) -> list[str]:
    """The labels on show under `root` whose text does not fit inside them: ``"text: needs WxH in WxH"``."""
    clipped = []
    for label in root.findChildren(QLabel):
        if not label.isVisible() or not label.text():
            continue
        room = label.contentsRect()
        width, height = text_size(label, room.width())
        if width > room.width() + SLACK or height > room.height() + SLACK:
            clipped.append(f"{label.text()!r}: needs {width}x{height} in {room.width()}x{room.height()}")
    return clipped


def _shown_rect(widget: QWidget, root: QWidget) -> QRect:
    """The part of `widget` its ancestors let show, in `root`'s coordinates (empty when scrolled away)."""
    rect = QRect(widget.mapTo(root, widget.rect().topLeft()), widget.size())
    parent = widget.parentWidget()
    while parent is not None and parent is not root:
        rect &= QRect(parent.mapTo(root, parent.rect().topLeft()), parent.size())
        parent = parent.parentWidget()
    return rect


def _text_widgets(root: QWidget) -> list[QWidget]:
    labels = [label for label in root.findChildren(QLabel) if label.isVisible() and label.text()]
    buttons = [button for button in root.findChildren(QAbstractButton) if button.isVisible() and button.text()]
    return [*labels, *buttons]


def overlapping_texts(root: QWidget) -> list[tuple[str, str]]:
    """Each pair of text widgets on show under `root` that lie over each other, by their texts."""
    shown = [(widget, _shown_rect(widget, root)) for widget in _text_widgets(root)]
    shown = [(widget, rect) for widget, rect in shown if not rect.isEmpty()]
    pairs = []
    for index, (one, one_rect) in enumerate(shown):
        for other, other_rect in shown[index + 1 :]:
            nested = one.isAncestorOf(other) or other.isAncestorOf(one)
            if not nested and one_rect.intersects(other_rect):
                pairs.append((_text_of(one), _text_of(other)))
    return pairs


def _text_of(widget: QWidget) -> str:
    return widget.text() if isinstance(widget, QLabel | QAbstractButton) else widget.objectName()

"""Which single-line texts of a widget tree are cut short: wider than the room their widget has."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QAbstractButton, QComboBox, QGroupBox, QLabel, QStyle, QStyleOptionComboBox, QWidget


def clipped_texts(root: QWidget) -> list[str]:
    """One line per visible text under `root` that does not fit: what it says, the room it needs and has."""
    found = []
    for widget in root.findChildren(QWidget):
        if not widget.isVisibleTo(root):
            continue
        room = _room(widget)
        if room is not None and room[1] > room[2]:
            text, need, have = room
            found.append(f"{type(widget).__name__} {widget.objectName()!r} {text!r}: needs {need} px, has {have}")
    return found


def _room(widget: QWidget) -> tuple[str, int, int] | None:
    """(text, width it needs, width it has) for a widget that shows a single-line text; None for others."""
    if isinstance(widget, QGroupBox):
        return widget.title(), QFontMetrics(widget.font()).horizontalAdvance(widget.title()), widget.width()
    if isinstance(widget, QLabel):
        text = widget.text()
        if not text or widget.wordWrap() or Qt.mightBeRichText(text):
            return None  # a wrapping label takes its height from its width; rich text measures otherwise
        metrics = QFontMetrics(widget.font())
        return text, max(metrics.horizontalAdvance(line) for line in text.split("\n")), widget.contentsRect().width()
    if isinstance(widget, QComboBox):
        # the closed box shows its current entry beside the arrow (the list opens as wide as its entries)
        option = QStyleOptionComboBox()
        widget.initStyleOption(option)
        field = widget.style().subControlRect(
            QStyle.ComplexControl.CC_ComboBox, option, QStyle.SubControl.SC_ComboBoxEditField, widget
        )
        text = widget.currentText()
        return text, QFontMetrics(widget.font()).horizontalAdvance(text), field.width()
    if isinstance(widget, QAbstractButton):
        # a button's text sits inside its bevel, or beside its check box or switch: the width the
        # style asks for is its size hint
        return widget.text(), widget.sizeHint().width(), widget.width()
    return None

"""Labels of the comparison that keep their whole text in the room they get, at any text size and in any language.

A side's caption wraps; the panes of a splitter are sized by their minimum heights, which
for a wrapped label is one line, so a caption of two or three lines (Chinese at slide size,
where a line breaks between any two characters) was cut. `WholeTextLabel` asks for the
height its text takes at its width. The table of differences has a column per figure whose
titles do not wrap, so at slide size it can be wider than a 1280-pixel screen: `FittedTable`
writes it smaller, down to `SMALLEST_SHARE` of the text size, rather than cutting its last
columns off.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QFont, QResizeEvent, QTextDocument, QTextOption
from PySide6.QtWidgets import QLabel, QWidget

SMALLEST_SHARE = 0.5  # of the window's text size: the table stays readable on a projector
FIT_STEPS = 6  # a table's width is not proportional to its type size: a few tries converge
UNDERSHOOT = 0.98  # each try a little smaller than the proportion says: the cells' padding does not shrink


class WholeTextLabel(QLabel):
    """A word-wrapped label that is never given less height than its text takes at its width."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWordWrap(True)

    def setText(self, text: str) -> None:  # noqa: N802 (Qt's name)
        """Show `text`, and ask for the height it takes."""
        super().setText(text)
        self._ask_height()

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt's name)
        """A new width: a new height to ask for."""
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self._ask_height()

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt's name)
        """A new text size: a new height to ask for."""
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self._ask_height()

    def _ask_height(self) -> None:
        height = self.heightForWidth(self.width()) if self.text() else 0
        if height != self.minimumHeight():
            self.setMinimumHeight(height)


class FittedTable(QLabel):
    """Rich text (a table) that wraps to its width, written smaller when even wrapped it is wider."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.RichText)
        self.setWordWrap(True)
        # The table never widens the window (a label's own minimum for a wrapped table is far
        # wider than the table needs): it fits itself to the width it gets instead.
        self.setMinimumWidth(1)
        self._html = ""
        self._fitted_width = -1

    def set_table(self, html: str) -> None:
        """Show `html`, fitted to the label's width."""
        self._html = html
        self._fit()

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt's name)
        """A new width: fit the table again."""
        super().resizeEvent(event)
        if self.width() != self._fitted_width:
            self._fit()

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt's name)
        """A new text size: fit the table again."""
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self._fit()

    def _fit(self) -> None:
        self._fitted_width = self.width()
        room = self.contentsRect().width()
        share = 1.0
        for _ in range(FIT_STEPS):
            needed = self._width_needed(share, room)
            if needed <= room or share <= SMALLEST_SHARE:
                break
            share = max(SMALLEST_SHARE, share * room / needed * UNDERSHOOT)
        super().setText(self._sized(share))

    def _sized(self, share: float) -> str:
        if share >= 1.0 or not self._html:
            return self._html
        font = shrunk(self.font(), share)
        size = f"{font.pointSizeF():.1f}pt" if font.pointSizeF() > 0 else f"{font.pixelSize()}px"
        return f"<div style='font-size: {size}'>{self._html}</div>"

    def _width_needed(self, share: float, room: int) -> float:
        """How wide the table is when written at `share` of the text size and wrapped to `room`."""
        document = QTextDocument()
        document.setDefaultFont(QFont(self.font()))
        document.setDocumentMargin(0)
        option = QTextOption()
        option.setWrapMode(QTextOption.WrapMode.WordWrap)  # as a word-wrapped label lays it out
        document.setDefaultTextOption(option)
        document.setHtml(self._sized(share))
        document.setTextWidth(max(room, 1))
        return document.idealWidth()


def shrunk(font: QFont, share: float) -> QFont:
    """`font` at `share` of its size (in points, or in pixels where it is sized so)."""
    smaller = QFont(font)
    if font.pointSizeF() > 0:
        smaller.setPointSizeF(font.pointSizeF() * share)
    else:
        smaller.setPixelSize(max(1, round(font.pixelSize() * share)))
    return smaller

"""The colour key: one swatch per op kind, drawn with the timeline's own brushes.

The key wraps onto more lines when the window is too narrow for one (a 1280-px laptop with
the side columns open), whole entries at a time; only an entry wider than the whole key has
its label elided with "…". No label is ever cut off mid-word. Its tooltip says what a partly
filled column of a lane means.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPaintEvent
from PySide6.QtWidgets import QSizePolicy, QWidget

from overlapviz._qt.timeline.brushes import solid_brush, waiting_brushes
from overlapviz._qt.timeline.text_extent import line_height, text_size
from overlapviz.core.i18n import _
from overlapviz.view.lane_ink import INK_MEANING
from overlapviz.view.palette import LEGEND, LegendEntry

SWATCH_EM = 1.6  # swatch width in font heights
SWATCH_GAP_EM = 0.4  # between a swatch and its label
GAP_EM = 1.2  # between one entry and the next
LINE_EM = 1.6  # line height in font heights


@dataclass(frozen=True, slots=True)
class PlacedEntry:
    """Where one entry is drawn: its swatch, the box of its label, and the label as written."""

    entry: LegendEntry
    swatch: QRect
    label_box: QRect
    text: str  # the whole label, or its start and "…" where the label is wider than the key


class LegendBar(QWidget):
    """Rows of swatches with their labels, in the widget's font and text colour."""

    def __init__(self, parent: QWidget | None = None, entries: tuple[LegendEntry, ...] = LEGEND) -> None:
        super().__init__(parent)
        self._entries = entries
        self._text_colour: QColor | None = None
        self.setToolTip(_(INK_MEANING))
        policy = QSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)

    @property
    def entries(self) -> tuple[LegendEntry, ...]:
        """The swatches, in order."""
        return self._entries

    def set_entries(self, entries: tuple[LegendEntry, ...]) -> None:
        """Show `entries` (the kinds a picture draws)."""
        if entries != self._entries:
            self._entries = entries
            self.updateGeometry()
            self.update()

    def set_text_colour(self, colour: QColor | None) -> None:
        """Write the labels in `colour` (None: the palette's text colour)."""
        self._text_colour = colour
        self.update()

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        """Every entry on one line."""
        height = self.fontMetrics().height()
        width = sum(self._entry_width(entry, height) for entry in self._entries)
        return QSize(int(width), self._line_height())

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        """As tall as a line; as narrow as the layout likes (the entries wrap)."""
        return QSize(0, self._line_height())

    def hasHeightForWidth(self) -> bool:  # noqa: N802 (Qt's name)
        """The narrower, the more lines."""
        return True

    def heightForWidth(self, width: int) -> int:  # noqa: N802 (Qt's name)
        """One line per row of entries that fit in `width`."""
        return self._line_height() * len(self.rows(width))

    def rows(self, width: int) -> list[list[LegendEntry]]:
        """The entries line by line, as many on a line as fit in `width` (at least one)."""
        rows: list[list[LegendEntry]] = [[]]
        used, gap, height = 0.0, self._gap(), self.fontMetrics().height()
        for entry in self._entries:
            entry_width = self._entry_width(entry, height)
            if rows[-1] and used + entry_width - gap > width:  # the last entry of a line needs no gap after it
                rows.append([])
                used = 0.0
            rows[-1].append(entry)
            used += entry_width
        return rows

    def placed(self, width: int | None = None) -> list[PlacedEntry]:
        """Every entry where a key `width` wide (its own by default) draws it, line by line."""
        width = self.width() if width is None else width
        metrics = self.fontMetrics()
        height = metrics.height()  # the swatches' size: the font's own line
        text_height = math.ceil(self._text_height())  # the labels': as tall as Qt lays them out
        line = self._line_height()
        found = []
        for index, row in enumerate(self.rows(width)):
            top = index * line + (line - height) // 2
            text_top = index * line + (line - text_height) // 2
            x = 0.0
            for entry in row:
                swatch = QRect(int(x), top + height // 6, int(height * SWATCH_EM), height * 2 // 3)
                x += height * (SWATCH_EM + SWATCH_GAP_EM)
                text = metrics.elidedText(entry.label, Qt.TextElideMode.ElideRight, max(int(width - x), 0))
                text_width = self._label_width(text)
                found.append(PlacedEntry(entry, swatch, QRect(int(x), text_top, text_width + 2, text_height), text))
                x += text_width + self._gap()
        return found

    def paintEvent(self, _event: QPaintEvent) -> None:  # noqa: N802 (Qt's name)
        """Swatch, label, gap; line by line."""
        painter = QPainter(self)
        painter.setPen(self._text_colour or self.palette().windowText().color())
        for placed in self.placed():
            entry = placed.entry
            brushes = waiting_brushes(entry.colour) if entry.waiting else (solid_brush(entry.colour),)
            for brush in brushes:
                painter.fillRect(placed.swatch, brush)
            painter.drawText(placed.label_box, Qt.AlignmentFlag.AlignVCenter, placed.text)
        painter.end()

    def _text_height(self) -> float:
        """How tall a label's line is: the font's, or taller where a fallback font writes it (Chinese)."""
        return line_height(self.font(), (entry.label for entry in self._entries))

    def _line_height(self) -> int:
        return int(self._text_height() * LINE_EM)

    def _label_width(self, text: str) -> int:
        return math.ceil(text_size(self.font(), text).width())

    def _gap(self) -> float:
        return self.fontMetrics().height() * GAP_EM

    def _entry_width(self, entry: LegendEntry, height: int | None = None) -> float:
        """How wide `entry` is with the gap after it (`height`: the font's line, when the caller has it)."""
        height = self.fontMetrics().height() if height is None else height
        return height * (SWATCH_EM + SWATCH_GAP_EM + GAP_EM) + self._label_width(entry.label) + 2

"""How much room a text takes as Qt draws it, Chinese included.

`QFontMetrics.height()` is the line of the font asked for. A Chinese character comes from a
fallback font where that font has none (Noto Sans CJK beside DejaVu Sans, say), whose line is
about a quarter taller, and Qt lays a line out as tall as the tallest font in it; `drawText`
cuts the text at its box when the text is larger. So a box for words is measured on the words.
"""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QRectF, QSizeF, Qt
from PySide6.QtGui import QFont, QFontMetricsF

ROOM = 1 << 20  # px: more than any line needs, so that the measure is of the text alone
ONE_LINE = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop | Qt.TextFlag.TextSingleLine
KEPT_SIZES = 4096  # texts measured and kept; past that the kept ones are dropped and measured again

# A layout out of the fonts that may write each character takes about 0.4 ms (a 2-core machine):
# the key and the callouts measure their texts at every relayout, a dozen times a new picture.
# The fonts a process can use do not change while it runs, so a size, once measured, holds.
_sizes: dict[tuple[str, str], QSizeF] = {}


def text_size(font: QFont, text: str) -> QSizeF:
    """The width and height Qt lays `text` out in, on one line in `font` (fallback fonts included)."""
    key = (font.key(), text)
    size = _sizes.get(key)
    if size is None:
        if len(_sizes) >= KEPT_SIZES:
            _sizes.clear()
        size = _sizes[key] = QFontMetricsF(font).boundingRect(QRectF(0, 0, ROOM, ROOM), ONE_LINE, text).size()
    return QSizeF(size)


def line_height(font: QFont, texts: Iterable[str] = ()) -> float:
    """The height of a line of `font` that holds each of `texts`: at least the font's own line."""
    return max([QFontMetricsF(font).height(), *(text_size(font, text).height() for text in texts)])


def tallest(font: QFont, texts: Iterable[str]) -> str:
    """The one of `texts` whose line in `font` is tallest ("" for none): the one a row must hold."""
    return max(texts, key=lambda text: text_size(font, text).height(), default="")


def ink_height(font: QFont, texts: Iterable[str] = ()) -> float:
    """The height a row of `font` needs so that no two rows' letters touch: the font's own line, or taller ink.

    A Chinese title's line is a quarter taller than its characters (the fallback font's leading),
    so rows fitted to that line make Chinese titles smaller than English ones for no ink's sake.
    """
    metrics = QFontMetricsF(font)
    return max([metrics.height(), *(metrics.tightBoundingRect(text).height() for text in texts)])

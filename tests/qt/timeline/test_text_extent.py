"""Text sizes are measured once per font and text, and each font keeps its own."""

from PySide6.QtGui import QFont

from overlapviz._qt.timeline.text_extent import text_size


def test_a_kept_size_is_the_fonts_own_and_a_caller_cannot_change_it(qapp):
    small, large = QFont(), QFont()
    small.setPixelSize(10)
    large.setPixelSize(40)
    first = text_size(small, "H2D copy")
    first.setWidth(1e6)  # a caller's own copy
    assert text_size(small, "H2D copy").width() < 1e6
    assert text_size(large, "H2D copy").width() > 2 * text_size(small, "H2D copy").width()

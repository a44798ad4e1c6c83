"""The colour key wraps whole entries onto more lines in a narrow window; no label is cut off."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QFont

from overlapviz._qt.main_window import MainWindow
from overlapviz._qt.widgets.legend import LegendBar
from overlapviz.view.palette import LEGEND


def _right_edges(legend: LegendBar) -> list[float]:
    """Where each line of the key ends, as the legend lays it out at its width."""
    return [sum(legend._entry_width(e) for e in row) - legend._gap() for row in legend.rows(legend.width())]


@pytest.mark.parametrize("width", [1280, 1366, 1920])
def test_the_windows_key_fits_its_width_on_as_many_lines_as_it_needs(qtbot, settings, width):
    window = MainWindow(settings, live=False)
    qtbot.addWidget(window)
    window.resize(width, 800)
    window.show()
    qtbot.waitExposed(window)
    legend = window.legend
    rows = legend.rows(legend.width())
    assert [e for row in rows for e in row] == list(LEGEND)  # every entry, in order
    assert max(_right_edges(legend)) <= legend.width()
    assert legend.height() >= legend.heightForWidth(legend.width())  # the layout gave it every line
    if legend.sizeHint().width() > legend.width():  # one line would have clipped "Waiting (ready → start)"
        assert len(rows) > 1


def test_a_narrow_key_wraps_and_a_wide_one_keeps_one_line(qtbot):
    legend = LegendBar()
    qtbot.addWidget(legend)
    font = QFont()
    font.setPixelSize(16)
    legend.setFont(font)
    one_line = legend.sizeHint().width()
    assert len(legend.rows(one_line)) == 1
    assert legend.heightForWidth(one_line // 2) >= 2 * legend.heightForWidth(one_line)
    narrowest = min(legend._entry_width(e) for e in LEGEND) - legend._gap()
    assert len(legend.rows(int(narrowest) - 1)) == len(LEGEND)  # one entry a line, never none


def test_the_wrapped_key_draws_its_last_label_whole(qtbot):
    legend = LegendBar()
    qtbot.addWidget(legend)
    legend.resize(legend.sizeHint().width() // 2, legend.heightForWidth(legend.sizeHint().width() // 2))
    legend.show()
    qtbot.waitExposed(legend)
    image = legend.grab().toImage()
    last_line = legend.rows(legend.width())[-1]
    line = legend._line_height()
    end = int(sum(legend._entry_width(e) for e in last_line) - legend._gap())
    top = (len(legend.rows(legend.width())) - 1) * line
    ink = [x for x in range(image.width()) for y in range(top, min(top + line, image.height()))
           if image.pixelColor(x, y).lightness() < 128]
    assert ink and max(ink) < end <= legend.width()  # the label's last glyph lies inside the key


def test_the_keys_tooltip_says_what_a_partly_filled_column_means(qtbot):
    legend = LegendBar()
    qtbot.addWidget(legend)
    assert "narrower than a pixel" in legend.toolTip() and "share of the time busy" in legend.toolTip()

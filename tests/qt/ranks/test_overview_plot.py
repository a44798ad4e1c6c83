"""The overview's plot alone: many ranks in one image item, the rows named as room allows, a row's tooltip."""

import numpy as np
import pytest
from PySide6.QtWidgets import QToolTip

from overlapviz._qt.ranks.rank_panel import RankOverviewPanel
from overlapviz.view.rank_overview import RankOverview, RankRow

ROWS, COLUMNS = 512, 1024


def _overview(rows=ROWS):
    marks = {7: ("makespan",)}
    made = tuple(
        RankRow(n, __import__("pathlib").Path(f"rank{n}.json"), 0, 10**9, 0, 0, marks.get(n, ()), f"rank {n}: figures")
        for n in range(rows)
    )  # fmt: skip
    image = np.zeros((rows, COLUMNS, 4), dtype=np.uint8)
    image[:, ::2] = (0, 114, 178, 255)
    return RankOverview(made, image, 10**9, f"{rows} ranks", ())


@pytest.fixture
def panel(qtbot):
    widget = RankOverviewPanel()
    qtbot.addWidget(widget)
    widget.resize(1200, 700)
    widget.show()
    return widget


def test_many_ranks_are_one_image_item_and_the_rows_named_fit_the_height(panel):
    panel.show_overview(_overview(), "job")
    plot = panel.plot
    items = plot.getPlotItem().items
    assert len(items) <= 2  # the image, and the one worst rank's frame: never an item per cell
    labels = [label for _y, label in plot.getAxis("left")._tickLevels[0]]
    assert 2 < len(labels) < ROWS
    assert "rank 7 \u2605" in labels  # a marked rank is always named


def test_hovering_a_row_shows_its_figures(qtbot, panel):
    panel.show_overview(_overview(4), "job")
    plot = panel.plot
    qtbot.mouseMove(plot.viewport(), plot.row_centre(2).toPoint())
    qtbot.waitUntil(lambda: QToolTip.isVisible(), timeout=5_000)
    assert QToolTip.text() == "rank 2: figures"


def test_up_and_down_move_the_selection_and_a_finding_selects_its_ranks(qtbot, panel):
    from PySide6.QtCore import Qt

    panel.show_overview(_overview(4), "job")
    plot = panel.plot
    plot.set_selected([1])
    qtbot.keyClick(plot, Qt.Key.Key_Down)
    assert plot.selected == [2]
    qtbot.keyClick(plot, Qt.Key.Key_Up)
    qtbot.keyClick(plot, Qt.Key.Key_Up)
    assert plot.selected == [0]
    assert panel.open_button.isEnabled() and not panel.compare_button.isEnabled()

"""A job's rank overview and the ranks' actions, in zh_CN."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PySide6.QtWidgets import QGroupBox, QListWidgetItem, QMainWindow
from pytestqt.qtbot import QtBot

from overlapviz._qt.ranks.rank_actions import COMPARE_RANKS_KEYS, build_rank_actions
from overlapviz._qt.ranks.rank_panel import RankOverviewPanel
from overlapviz.job.job_findings import JobFinding
from overlapviz.view.rank_overview import RankOverview, RankRow
from tests.qt_i18n.chinese import chinese

pytestmark = pytest.mark.usefixtures("zh_cn")


def _overview(findings: tuple[JobFinding, ...]) -> RankOverview:
    rows = tuple(RankRow(n, Path(f"rank{n}.json"), 0, 10**9, 0, 0, (), f"rank {n}") for n in range(2))
    image = np.zeros((len(rows), 16, 4), dtype=np.uint8)
    return RankOverview(rows, image, 10**9, "2 ranks", findings)


@pytest.fixture
def panel(qtbot: QtBot) -> RankOverviewPanel:
    widget = RankOverviewPanel()
    qtbot.addWidget(widget)
    widget.resize(1200, 700)
    widget.show()
    return widget


def test_the_overviews_words_are_chinese(panel: RankOverviewPanel) -> None:
    panel.show_overview(_overview(()), "job")
    box = panel.findChild(QGroupBox)
    assert box is not None
    quiet = panel.findings.item(0)
    assert isinstance(quiet, QListWidgetItem)
    axis = panel.plot.getAxis("bottom").labelText
    texts = [panel.how.text(), panel.open_button.text(), panel.compare_button.text(), box.title(), quiet.text(), axis]
    assert all(chinese(text) for text in texts), texts
    assert COMPARE_RANKS_KEYS in panel.how.text() and COMPARE_RANKS_KEYS in panel.compare_button.toolTip()
    assert panel.heading.text().startswith("<b>job</b>")


def test_a_jobs_finding_tells_in_chinese_how_to_select_its_ranks(panel: RankOverviewPanel) -> None:
    panel.show_overview(_overview((JobFinding("straggler", "rank 1 is late", (1,)),)), "job")
    tip = panel.findings.item(0).toolTip()
    assert tip.startswith("straggler") and chinese(tip)


def test_the_rank_actions_are_chinese_and_join_menus_whatever_their_titles(qtbot: QtBot) -> None:
    window = QMainWindow()
    qtbot.addWidget(window)
    names = ("file_menu", "view_menu", "compare_menu")
    menus = {name: window.menuBar().addMenu(f"菜单 {name}") for name in names}  # titles match no English
    for name, menu in menus.items():
        menu.setObjectName(name)
    actions = build_rank_actions(window)
    placed = {
        "file_menu": actions.open_folder,
        "view_menu": actions.back_to_ranks,
        "compare_menu": actions.compare_ranks,
    }
    for name, action in placed.items():
        assert action in menus[name].actions(), name
        assert chinese(action.text()) and "&" in action.text()
        assert chinese(action.toolTip())
    assert COMPARE_RANKS_KEYS in actions.compare_ranks.toolTip()

"""The rank overview's page: the job in one line, the colour key, the rows of ranks, the job's findings.

It takes the centre of the window in place of the timeline while a job is on show (see
`rank_navigation`); its buttons open the selected rank or compare the two selected.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QColor, QFont
from PySide6.QtWidgets import (
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from overlapviz._qt.ranks.overview_plot import RankOverviewPlot
from overlapviz._qt.ranks.rank_actions import COMPARE_RANKS_KEYS
from overlapviz._qt.themes import Theme
from overlapviz._qt.translation import translate
from overlapviz._qt.widgets.legend import LegendBar
from overlapviz._qt.widgets.metrics_panel import fit_finding_rows
from overlapviz.core.i18n import _
from overlapviz.view.rank_overview import LEGEND_MEANING, RANK_LEGEND, RankOverview
from overlapviz.view.unit_text import unbreakable

RANKS_ROLE = Qt.ItemDataRole.UserRole  # a finding's rows of the overview


class RankOverviewPanel(QWidget):
    """A job's ranks on show. `open_requested(row)` and `compare_requested([row, row])` ask for the timelines."""

    open_requested = Signal(int)
    compare_requested = Signal(list)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("rank_overview")
        how = translate(
            "RankOverviewPanel",
            "Click a rank to open its timeline (or select it and press Enter); "
            "Ctrl+click two ranks to compare them ({keys}).",
        )
        self.heading, self.how = QLabel(""), QLabel(how.format(keys=COMPARE_RANKS_KEYS))
        self.heading.setWordWrap(True)
        self.how.setWordWrap(True)
        self.legend = LegendBar(entries=RANK_LEGEND)
        self.legend.setToolTip(_(LEGEND_MEANING))
        self.plot = RankOverviewPlot()
        self.open_button = QPushButton(translate("RankOverviewPanel", "Open rank"))
        self.compare_button = QPushButton(translate("RankOverviewPanel", "Compare ranks"))
        self.findings = _findings_list()
        self._lay_out()
        self.plot.rank_activated.connect(self.open_requested)
        self.plot.selection_changed.connect(self._on_selection)
        self.open_button.clicked.connect(self._open_selected)
        self.compare_button.clicked.connect(lambda: self.compare_requested.emit(list(self.plot.selected)))
        self.findings.itemClicked.connect(lambda item: self.plot.set_selected(list(item.data(RANKS_ROLE) or [])))
        self.findings.viewport().installEventFilter(self)
        self._on_selection([])
        self.set_font(self.font())  # the window's text size from the start, the axes' too (pyqtgraph's own otherwise)

    def _lay_out(self) -> None:
        buttons = QHBoxLayout()
        buttons.addWidget(self.how, 1)
        buttons.addWidget(self.open_button)
        buttons.addWidget(self.compare_button)
        box = QGroupBox(translate("RankOverviewPanel", "Findings of the job"))
        QVBoxLayout(box).addWidget(self.findings)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.plot)
        split.addWidget(box)
        split.setStretchFactor(0, 3)  # the findings take a quarter of spare width: room to read on a wide screen
        split.setStretchFactor(1, 1)
        split.setSizes([900, 300])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        for widget in (self.heading, self.legend):
            layout.addWidget(widget)
        layout.addLayout(buttons)
        layout.addWidget(split, 1)

    def show_overview(self, overview: RankOverview, folder_name: str) -> None:
        """Show `overview` of the job in the folder named `folder_name`."""
        heading = translate("RankOverviewPanel", "<b>{folder}</b>: {heading}")
        self.heading.setText(heading.format(folder=folder_name, heading=overview.heading))
        self.plot.show_overview(overview)
        self.findings.clear()
        for finding in overview.findings:
            item = QListWidgetItem(unbreakable(finding.message))
            item.setData(RANKS_ROLE, overview.rows_of(finding.ranks))
            tip = translate("RankOverviewPanel", "{code}: click to select its ranks in the overview")
            item.setToolTip(tip.format(code=finding.code))
            self.findings.addItem(item)
        if not overview.findings:
            quiet = QListWidgetItem(translate("RankOverviewPanel", "Nothing stands out between the ranks."))
            quiet.setFlags(Qt.ItemFlag.NoItemFlags)
            self.findings.addItem(quiet)
        self._fit_rows()

    def set_theme(self, theme: Theme) -> None:
        """The plot and the colour key in `theme`'s colours (the list and labels follow the style sheet)."""
        self.plot.set_theme(theme)
        self.legend.set_text_colour(QColor(theme.foreground))

    def set_font(self, font: QFont) -> None:
        """Text in `font` (the window's text size), the plot's axes too."""
        self.plot.set_font(font)
        self.findings.setFont(font)
        self._fit_rows()

    def _on_selection(self, rows: list[int]) -> None:
        self.open_button.setEnabled(len(rows) >= 1)
        self.compare_button.setEnabled(len(rows) == 2)
        tip = (
            translate("RankOverviewPanel", "Both ranks on one time axis, the job's clock ({keys})")
            if len(rows) == 2
            else translate("RankOverviewPanel", "Ctrl+click two ranks first, then press this or {keys}")
        )
        self.compare_button.setToolTip(tip.format(keys=COMPARE_RANKS_KEYS))

    def _open_selected(self) -> None:
        if self.plot.selected:
            self.open_requested.emit(self.plot.selected[-1])

    def _fit_rows(self) -> None:
        """Each finding as tall as its wrapped text, as the metrics panel's are."""
        fit_finding_rows(self.findings)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        """Fit the findings again when the list's width changes."""
        if watched is self.findings.viewport() and event.type() == QEvent.Type.Resize:
            self._fit_rows()
        return False


def _findings_list() -> QListWidget:
    """A list that looks like the metrics panel's findings (the style sheets name it)."""
    findings = QListWidget()
    findings.setObjectName("findings_list")
    findings.setWordWrap(True)
    findings.setTextElideMode(Qt.TextElideMode.ElideNone)
    findings.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    return findings


def centre_stack(timelines: QWidget, overview: RankOverviewPanel) -> QStackedWidget:
    """The window's centre: the timelines (first, on show) or a job's rank overview."""
    stack = QStackedWidget()
    stack.setObjectName("centre_stack")
    stack.addWidget(timelines)
    stack.addWidget(overview)
    return stack

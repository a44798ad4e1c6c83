"""Beside the timeline: the run's numbers and its findings as plain sentences.

Clicking a finding emits the trace rows it points at, so the timeline can outline them.
The form is ui/metrics.ui. A row whose figure has a one-line definition in
`METRIC_DEFINITIONS` takes its tooltip from there; the others keep the form's.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QT_TRANSLATE_NOOP, QEvent, QObject, QRect, QSize, Qt, Signal
from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QStyle,
    QStyleOptionViewItem,
    QVBoxLayout,
    QWidget,
)

from overlapviz._qt.translation import translate
from overlapviz._qt.widgets.forms import child, load_form
from overlapviz.app.gpu_choice import Figures, GpuChoice
from overlapviz.core.analysis.metrics import FIGURE_NAMES, METRIC_DEFINITIONS, Metrics
from overlapviz.core.findings import Finding
from overlapviz.core.i18n import grouped
from overlapviz.core.trace.spans import Trace
from overlapviz.run_report import caveat_of
from overlapviz.view.formatting import (
    NO_COMMUNICATION,
    copy_hidden_text,
    direction_bandwidth_text,
    format_duration,
    format_percent,
    format_time_saved,
)
from overlapviz.view.unit_text import as_read, unbreakable

ROWS_ROLE = Qt.ItemDataRole.UserRole
WRAP = Qt.TextFlag.TextWordWrap
BUSY_TITLES = {
    "h2d": str(QT_TRANSLATE_NOOP("MetricsPanel", "H2D")),
    "kernel": str(QT_TRANSLATE_NOOP("MetricsPanel", "kernels")),
    "d2h": str(QT_TRANSLATE_NOOP("MetricsPanel", "D2H")),
    "communication": str(QT_TRANSLATE_NOOP("MetricsPanel", "communication")),
}  # the engines of the busy row, each shown in the window's language
NO_FINDINGS = str(
    QT_TRANSLATE_NOOP(
        "MetricsPanel", "Nothing stands out: the copies and kernels overlap as well as this pipeline allows."
    )
)
NO_VALUE = "\u2014"
ONLY_WITH_COMMUNICATION = ("comm_hidden",)  # rows shown only for a run that communicates between GPUs
# The rows of the panel, top to bottom (the form names their labels <row>_title and <row>_value).
ROW_NAMES = (
    "makespan", "serial", "time_saved", "copy_hidden", "comm_hidden", "engines_together", "efficiency", "wall",
    "blocked", "h2d_bandwidth", "d2h_bandwidth", "utilisation",
)  # fmt: skip
# Rows defined in METRIC_DEFINITIONS: the keys whose definitions make up the row's tooltip.
ROW_DEFINITIONS: dict[str, tuple[str, ...]] = {
    "time_saved": ("time_saved",),
    "copy_hidden": ("copy_hidden",),
    "comm_hidden": ("comm_hidden",),
    "engines_together": ("engines_together",),
    "efficiency": ("efficiency", "lower_bound"),  # the value names the lower bound too
    "wall": ("wall",),
}


def metric_texts(metrics: Metrics) -> dict[str, str]:
    """The panel's values in words, by row name."""
    busy = "\n".join(_busy_text(key, share) for key, share in metrics.utilisation.items())
    return {
        "makespan": format_duration(metrics.makespan_ns),
        "serial": format_duration(metrics.serial_ns),
        "time_saved": _time_saved(metrics),
        "copy_hidden": copy_hidden_text(metrics),
        "comm_hidden": format_percent(metrics.comm_hidden_pct, NO_COMMUNICATION),
        "engines_together": format_percent(metrics.engines_together_pct),
        "efficiency": _efficiency(metrics),
        "wall": _wall(metrics),
        "blocked": _blocked(metrics),
        "h2d_bandwidth": direction_bandwidth_text(metrics, "h2d"),
        "d2h_bandwidth": direction_bandwidth_text(metrics, "d2h"),
        "utilisation": busy,
    }


def definition_tooltip(keys: tuple[str, ...]) -> str:
    """The definitions of `keys`, one a line; every line after the first says which figure it defines."""
    first, *others = keys
    return "\n".join(
        [METRIC_DEFINITIONS[first], *(f"{_figure_name(key)}: {METRIC_DEFINITIONS[key]}" for key in others)]
    )


class MetricsPanel(QWidget):
    """Metrics and findings of the run on show."""

    finding_selected = Signal(object)  # array of trace rows; empty clears the highlight

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        form = load_form("metrics.ui", self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self._choice = GpuChoice()
        self._note: str | None = None  # the run's caveat, shown below its findings
        self._gpus = QComboBox()
        self._gpus.setObjectName("gpu_choice")
        self._gpus.setToolTip(
            translate(
                "MetricsPanel",
                "The figures and findings of one GPU alone: its own ops and the calls that issued them."
                " The wall time, the host's allocating and the RAM pinned stay the whole program's.",
            )
        )
        self._gpu_row = QWidget()
        row = QHBoxLayout(self._gpu_row)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(QLabel(translate("MetricsPanel", "GPU")))
        row.addWidget(self._gpus, 1)
        self._gpu_row.hide()  # a trace of one GPU has nothing to choose
        self._gpus.currentIndexChanged.connect(self._on_gpu_chosen)
        layout.addWidget(self._gpu_row)
        layout.addWidget(form)
        self._values = {name: child(form, QLabel, f"{name}_value") for name in ROW_NAMES}
        self._titles = {name: child(form, QLabel, f"{name}_title") for name in ROW_NAMES}
        for name, value in self._values.items():
            title = self._titles[name]
            keys = ROW_DEFINITIONS.get(name)
            tooltip = definition_tooltip(keys) if keys else title.toolTip()
            title.setToolTip(tooltip)
            value.setToolTip(tooltip)  # the number is what a learner points at
        self._show_communication_rows(False)
        self.findings = child(form, QListWidget, "findings_list")
        self.findings.viewport().installEventFilter(self)
        self.findings.itemClicked.connect(self._on_item_clicked)
        self.findings.currentItemChanged.connect(lambda item, _previous: self._on_item_clicked(item))

    def show_results(self, metrics: Metrics, findings: Sequence[Finding], trace: Trace | None = None) -> None:
        """Show `metrics` and `findings` of `trace` (replacing what was there).

        With a `trace` of several GPUs, a choice above the figures shows one GPU's instead.
        """
        if trace is None:
            self._choice.clear()
        else:
            self._choice.show(trace, metrics, findings)
        self._offer_gpus()
        self._note = None if trace is None else caveat_of(trace.meta)
        figures = self._choice.figures() or Figures(metrics, findings)
        self._show_figures(figures.metrics, figures.findings)

    def gpu_titles(self) -> list[str]:
        """The GPUs on offer as the choice names them (none for a trace of one GPU)."""
        return [self._gpus.itemText(i) for i in range(self._gpus.count())] if self._gpu_row.isVisibleTo(self) else []

    def choose_gpu(self, device: int | None) -> None:
        """Show `device`'s figures (None: all GPUs'), as picking it from the choice does."""
        devices = [option.device for option in self._choice.options]
        self._gpus.setCurrentIndex(devices.index(device))

    def _offer_gpus(self) -> None:
        options = self._choice.options
        self._gpus.blockSignals(True)
        self._gpus.clear()
        self._gpus.addItems([option.title for option in options])
        devices = [option.device for option in options]
        if options:
            self._gpus.setCurrentIndex(devices.index(self._choice.device))
        self._gpus.blockSignals(False)
        self._gpu_row.setVisible(bool(options))

    def _on_gpu_chosen(self, index: int) -> None:
        options = self._choice.options
        if not 0 <= index < len(options):
            return
        self._choice.choose(options[index].device)
        figures = self._choice.figures()
        if figures is not None:
            self._show_figures(figures.metrics, figures.findings)
            self.finding_selected.emit(())  # the outlined spans were another choice's

    def _show_figures(self, metrics: Metrics, findings: Sequence[Finding]) -> None:
        for name, text in metric_texts(metrics).items():
            self._values[name].setText(unbreakable(text))
        self._show_communication_rows(metrics.comm_hidden_pct is not None)
        self.findings.blockSignals(True)
        self.findings.clear()
        for finding in findings:
            item = QListWidgetItem(unbreakable(finding.message))
            item.setData(ROWS_ROLE, finding.rows)
            item.setToolTip(_finding_tip(finding))
            self.findings.addItem(item)
        if not findings:
            quiet = QListWidgetItem(translate("MetricsPanel", NO_FINDINGS))
            quiet.setFlags(Qt.ItemFlag.NoItemFlags)
            self.findings.addItem(quiet)
        if self._note is not None:
            self.findings.addItem(self._note_item(self._note))
        self.findings.blockSignals(False)
        self._fit_rows()

    @staticmethod
    def _note_item(note: str) -> QListWidgetItem:
        """The run's caveat, whole: the status bar may have room for its start only."""
        item = QListWidgetItem(unbreakable(translate("MetricsPanel", "Note: {note}").format(note=note)))
        item.setFlags(Qt.ItemFlag.ItemIsEnabled)  # read, not clicked: it points at no spans
        return item

    def _show_communication_rows(self, shown: bool) -> None:
        for name in ONLY_WITH_COMMUNICATION:
            self._titles[name].setVisible(shown)
            self._values[name].setVisible(shown)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        """Fit the rows again when the list's width changes."""
        if watched is self.findings.viewport() and event.type() == QEvent.Type.Resize:
            self._fit_rows()
        return False

    def _fit_rows(self) -> None:
        fit_finding_rows(self.findings)

    def set_font(self, font: QFont) -> None:
        """Lay the findings out again in `font`: each row as tall as its wrapped text needs.

        A list lays its rows out once; after a change of text size the rows would keep their
        old heights and clip their last lines.
        """
        self.findings.setFont(font)
        self._fit_rows()

    def clear(self) -> None:
        """Show dashes and no findings."""
        self._choice.clear()
        self._offer_gpus()
        for label in self._values.values():
            label.setText(NO_VALUE)
        self._show_communication_rows(False)
        self.findings.clear()

    def value_text(self, name: str) -> str:
        """The text of one metric row (a name of `ROW_NAMES`: ``makespan``, ``copy_hidden``, ...), as read."""
        return as_read(self._values[name].text())

    def finding_texts(self) -> list[str]:
        """The findings as shown, as read."""
        return [as_read(self.findings.item(i).text()) for i in range(self.findings.count())]

    def select_finding(self, index: int) -> None:
        """Select the finding at `index`, as a click does."""
        self.findings.setCurrentRow(index)

    def _on_item_clicked(self, item: QListWidgetItem | None) -> None:
        rows = item.data(ROWS_ROLE) if item is not None else None
        self.finding_selected.emit(() if rows is None else rows)


def _time_saved(metrics: Metrics) -> str:
    if metrics.makespan_ns <= 0:
        return NO_VALUE
    return format_time_saved(metrics.time_saved_ns, metrics.speedup)


def _efficiency(metrics: Metrics) -> str:
    if metrics.efficiency_pct is None:
        return NO_VALUE
    return translate("MetricsPanel", "{percent}\nlower bound {duration}").format(
        percent=format_percent(metrics.efficiency_pct), duration=format_duration(metrics.lower_bound_ns)
    )


def _blocked(metrics: Metrics) -> str:
    if not metrics.host_blocked_ns:
        return translate("MetricsPanel", "none")
    return format_duration(metrics.host_blocked_ns)


def _wall(metrics: Metrics) -> str:
    wall = format_duration(metrics.wall_ns)
    if not metrics.host_alloc_ns:  # only runs that allocate host memory wait beyond the pipeline
        return wall
    return translate("MetricsPanel", "{wall}\n{duration} of it allocating").format(
        wall=wall, duration=format_duration(metrics.host_alloc_ns)
    )


def _busy_text(key: str, share: float) -> str:
    """``kernels 57%``: how busy one engine kept, of the run."""
    title = BUSY_TITLES.get(key)
    name = key if title is None else translate("MetricsPanel", title)
    return f"{name} {share:.0%}"


def _finding_tip(finding: Finding) -> str:
    """``copy-queue: click to outline its 16 spans``: the finding's code and what a click does."""
    count = len(finding.rows)
    if count == 1:
        text = translate("MetricsPanel", "{code}: click to outline its {count} span")
    else:
        text = translate("MetricsPanel", "{code}: click to outline its {count} spans")
    return text.format(code=finding.code, count=grouped(count))


def _figure_name(key: str) -> str:
    name = FIGURE_NAMES[key]
    return name[:1].upper() + name[1:]


def fit_finding_rows(findings: QListWidget) -> None:
    """Give every finding a row as tall as its text wrapped to the list's width.

    The style sheet pads each item, and the delegate elides what its text rect cannot
    hold, so the row is the wrapped text plus that padding, measured from the style.
    """
    width = max(findings.viewport().width(), 1)
    text_rect = finding_text_rect(findings, QRect(0, 0, width, 1 << 16))
    padding = (1 << 16) - text_rect.height()
    metrics = QFontMetrics(findings.font())
    for row in range(findings.count()):
        item = findings.item(row)
        height = metrics.boundingRect(0, 0, max(text_rect.width(), 1), 1 << 20, WRAP, item.text()).height()
        item.setSizeHint(QSize(width, height + padding))
    findings.doItemsLayout()


def finding_text_rect(findings: QListWidget, item_rect: QRect) -> QRect:
    """Where the style wraps an item's text inside `item_rect`: inside its style-sheet padding and text margins.

    The item delegate lays the text out narrower than the style's text rect, by a focus
    frame's margin and a pixel on each side; measured without them, a narrow list wraps a
    finding into more lines than its row was given and clips the last.
    """
    option = QStyleOptionViewItem()
    findings.initViewItemOption(option)
    option.rect = item_rect
    style = findings.style()
    margin = style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, findings) + 1
    text_rect = style.subElementRect(QStyle.SubElement.SE_ItemViewItemText, option, findings)
    return text_rect.adjusted(margin, 0, -margin, 0)

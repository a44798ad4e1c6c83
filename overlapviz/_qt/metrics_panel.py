"""Beside the timeline: the run's numbers and its findings as plain sentences.

Clicking a finding emits the trace rows it points at, so the timeline can outline them.
The form is ui/metrics.ui.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QLabel, QListWidget, QListWidgetItem, QVBoxLayout, QWidget

from overlapviz._qt.formatting import format_bandwidth, format_duration, format_percent
from overlapviz._qt.forms import child, load_form
from overlapviz.core.findings import Finding
from overlapviz.core.metrics import Metrics

ROWS_ROLE = Qt.ItemDataRole.UserRole
BUSY_TITLES = {"h2d": "H2D", "kernel": "kernels", "d2h": "D2H"}
NO_FINDINGS = "Nothing stands out: the copies and kernels overlap as well as this pipeline allows."


def metric_texts(metrics: Metrics) -> dict[str, str]:
    """The panel's values in words, by row name."""
    busy = "\n".join(f"{BUSY_TITLES.get(key, key)} {share:.0%}" for key, share in metrics.utilisation.items())
    return {
        "makespan": format_duration(metrics.makespan_ns),
        "ideal": format_duration(metrics.ideal_ns),
        "overlap": format_percent(metrics.overlap_pct),
        "speedup": f"{metrics.speedup:.2f}\u00d7",
        "serial": format_duration(metrics.serial_ns),
        "blocked": format_duration(metrics.host_blocked_ns) if metrics.host_blocked_ns else "none",
        "h2d_bandwidth": format_bandwidth(metrics.bandwidth_gbps.get("h2d")),
        "d2h_bandwidth": format_bandwidth(metrics.bandwidth_gbps.get("d2h")),
        "utilisation": busy,
    }


class MetricsPanel(QWidget):
    """Metrics and findings of the run on show."""

    finding_selected = Signal(object)  # tuple of trace rows; empty clears the highlight

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        form = load_form("metrics.ui", self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(form)
        self._values = {name: child(form, QLabel, f"{name}_value") for name in _ROW_NAMES}
        self.findings = child(form, QListWidget, "findings_list")
        self.findings.itemClicked.connect(self._on_item_clicked)
        self.findings.currentItemChanged.connect(lambda item, _previous: self._on_item_clicked(item))

    def show_results(self, metrics: Metrics, findings: list[Finding]) -> None:
        """Show `metrics` and `findings` (replacing what was there)."""
        for name, text in metric_texts(metrics).items():
            self._values[name].setText(text)
        self.findings.blockSignals(True)
        self.findings.clear()
        for finding in findings:
            item = QListWidgetItem(finding.message)
            item.setData(ROWS_ROLE, tuple(finding.rows))
            item.setToolTip(f"{finding.code}: click to outline its {len(finding.rows)} spans")
            self.findings.addItem(item)
        if not findings:
            quiet = QListWidgetItem(NO_FINDINGS)
            quiet.setFlags(Qt.ItemFlag.NoItemFlags)
            self.findings.addItem(quiet)
        self.findings.blockSignals(False)

    def clear(self) -> None:
        """Show dashes and no findings."""
        for label in self._values.values():
            label.setText("\u2014")
        self.findings.clear()

    def value_text(self, name: str) -> str:
        """The text of one metric row (``makespan``, ``overlap``, ...)."""
        return self._values[name].text()

    def finding_texts(self) -> list[str]:
        """The findings as shown."""
        return [self.findings.item(i).text() for i in range(self.findings.count())]

    def select_finding(self, index: int) -> None:
        """Select the finding at `index`, as a click does."""
        self.findings.setCurrentRow(index)

    def _on_item_clicked(self, item: QListWidgetItem | None) -> None:
        rows = item.data(ROWS_ROLE) if item is not None else None
        self.finding_selected.emit(tuple(rows) if rows else ())


_ROW_NAMES = (
    "makespan", "ideal", "overlap", "speedup", "serial", "blocked", "h2d_bandwidth", "d2h_bandwidth", "utilisation",
)  # fmt: skip

"""A window with the bandwidth plot of the chosen device, swept off the GUI thread.

The sweep is `session.sweep_bandwidth` on the device picked in the controls: the model's
numbers on a simulated device (the plot says "simulated"), a measurement on a real GPU. It
runs on a run thread of its own (`worker.RunController`), so the window stays responsive and
a pipeline run is not superseded by it.
"""

from __future__ import annotations

from functools import partial

from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import QDialog, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from overlapviz._qt.bandwidth.bandwidth_plot import BandwidthPlot, sweep_title
from overlapviz._qt.themes import Theme
from overlapviz._qt.translation import translate
from overlapviz._qt.worker import RunController
from overlapviz.app.executor import Outcome
from overlapviz.app.run_targets import RunTarget
from overlapviz.core.cancel import CancelToken
from overlapviz.session import BandwidthSweep, sweep_bandwidth


def _sweep(target: RunTarget, _cancel: CancelToken) -> BandwidthSweep:
    return sweep_bandwidth(target.backend, target.device)


class BandwidthDialog(QDialog):
    """Bandwidth against transfer size for one device; `sweep` measures it again."""

    def __init__(self, target: RunTarget, theme: Theme, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(translate("BandwidthDialog", "Copy bandwidth by transfer size"))
        self.setObjectName("bandwidth_dialog")
        self.target = target
        self.status = QLabel(self)
        self.status.setWordWrap(True)
        self.plot = BandwidthPlot(theme, self)
        again = QPushButton(translate("BandwidthDialog", "Sweep again"), self)
        again.clicked.connect(self.sweep)
        row = QHBoxLayout()
        row.addWidget(self.status, 1)
        row.addWidget(again)
        layout = QVBoxLayout(self)
        layout.addLayout(row)
        layout.addWidget(self.plot, 1)
        self.resize(900, 600)
        self.runner = RunController(parent=self)
        self.last: BandwidthSweep | None = None

    def sweep(self) -> None:
        """Sweep the target's copy sizes (off the GUI thread)."""
        sweeping = translate("BandwidthDialog", "Sweeping copy sizes on {device}\u2026")
        self.status.setText(sweeping.format(device=self.target.title))
        self.runner.submit(partial(_sweep, self.target), self._on_done)

    def shutdown(self) -> None:
        """Stop the sweep thread (blocks until it has stopped)."""
        self.runner.shutdown()

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 (Qt's name)
        """Stop the sweep thread before the dialog goes."""
        self.shutdown()
        super().closeEvent(event)

    def _on_done(self, outcome: Outcome[BandwidthSweep]) -> None:
        if outcome.result is not None:
            self.last = outcome.result
            explained = translate(
                "BandwidthDialog",
                "{title}: one copy at a time, 64 KiB to 1 GiB; the dashed line is the link's theoretical limit",
            )
            self.status.setText(explained.format(title=sweep_title(outcome.result)))
            self.plot.show_sweep(outcome.result)
        elif outcome.error is not None:
            failed = translate("BandwidthDialog", "The sweep did not complete: {error}")
            self.status.setText(failed.format(error=outcome.error))

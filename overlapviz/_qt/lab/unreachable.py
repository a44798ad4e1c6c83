"""The window's word when the lab server cannot be reached: why, and the model one click away."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QToolButton, QWidget

from overlapviz._qt.translation import translate


class LabUnreachableStrip(QWidget):
    """Hidden until `show_reason`; `run_on_model` and `try_again` are the user's two ways on."""

    run_on_model = Signal()
    try_again = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("lab_unreachable")
        self.label = QLabel(self)
        self.label.setWordWrap(True)
        self.model_button = QPushButton(translate("LabUnreachableStrip", "Run on the &model"), self)
        self.model_button.setToolTip(
            translate("LabUnreachableStrip", "Run this pipeline on the simulated GPU here, without the lab server")
        )
        self.model_button.clicked.connect(self.run_on_model)
        self.retry_button = QPushButton(translate("LabUnreachableStrip", "Try &again"), self)
        self.retry_button.setToolTip(translate("LabUnreachableStrip", "Send the run to the lab server again"))
        self.retry_button.clicked.connect(self.try_again)
        close = QToolButton(self)
        close.setText("\u2715")
        close.setToolTip(translate("LabUnreachableStrip", "Dismiss"))
        close.clicked.connect(self.hide)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 4, 4, 4)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.model_button)
        layout.addWidget(self.retry_button)
        layout.addWidget(close)
        self.hide()

    def show_reason(self, reason: str) -> None:
        """Say why the run did not reach the server."""
        said = translate("LabUnreachableStrip", "The run did not reach the lab GPU: {reason}.")
        self.label.setText(said.format(reason=reason))
        self.show()

    def message(self) -> str:
        """The words on show ('' when hidden)."""
        return "" if self.isHidden() else self.label.text()

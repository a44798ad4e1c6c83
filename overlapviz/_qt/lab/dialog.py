"""Run ▸ Lab GPU…: where the class's lab server is and the join code the instructor gave."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QFormLayout, QLabel, QLineEdit, QVBoxLayout, QWidget

from overlapviz._qt.translation import translate
from overlapviz.app.lab_connection import LabSettings
from overlapviz.lab.client import LabError, server_url


class LabDialog(QDialog):
    """Asks for the server's address and the join code; `settings` once accepted."""

    def __init__(self, current: LabSettings | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(translate("LabDialog", "Lab GPU"))
        self.setObjectName("lab_dialog")
        intro = QLabel(
            translate(
                "LabDialog",
                "Run on the class's GPU: your instructor gives the lab server's address and a join code. "
                "Your runs wait in the class's queue, and the timeline says where each was measured.",
            ),
            self,
        )
        intro.setWordWrap(True)
        self.url_edit = QLineEdit(current.url if current else "", self)
        self.url_edit.setPlaceholderText(translate("LabDialog", "http://lab-host:8765"))  # an example address
        self.url_edit.setToolTip(
            translate("LabDialog", "The lab server's address, as your instructor wrote it (http://HOST:PORT)")
        )
        self.code_edit = QLineEdit(current.code if current else "", self)
        self.code_edit.setPlaceholderText(translate("LabDialog", "K7QF-2M9D"))  # an example code
        self.code_edit.setToolTip(
            translate("LabDialog", "The class's join code (or token); upper or lower case, dashes or none")
        )
        self.code_edit.setEchoMode(QLineEdit.EchoMode.PasswordEchoOnEdit)  # typed in clear, then hidden
        self.problem = QLabel("", self)
        self.problem.setObjectName("lab_dialog_problem")
        self.problem.setWordWrap(True)
        self.problem.hide()
        form = QFormLayout()
        form.addRow(translate("LabDialog", "Server &address:"), self.url_edit)
        form.addRow(translate("LabDialog", "&Join code:"), self.code_edit)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText(translate("LabDialog", "Run on the lab GPU"))
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(form)
        layout.addWidget(self.problem)
        layout.addWidget(self.buttons)
        self.setMinimumWidth(460)
        (self.url_edit if not self.url_edit.text() else self.code_edit).setFocus()

    def settings(self) -> LabSettings | None:
        """The address and code given, or None (and the reason on show) when either is not usable."""
        code = self.code_edit.text().strip()
        try:
            url = server_url(self.url_edit.text())
        except LabError as error:
            said = str(error)
            self._refuse(translate("LabDialog", "{reason}.").format(reason=said[:1].upper() + said[1:]))
            return None
        if not code:
            self._refuse(translate("LabDialog", "Give the join code your instructor wrote up."))
            return None
        return LabSettings(url, code)

    def accept(self) -> None:
        """Close only with an address and a code that can be used."""
        if self.settings() is not None:
            super().accept()

    def _refuse(self, reason: str) -> None:
        self.problem.setText(reason)
        self.problem.show()

"""A strip above the timeline that says what went wrong, in words, until dismissed."""

from __future__ import annotations

from PySide6.QtWidgets import QHBoxLayout, QLabel, QToolButton, QWidget

from overlapviz._qt.translation import translate


class ErrorBanner(QWidget):
    """Hidden until `show_message`; the close button or `clear` hides it again."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("error_banner")
        self._label = QLabel(self)
        self._label.setObjectName("error_text")
        self._label.setWordWrap(True)
        close = QToolButton(self)
        close.setText("\u2715")
        close.setToolTip(translate("ErrorBanner", "Dismiss"))
        close.clicked.connect(self.clear)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 4, 4, 4)
        layout.addWidget(self._label, 1)
        layout.addWidget(close)
        self.hide()

    def show_message(self, text: str) -> None:
        """Show `text`."""
        self._label.setText(text)
        self.show()

    def message(self) -> str:
        """The text on show ('' when hidden)."""
        return self._label.text() if not self.isHidden() else ""

    def clear(self) -> None:
        """Hide the banner."""
        self._label.setText("")
        self.hide()

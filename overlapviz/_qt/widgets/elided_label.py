"""A one-line label that cuts a long text at its end and gives it whole in its tooltip.

The status bar's line can be longer than the window is wide (a caveat of a whole sentence):
cut by the window's edge it would end mid-word, as "…H200 hosts (2", with nothing saying
that more follows.
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QLabel, QWidget


class ElidedLabel(QLabel):
    """Shows as much of its text as fits, ending in an ellipsis; `text` is always the whole text."""

    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._whole = ""
        self.setText(text)

    def setText(self, text: str) -> None:  # noqa: N802 (Qt's name)
        """Show `text`, cut to the label's width."""
        self._whole = text
        self._fit()

    def text(self) -> str:
        """The whole text, however much of it shows."""
        return self._whole

    def shown_text(self) -> str:
        """The part of the text on show, with its ellipsis where cut."""
        return super().text()

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        """Narrow: a long text is cut, it never widens the window."""
        return QSize(0, super().minimumSizeHint().height())

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt's name)
        """Cut the text again to the new width."""
        super().resizeEvent(event)
        self._fit()

    def _fit(self) -> None:
        shown = self.fontMetrics().elidedText(self._whole, Qt.TextElideMode.ElideRight, max(self.width(), 1))
        super().setText(shown)
        self.setToolTip(self._whole if shown != self._whole else "")

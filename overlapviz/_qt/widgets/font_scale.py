"""Ctrl+plus / Ctrl+minus: one scale factor for every font in the window, the timeline and the tooltips.

Qt keeps the tooltips' font apart from the application font (a platform theme may give
them their own), so they are scaled from their own size at start, by the same factor.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QApplication, QToolTip

STEP = 1.15
MIN_SCALE, MAX_SCALE = 0.6, 3.0


class FontScale(QObject):
    """Scales the application font from the size it had at start; `changed` gives the font."""

    changed = Signal(QFont)

    def __init__(self, app: QApplication, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._app = app
        self._base = QFont(app.font())
        self._tooltip_base = QFont(QToolTip.font())
        self._scale = 1.0

    @property
    def scale(self) -> float:
        """The current factor (1: as started)."""
        return self._scale

    def font(self) -> QFont:
        """The base font at the current scale."""
        return _scaled(self._base, self._scale)

    def tooltip_font(self) -> QFont:
        """The tooltips' font at the current scale."""
        return _scaled(self._tooltip_base, self._scale)

    def bigger(self) -> None:
        """One step larger."""
        self.set_scale(self._scale * STEP)

    def smaller(self) -> None:
        """One step smaller."""
        self.set_scale(self._scale / STEP)

    def reset(self) -> None:
        """Back to the size at start."""
        self.set_scale(1.0)

    def set_scale(self, scale: float) -> None:
        """Apply `scale` (clamped to a readable range) to the application font."""
        self._scale = min(max(scale, MIN_SCALE), MAX_SCALE)
        font = self.font()
        self._app.setFont(font)
        QToolTip.setFont(self.tooltip_font())
        sheet = self._app.styleSheet()
        if sheet:  # widgets styled by a stylesheet take a new application font only when re-polished
            self._app.setStyleSheet(sheet)
        self.changed.emit(font)


def _scaled(base: QFont, scale: float) -> QFont:
    font = QFont(base)
    if base.pointSizeF() > 0:
        font.setPointSizeF(base.pointSizeF() * scale)
    else:  # a font sized in pixels (some platform themes)
        font.setPixelSize(max(1, round(base.pixelSize() * scale)))
    return font

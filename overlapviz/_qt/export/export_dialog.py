"""Asks how to export a picture: width, theme, background, time range, caption (ui/export.ui)."""

from __future__ import annotations

from PySide6.QtWidgets import QCheckBox, QComboBox, QDialog, QDialogButtonBox, QWidget

from overlapviz._qt.export.export_view import ExportOptions
from overlapviz._qt.themes import THEMES
from overlapviz._qt.widgets.forms import child, load_form

WIDTHS = (1920, 3840)


class ExportDialog:
    """The form as a modal dialog; `options` reads the choices."""

    def __init__(self, parent: QWidget | None, theme: str, window_ms: tuple[float, float] | None) -> None:
        form = load_form("export.ui", parent)
        if not isinstance(form, QDialog):
            raise TypeError("ui/export.ui must hold a QDialog")
        self.dialog = form
        self._window_ms = window_ms
        self.width = child(form, QComboBox, "width_combo")
        self.theme = child(form, QComboBox, "theme_combo")
        self.background = child(form, QComboBox, "background_combo")
        self.window = child(form, QComboBox, "window_combo")
        self.caption = child(form, QCheckBox, "caption_check")
        for name, spec in THEMES.items():
            self.theme.addItem(spec.title, name)
        self.theme.setCurrentIndex(list(THEMES).index(theme))
        buttons = child(form, QDialogButtonBox, "button_box")
        buttons.accepted.connect(form.accept)
        buttons.rejected.connect(form.reject)

    def options(self) -> ExportOptions:
        """The choices made."""
        whole_run = self.window.currentIndex() == 1 or self._window_ms is None
        return ExportOptions(
            width=WIDTHS[self.width.currentIndex()],
            theme=str(self.theme.currentData()),
            transparent=self.background.currentIndex() == 1,
            caption=self.caption.isChecked(),
            window_ms=None if whole_run else self._window_ms,
        )

    def ask(self) -> ExportOptions | None:
        """Show the dialog; the options, or None when cancelled."""
        try:
            return self.options() if self.dialog.exec() == QDialog.DialogCode.Accepted else None
        finally:
            self.dialog.deleteLater()

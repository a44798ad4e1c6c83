"""Asks how to export a picture: size, theme, background, time range, caption (ui/export.ui).

A slide's size is exactly its width and height (the picture is fitted into it); a size for a
paper or a web page fixes the width only, the picture as tall as its lanes need.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QT_TRANSLATE_NOOP
from PySide6.QtWidgets import QCheckBox, QComboBox, QDialog, QDialogButtonBox, QWidget

from overlapviz._qt.export.export_view import ExportOptions
from overlapviz._qt.themes import THEMES
from overlapviz._qt.translation import translate
from overlapviz._qt.widgets.forms import child, load_form


@dataclass(frozen=True, slots=True)
class PictureSize:
    """One choice of the size list: its name, its width and, for a slide, its height (device pixels).

    The name is the English source: `translate` it where shown.
    """

    name: str
    width: int
    height: int | None = None


SIZES = (
    PictureSize(str(QT_TRANSLATE_NOOP("ExportDialog", "Slide, full HD: 1920 × 1080 px")), 1920, 1080),
    PictureSize(str(QT_TRANSLATE_NOOP("ExportDialog", "Slide, 4K: 3840 × 2160 px")), 3840, 2160),
    PictureSize(
        str(QT_TRANSLATE_NOOP("ExportDialog", "1920 px wide, as tall as the lanes need (papers, web pages)")), 1920
    ),
    PictureSize(
        str(QT_TRANSLATE_NOOP("ExportDialog", "3840 px wide, as tall as the lanes need (papers, web pages)")), 3840
    ),
)  # widths and heights in device pixels


class ExportDialog:
    """The form as a modal dialog; `options` reads the choices."""

    def __init__(self, parent: QWidget | None, theme: str, window_ms: tuple[float, float] | None) -> None:
        form = load_form("export.ui", parent)
        if not isinstance(form, QDialog):
            raise TypeError("ui/export.ui must hold a QDialog")
        self.dialog = form
        self._window_ms = window_ms
        self.size = child(form, QComboBox, "size_combo")
        self.theme = child(form, QComboBox, "theme_combo")
        self.background = child(form, QComboBox, "background_combo")
        self.window = child(form, QComboBox, "window_combo")
        self.caption = child(form, QCheckBox, "caption_check")
        for size in SIZES:
            self.size.addItem(translate("ExportDialog", size.name))
        for name, spec in THEMES.items():
            self.theme.addItem(translate("Theme", spec.title), name)
        self.theme.setCurrentIndex(list(THEMES).index(theme))
        buttons = child(form, QDialogButtonBox, "button_box")
        buttons.accepted.connect(form.accept)
        buttons.rejected.connect(form.reject)

    def options(self) -> ExportOptions:
        """The choices made."""
        whole_run = self.window.currentIndex() == 1 or self._window_ms is None
        size = SIZES[self.size.currentIndex()]
        return ExportOptions(
            width=size.width,
            height=size.height,
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

"""The window's looks: the theme and the text size the model holds, or presentation mode's over them.

The user's theme and text size are facts of the model (`app.model`), remembered with the other
settings (`app.remembered`); this shows them. Presentation mode puts its own theme and large
type on show without changing the model, so that they are never remembered as the user's.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QAction, QColor, QFont
from PySide6.QtWidgets import QApplication

from overlapviz._qt.teaching.compare_panel import ComparePanel
from overlapviz._qt.themes import DEFAULT_THEME, THEMES, Theme, apply_stylesheet, get_theme
from overlapviz._qt.timeline.widget import TimelineWidget
from overlapviz._qt.widgets.font_scale import FontScale
from overlapviz._qt.widgets.legend import LegendBar
from overlapviz.app.model import AppModel


class WindowLooks:
    """Shows the model's theme and text size on the application, the timelines, the legend and the theme menu."""

    def __init__(
        self, model: AppModel, fonts: FontScale | None, timeline: TimelineWidget, compare: ComparePanel,
        legend: LegendBar, theme_actions: dict[str, QAction],
    ) -> None:  # fmt: skip
        self._model = model
        self._app = QCoreApplication.instance()
        self._fonts = fonts
        self._timeline, self._compare, self._legend = timeline, compare, legend
        self._theme_actions = theme_actions
        self._on_show = DEFAULT_THEME
        self._theme_takers: list[Callable[[Theme], object]] = []
        model.theme_changed.connect(self._show_users_theme)
        model.text_scale_changed.connect(self._show_text_scale)

    def show(self) -> None:
        """Put the model's looks on show (at start)."""
        self._show_users_theme(self._model.theme)
        self._show_text_scale(self._model.text_scale)

    def follow_fonts(self, *takers: Callable[[QFont], object]) -> None:
        """Give `takers` each new font; note the user's text size in the model (presentation's is not the user's)."""
        if self._fonts is None:
            return
        for take in takers:
            self._fonts.changed.connect(take)
        self._fonts.changed.connect(lambda _font: self._note_text_scale())

    def follow_themes(self, *takers: Callable[[Theme], object]) -> None:
        """Give `takers` each theme put on show: the user's, or presentation mode's over it."""
        self._theme_takers += takers

    def theme_name(self) -> str:
        """The theme on show."""
        return self._on_show

    def show_theme(self, name: str) -> None:
        """Put theme `name` on show (an unknown name: the default), leaving the user's choice as it is."""
        name = name if name in THEMES else DEFAULT_THEME
        self._on_show = name
        theme = get_theme(name)
        if isinstance(self._app, QApplication):
            apply_stylesheet(self._app, theme)
        self._timeline.set_theme(theme)
        self._compare.set_theme(theme)
        self._legend.set_text_colour(QColor(theme.foreground))
        for take in self._theme_takers:
            take(theme)
        self._theme_actions[name].setChecked(True)

    def keep_on_show(self) -> None:
        """Make the theme on show the user's choice."""
        self._model.set_theme(self._on_show)

    def _show_users_theme(self, name: str) -> None:
        if name in THEMES:
            self.show_theme(name)
        else:  # a theme remembered from another version: the default, remembered instead
            self._model.set_theme(DEFAULT_THEME)

    def _show_text_scale(self, scale: float) -> None:
        if self._fonts is not None and scale != self._fonts.scale:
            self._fonts.set_scale(scale)

    def _note_text_scale(self) -> None:
        if self._fonts is not None and not self._model.presenting:
            self._model.set_text_scale(self._fonts.scale)

"""Light and dark themes: a stylesheet from ui/*.qss for the widgets, colours for the plot."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtWidgets import QApplication

from overlapviz.resources import ui_path


@dataclass(frozen=True, slots=True)
class Theme:
    """What a theme sets: the widgets' stylesheet and the timeline's own colours."""

    name: str
    title: str
    stylesheet: str  # file name under ui/
    background: str
    foreground: str
    muted: str  # grid, separators, secondary text
    band: str  # the shaded band behind every other lane group


THEMES: dict[str, Theme] = {
    "light": Theme("light", "Light", "light.qss", "#FFFFFF", "#1F2328", "#8C959F", "#F3F4F6"),
    "dark": Theme("dark", "Dark", "dark.qss", "#1E1F22", "#E6E6E6", "#6E7681", "#2A2C31"),
}
DEFAULT_THEME = "light"


def get_theme(name: str) -> Theme:
    """The theme called `name`; `ValueError` lists the known ones."""
    try:
        return THEMES[name]
    except KeyError:
        raise ValueError(f"unknown theme {name!r}; choose one of: {', '.join(THEMES)}") from None


def load_stylesheet(theme: Theme) -> str:
    """The Qt stylesheet text of `theme`."""
    return ui_path(theme.stylesheet).read_text(encoding="utf-8")


def apply_stylesheet(app: QApplication, theme: Theme) -> None:
    """Style every widget of `app` with `theme`."""
    app.setStyleSheet(load_stylesheet(theme))

"""Light, dark and projector themes: a stylesheet from ui/*.qss, colours for the plot.

The projector theme is for a lecture hall: black on white at the highest contrast, group
bands a projector does not wash out and thicker spans (less margin around them).
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QT_TRANSLATE_NOOP
from PySide6.QtWidgets import QApplication

from overlapviz.resources import ui_path
from overlapviz.view.layout import SPAN_MARGIN


@dataclass(frozen=True, slots=True)
class Theme:
    """What a theme sets: the widgets' stylesheet and the timeline's own colours."""

    name: str
    title: str  # in English, translated in context "Theme" where shown
    stylesheet: str  # file name under ui/
    background: str
    foreground: str
    muted: str  # grid, separators, secondary text
    band: str  # the shaded band behind every other lane group
    span_margin: float = SPAN_MARGIN  # space above and below a lane's spans, in lane heights


THEMES: dict[str, Theme] = {
    "light": Theme(
        "light", str(QT_TRANSLATE_NOOP("Theme", "Light")), "light.qss", "#FFFFFF", "#1F2328", "#8C959F", "#F3F4F6"
    ),
    "dark": Theme(
        "dark", str(QT_TRANSLATE_NOOP("Theme", "Dark")), "dark.qss", "#1E1F22", "#E6E6E6", "#6E7681", "#2A2C31"
    ),
    "projector": Theme(
        "projector", str(QT_TRANSLATE_NOOP("Theme", "Projector")), "projector.qss",
        "#FFFFFF", "#000000", "#404040", "#E4E4E4", span_margin=0.05,
    ),
}  # fmt: skip
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

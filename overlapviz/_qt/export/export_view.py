"""The picture that exports draw: caption, colour key and timeline, laid out for a slide.

It is a real widget laid out offscreen (never shown on screen), so the exported image is the
same drawing code as the window, at a size chosen for the export rather than the window's.
Layout happens at a logical width of at most 1920 px; wider images scale it up (3840 px is
1920 at a device pixel ratio of 2), so text stays readable on a slide at any width. A slide
(`ExportOptions.height`) is exactly width x height: the picture, laid out as for its width,
is scaled to fit and centred, the rest filled with the background (`image_export.canvas`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont
from PySide6.QtWidgets import QApplication, QLabel, QVBoxLayout, QWidget

from overlapviz._qt.export.caption import caption_text
from overlapviz._qt.themes import Theme, get_theme
from overlapviz._qt.timeline.widget import TimelineWidget
from overlapviz._qt.widgets.legend import LegendBar
from overlapviz.view.prepared import PreparedView, legend_of

LAYOUT_WIDTH = 1920
LANE_PX = 58  # logical pixels per lane height unit
CHROME_PX = 170  # caption, legend, time axis and margins
MIN_HEIGHT, MAX_HEIGHT = 480, 1080
TEXT_PX = 17
CAPTION_PX = 19
MIN_WIDTH, MAX_WIDTH = 320, 16384


@dataclass(frozen=True, slots=True)
class ExportOptions:
    """How a picture is made."""

    width: int = 1920  # device pixels of the PNG
    height: int | None = None  # a slide's: the picture fitted into width x height; None: as tall as it needs
    theme: str = "light"
    transparent: bool = False
    caption: bool = True
    window_ms: tuple[float, float] | None = None  # the time window; None: the whole run
    explanations: bool = True  # the findings as callouts on their spans

    def __post_init__(self) -> None:
        if not MIN_WIDTH <= self.width <= MAX_WIDTH:
            raise ValueError(f"width {self.width} px is out of range; allowed {MIN_WIDTH} to {MAX_WIDTH}")
        if self.height is not None and not MIN_WIDTH <= self.height <= MAX_WIDTH:
            raise ValueError(f"height {self.height} px is out of range; allowed {MIN_WIDTH} to {MAX_WIDTH}")
        get_theme(self.theme)

    @property
    def scale(self) -> float:
        """Device pixels per logical pixel."""
        return max(1.0, self.width / LAYOUT_WIDTH)

    @property
    def logical_width(self) -> int:
        """The width the widgets are laid out at."""
        return round(self.width / self.scale)

    @property
    def logical_height(self) -> int | None:
        """A slide's height in logical pixels (None: no slide)."""
        return None if self.height is None else round(self.height / self.scale)


def style_export_widget(widget: QWidget, options: ExportOptions) -> Theme:
    """Give an export widget its theme's background and text colour; returns the theme."""
    theme = get_theme(options.theme)
    widget.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen)
    widget.setObjectName("export_view")
    background = "transparent" if options.transparent else theme.background
    widget.setStyleSheet(
        f"#export_view {{ background: {background}; }}"
        f" QLabel {{ color: {theme.foreground}; background: transparent; }}"
    )
    widget.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
    return theme


def export_fonts() -> tuple[QFont, QFont]:
    """The text font and the (bold, larger) caption font of every export."""
    text = QFont(QApplication.font())
    text.setPixelSize(TEXT_PX)
    caption = QFont(text)
    caption.setPixelSize(CAPTION_PX)
    caption.setBold(True)
    return text, caption


def export_timeline(theme: Theme, options: ExportOptions, font: QFont, parent: QWidget) -> TimelineWidget:
    """A timeline for an export: themed, with or without callouts, in the export's font."""
    timeline = TimelineWidget(theme, parent, filter_bar=False)
    timeline.set_theme(theme, transparent=options.transparent)
    timeline.set_explanations(options.explanations)
    timeline.set_font(font)
    return timeline


class ExportWidget(QWidget):
    """A picture laid out for export, offscreen: its timelines and what it shows in words.

    The timelines are made when first asked for, or one per step by `build_steps`: the widgets
    of one plot take a step of their own (about 25 ms here).
    """

    def __init__(self, options: ExportOptions, sides: int) -> None:
        super().__init__()
        self.options = options
        self._sides = sides
        self._made: list[TimelineWidget] = []

    def timelines(self) -> list[TimelineWidget]:
        """The timelines in the picture, top first (made now where not yet)."""
        for _ in self.build_steps():
            pass
        return list(self._made)

    def build_steps(self) -> Iterator[None]:
        """Make the timelines not made yet, one at a time, a step after each."""
        while len(self._made) < self._sides:
            self._made.append(self._make_timeline(len(self._made)))
            yield

    def _make_timeline(self, side: int) -> TimelineWidget:
        """Make the timeline of `side` (0: the top one) and put it in its place in the layout."""
        raise NotImplementedError

    def fill_steps(self) -> Iterator[None]:
        """`fill`, in steps."""
        self.fill()
        yield

    def description(self) -> str:
        """What the picture shows, in words (an SVG's description)."""
        raise NotImplementedError

    def fill(self) -> None:
        """Hand the timelines their prepared traces and size the picture for their lanes.

        Apart from building the widgets, so that each is a short step of its own.
        """
        raise NotImplementedError

    def show_offscreen(self) -> None:
        """Show the picture offscreen, so that Qt polishes and lays it out (with the events it posts).

        Qt would also paint it into a backing store nobody sees; with updates off it does not
        (`render` turns them on for the moment it paints).
        """
        self.setUpdatesEnabled(False)
        self.show()  # WA_DontShowOnScreen: laid out and polished, never mapped
        layout = self.layout()
        if layout is not None:
            layout.activate()

    def render(self, *args: Any, **kwargs: Any) -> None:
        """Paint as `QWidget.render` does, with updates on for the moment (see `show_offscreen`)."""
        self.setUpdatesEnabled(True)
        try:
            super().render(*args, **kwargs)
        finally:
            self.setUpdatesEnabled(False)

    def lay_out(self) -> None:
        """Lay the widgets out at the export size, offscreen, and fit the views to the window.

        The layout's posted events are handled here; after `show_offscreen`, an event loop
        that ran meanwhile has handled them already, one event at a time.
        """
        self.show_offscreen()
        QApplication.sendPostedEvents()
        self.fit_views()

    def fit_views(self) -> None:
        """Show the chosen time window, or the whole run."""
        for timeline in self.timelines():
            if self.options.window_ms is not None:
                timeline.set_view_range_ms(*self.options.window_ms)
            else:
                timeline.reset_view()


class ExportView(ExportWidget):
    """Caption, legend and timeline of one prepared trace, sized for export."""

    def __init__(self, view: PreparedView, options: ExportOptions) -> None:
        super().__init__(options, sides=1)
        self._theme = style_export_widget(self, options)
        self._text_font, caption_font = export_fonts()
        self.caption = QLabel(caption_text(view.trace, view.metrics) if options.caption else "", self)
        self.caption.setVisible(options.caption)
        self.caption.setWordWrap(True)
        self.caption.setFont(caption_font)
        self.legend = LegendBar(self, legend_of([view]))
        self.legend.set_text_colour(QColor(self._theme.foreground))
        self.legend.setFont(self._text_font)
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(16, 12, 16, 8)
        self._layout.addWidget(self.caption)
        self._layout.addWidget(self.legend)
        self._view = view

    @property
    def timeline(self) -> TimelineWidget:
        """The one timeline."""
        return self.timelines()[0]

    def _make_timeline(self, side: int) -> TimelineWidget:
        timeline = export_timeline(self._theme, self.options, self._text_font, self)
        self._layout.addWidget(timeline, 1)
        return timeline

    def fill(self) -> None:
        """The trace on the timeline; the height for its lanes."""
        self.timeline.set_view(self._view)
        self.resize(self.options.logical_width, self._height())

    def description(self) -> str:
        """The caption."""
        return self.caption.text()

    def _height(self) -> int:
        scene = self.timeline.scene_items
        lanes = scene.layout.nominal_height if scene is not None else 4.0
        chrome = CHROME_PX + self.timeline.simulated_badge.height_needed()
        return int(min(max(lanes * LANE_PX + chrome, MIN_HEIGHT), MAX_HEIGHT))

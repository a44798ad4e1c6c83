"""The picture of a comparison: A above B on one time axis, a caption each, and the deltas.

Laid out like a single export (see `export_view`): a title, the colour key, then per side
its caption and timeline, both reaching the longer run's end with lane titles of one width,
so the same time lines up in both; last, how B differs from A.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont
from PySide6.QtWidgets import QApplication, QLabel, QVBoxLayout

from overlapviz._qt.export.alignment import align_timelines, side_caption, side_name
from overlapviz._qt.export.export_view import (
    CHROME_PX,
    ExportOptions,
    ExportWidget,
    export_fonts,
    export_timeline,
    style_export_widget,
)
from overlapviz._qt.timeline.widget import TimelineWidget
from overlapviz._qt.widgets.legend import LegendBar
from overlapviz.view.deltas import delta_html, delta_line, delta_rows
from overlapviz.view.prepared import PreparedView, legend_of

SIDE_LANE_PX = 40  # logical pixels per lane height unit: two timelines share the picture
SIDE_CHROME_PX = 90  # a side's caption and time axis
MIN_HEIGHT, MAX_HEIGHT = 600, 2000


@dataclass(frozen=True)
class ComparisonPicture:
    """Two runs, prepared for their timelines, to draw one above the other: A first."""

    views: tuple[PreparedView, PreparedView]
    labels: tuple[str, str] = ("", "")
    title: str = ""
    shifts_ns: tuple[int, int] = (0, 0)  # how far each side was drawn later to line up (`app.aligning`)

    def __post_init__(self) -> None:
        if len(self.views) != 2 or len(self.labels) != 2:
            raise ValueError("a comparison has two sides, A and B, each with a label")


class ComparisonExportView(ExportWidget):
    """Title, legend, A and B with their captions, and the deltas, sized for export."""

    def __init__(self, picture: ComparisonPicture, options: ExportOptions) -> None:
        super().__init__(options, sides=len(picture.views))
        theme = style_export_widget(self, options)
        text_font, caption_font = export_fonts()
        self._theme, self._text_font = theme, text_font
        metrics = [view.metrics for view in picture.views]
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 12, 16, 8)
        self.title = self._label(picture.title, caption_font, visible=bool(picture.title) and options.caption)
        layout.addWidget(self.title)
        self.legend = LegendBar(self, legend_of(picture.views))
        self.legend.set_text_colour(QColor(theme.foreground))
        self.legend.setFont(text_font)
        layout.addWidget(self.legend)
        self.captions: list[QLabel] = []
        for side, (view, label) in enumerate(zip(picture.views, picture.labels, strict=True)):
            text = side_caption(side, label, view.trace, view.metrics, picture.shifts_ns[side])
            caption = self._label(text, caption_font, visible=True)
            layout.addWidget(caption)  # its timeline goes below it when made (`_make_timeline`)
            self.captions.append(caption)
        rows = delta_rows(metrics[0], metrics[1])
        self._deltas_text = delta_line(rows)
        names = (side_name(0, picture.labels[0]), side_name(1, picture.labels[1]))
        self.deltas = self._label(delta_html(rows, names), text_font, visible=True)
        self.deltas.setTextFormat(Qt.TextFormat.RichText)
        layout.addWidget(self.deltas)
        self._layout = layout
        self._views = picture.views

    def _make_timeline(self, side: int) -> TimelineWidget:
        timeline = export_timeline(self._theme, self.options, self._text_font, self)
        self._layout.insertWidget(self._layout.indexOf(self.captions[side]) + 1, timeline, 1)
        return timeline

    def fill(self) -> None:
        """Each side's trace on its timeline, the heights shared by their lanes."""
        for _ in self.fill_steps():
            pass

    def fill_steps(self) -> Iterator[None]:
        """`fill`, a side per step (putting a trace on a timeline builds its items)."""
        timelines = self.timelines()
        for timeline, view in zip(timelines, self._views, strict=True):
            timeline.set_view(view)
            self._layout.setStretchFactor(timeline, max(1, round(self._lanes(timeline))))
            yield
        self.resize(self.options.logical_width, self._height())

    def description(self) -> str:
        """Title, both captions and the deltas."""
        lines = [self.title.text()] if self.title.text() else []
        return "\n".join([*lines, *(caption.text() for caption in self.captions), self._deltas_text])

    def fit_views(self) -> None:
        """One time axis for both sides, then the chosen window."""
        align_timelines(self.timelines())
        QApplication.sendPostedEvents()  # the plots take the titles' new width before the views are fitted
        super().fit_views()

    def _label(self, text: str, font: QFont, *, visible: bool) -> QLabel:
        label = QLabel(text, self)
        label.setWordWrap(True)
        label.setFont(font)
        label.setVisible(visible)
        return label

    @staticmethod
    def _lanes(timeline: TimelineWidget) -> float:
        scene = timeline.scene_items
        return scene.layout.nominal_height if scene is not None else 4.0

    def _height(self) -> int:
        lanes = sum(self._lanes(timeline) for timeline in self.timelines())
        badges = sum(timeline.simulated_badge.height_needed() for timeline in self.timelines())
        height = lanes * SIDE_LANE_PX + 2 * SIDE_CHROME_PX + CHROME_PX + badges
        return int(min(max(height, MIN_HEIGHT), MAX_HEIGHT))

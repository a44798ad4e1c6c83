"""The centre of the window: the timeline on show (B), and once a run is pinned, A above it.

A and B share one time axis: zooming or panning one moves the other, both reach the longer
run's end, and their lane titles are one width so that a time lines up in both. A caption
over each says which side it is and what ran; below them a small table gives the deltas
(makespan, copy time hidden, efficiency, time saved, wall, host blocked, bandwidth, ...).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont
from PySide6.QtWidgets import QLabel, QSplitter, QVBoxLayout, QWidget

from overlapviz._qt.export.comparison_view import ComparisonPicture
from overlapviz._qt.teaching.alignment import align_timelines, release_timeline, side_caption, side_name
from overlapviz._qt.themes import Theme
from overlapviz._qt.timeline.widget import TimelineWidget
from overlapviz.app.pair_run import Side
from overlapviz.view.deltas import delta_html, delta_rows
from overlapviz.view.prepared import PreparedView


class ComparePanel(QWidget):
    """Shows B (the window's timeline) alone, or A pinned above it with the differences."""

    def __init__(self, timeline: TimelineWidget, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.timeline_b = timeline
        self.timeline_a = TimelineWidget(parent=self)
        self.caption_a, self.caption_b = self._caption(), self._caption()
        self.deltas = QLabel(self)
        self.deltas.setObjectName("compare_deltas")
        self.deltas.setTextFormat(Qt.TextFormat.RichText)
        # The table wraps its cells to the width it gets: it never widens the window (QLabel's
        # own minimum for a wrapped table is far wider than the table needs).
        self.deltas.setWordWrap(True)
        self.deltas.setMinimumWidth(1)
        self._a: Side | None = None
        self._b: Side | None = None
        self._title = ""  # what the pair shows (a lesson's title), while B is the pair's own
        self._splitter = QSplitter(Qt.Orientation.Vertical, self)
        self._splitter.setChildrenCollapsible(False)
        for caption, side_timeline in ((self.caption_a, self.timeline_a), (self.caption_b, timeline)):
            box = QWidget(self._splitter)
            column = QVBoxLayout(box)
            column.setContentsMargins(0, 0, 0, 0)
            column.addWidget(caption)
            column.addWidget(side_timeline, 1)
            self._splitter.addWidget(box)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self._splitter, 1)
        layout.addWidget(self.deltas)
        timeline.drawn.connect(self._on_b_drawn)
        self._show_parts()

    # --- sides -------------------------------------------------------------------------

    def is_comparing(self) -> bool:
        """Whether a run is pinned as A."""
        return self._a is not None

    def side_a(self) -> Side | None:
        """The pinned run."""
        return self._a

    def pin(self, view: PreparedView, label: str = "", title: str = "") -> None:
        """Pin the run `view` as A, above the timeline on show; `title` names the comparison."""
        self._a = Side(view, label)
        self._title = title
        self.timeline_a.set_view(view)
        self.timeline_a.link_time_to(self.timeline_b)
        self._show_parts()
        self._refresh()
        self._balance()

    def unpin(self) -> None:
        """Back to one timeline."""
        self._a = None
        self.timeline_a.link_time_to(None)
        self.timeline_a.clear()
        release_timeline(self.timeline_b)
        self._show_parts()

    def show_b(self, view: PreparedView | None, label: str = "") -> None:
        """Note the run on show in the window's timeline (B), with its name (none: the title goes)."""
        self._b = None if view is None else Side(view, label)
        if not label:
            self._title = ""
        self._refresh()

    def picture(self) -> ComparisonPicture | None:
        """A and B to export as one picture; None unless both are on show."""
        if self._a is None or self._b is None:
            return None
        return ComparisonPicture((self._a.view, self._b.view), (self._a.label, self._b.label), self._title)

    def timelines(self) -> list[TimelineWidget]:
        """The timelines on show: A's (when pinned), then B's."""
        return [self.timeline_a, self.timeline_b] if self._a is not None else [self.timeline_b]

    # --- looks -------------------------------------------------------------------------

    def set_theme(self, theme: Theme) -> None:
        """A's timeline in `theme` (B's follows the window)."""
        self.timeline_a.set_theme(theme)
        self.deltas.setStyleSheet(f"color: {QColor(theme.foreground).name()};")

    def set_font(self, font: QFont) -> None:
        """A's timeline in `font`; the titles line up again."""
        self.timeline_a.set_font(font)
        self._refresh()

    def set_explanations(self, on: bool) -> None:
        """Callouts on both timelines, or on neither."""
        self.timeline_a.set_explanations(on)
        self.timeline_b.set_explanations(on)

    # --- internals -----------------------------------------------------------------------

    def _caption(self) -> QLabel:
        label = QLabel(self)
        label.setObjectName("side_caption")
        label.setWordWrap(True)
        return label

    def _show_parts(self) -> None:
        comparing = self._a is not None
        for widget in (self.timeline_a.parentWidget(), self.caption_b, self.deltas):
            if widget is not None:
                widget.setVisible(comparing)

    def _on_b_drawn(self) -> None:
        if self._a is not None:
            align_timelines(self.timelines())
            self._balance()

    def _refresh(self) -> None:
        if self._a is None:
            return
        a = self._a
        self.caption_a.setText(side_caption(0, a.label, a.result.trace, a.result.metrics))
        if self._b is None:
            self.caption_b.setText(side_name(1) + ": run something to compare with A")
            self.deltas.setText("")
        else:
            b = self._b
            self.caption_b.setText(side_caption(1, b.label, b.result.trace, b.result.metrics))
            names = (side_name(0, a.label), side_name(1, b.label))
            self.deltas.setText(delta_html(delta_rows(a.result.metrics, b.result.metrics), names))
        align_timelines(self.timelines())

    def _balance(self) -> None:
        """Split the height by the two timelines' lane counts."""
        scenes = [timeline.scene_items for timeline in (self.timeline_a, self.timeline_b)]
        if any(scene is None for scene in scenes):
            return
        heights = [scene.layout.height + 2.0 for scene in scenes if scene is not None]  # + caption and axis
        total = max(self._splitter.height(), 2)
        self._splitter.setSizes([round(total * h / sum(heights)) for h in heights])

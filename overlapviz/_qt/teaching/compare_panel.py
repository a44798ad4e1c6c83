"""The centre of the window: the timeline on show (B), and once a run is pinned, A above it.

A view of the application model: B is the run on show, A the pinned run, and the model says
whether they share one time axis. On the shared axis zooming or panning one moves the other,
both reach the longer run's end, and their lane titles are one width so that a time lines up
in both. On their own axes (chosen when one run is far shorter than the other) each is fitted
to its own run, and a note over both says that x no longer means the same time. A side
from a file is lined up with the other at the first device ops (`app.aligning`). A caption
over each says which side it is, its file, what ran, and how far it was moved to line up;
below them a small table gives the deltas (makespan, copy time hidden, efficiency, time
saved, wall, host blocked, bandwidth, ...).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont
from PySide6.QtWidgets import QLabel, QSplitter, QVBoxLayout, QWidget

from overlapviz._qt.export.alignment import align_timelines, release_timeline, side_caption, side_name
from overlapviz._qt.export.comparison_view import ComparisonPicture
from overlapviz._qt.teaching.fitting_labels import FittedTable, WholeTextLabel, shrunk
from overlapviz._qt.themes import Theme
from overlapviz._qt.timeline.widget import TimelineWidget
from overlapviz._qt.translation import translate
from overlapviz.app.model import AppModel, CompareAxis, Pinned
from overlapviz.app.pair_run import Side
from overlapviz.view.deltas import NAME_LIMIT, delta_html, delta_names_tooltip, delta_rows

# While presenting, a side's caption (its settings, device and figures: the details) is written
# at this share of presentation mode's type, so that on a 1280 x 720 projector the lesson, both
# timelines and the table of differences keep their room; on the desktop it takes the window's.
DETAIL_SHARE = 0.75


class ComparePanel(QWidget):
    """Shows B (the window's timeline) alone, or A pinned above it with the differences."""

    def __init__(self, timeline: TimelineWidget, model: AppModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._model = model
        self.timeline_b = timeline
        self.timeline_a = TimelineWidget(parent=self)
        self.caption_a, self.caption_b = self._caption(), self._caption()
        self.axis_note = self._caption()
        self.axis_note.setObjectName("axis_note")
        self.axis_note.setText(
            translate(
                "ComparePanel",
                "\u26a0 Each side on its own time axis: A and B are drawn to different scales, so the same x is not the"
                " same time (Compare \u25b8 Shared time axis lines them up).",
            )
        )
        self.deltas = FittedTable(self)
        self.deltas.setObjectName("compare_deltas")
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
        layout.addWidget(self.axis_note)
        layout.addWidget(self._splitter, 1)
        layout.addWidget(self.deltas)
        timeline.drawn.connect(self._on_b_drawn)
        model.pinned_changed.connect(self._on_pinned)
        model.shown_changed.connect(lambda _shown: self._refresh())
        model.axis_changed.connect(lambda _axis: self._apply_axis())
        model.presenting_changed.connect(lambda _presenting: self._size_captions())
        self._show_parts()

    # --- sides -------------------------------------------------------------------------

    def is_comparing(self) -> bool:
        """Whether a run is pinned as A."""
        return self._model.comparing

    def side_a(self) -> Side | None:
        """The pinned run."""
        pinned = self._model.pinned
        return None if pinned is None else pinned.a

    def picture(self) -> ComparisonPicture | None:
        """A and B to export as one picture; None unless both are on show."""
        pinned, shown = self._model.pinned, self._model.shown
        if pinned is None or shown is None:
            return None
        sides = (pinned.view, shown.view)
        return ComparisonPicture(sides, (pinned.a.label, shown.label), pinned.title, (pinned.shift_ns, shown.shift_ns))

    def timelines(self) -> list[TimelineWidget]:
        """The timelines on show: A's (when pinned), then B's."""
        return [self.timeline_a, self.timeline_b] if self._model.comparing else [self.timeline_b]

    # --- looks -------------------------------------------------------------------------

    def set_theme(self, theme: Theme) -> None:
        """A's timeline in `theme` (B's follows the window)."""
        self.timeline_a.set_theme(theme)
        self.deltas.setStyleSheet(f"color: {QColor(theme.foreground).name()};")

    def set_font(self, font: QFont) -> None:
        """A's timeline in `font`; the titles line up again."""
        self.timeline_a.set_font(font)
        self._size_captions()
        self._refresh()

    def set_explanations(self, on: bool) -> None:
        """Callouts on both timelines, or on neither."""
        self.timeline_a.set_explanations(on)
        self.timeline_b.set_explanations(on)

    # --- internals -----------------------------------------------------------------------

    def _size_captions(self) -> None:
        details = shrunk(self.font(), DETAIL_SHARE) if self._model.presenting else QFont()  # QFont(): the window's
        for caption in (self.caption_a, self.caption_b):
            caption.setFont(details)

    def _caption(self) -> QLabel:
        label = WholeTextLabel(self)
        label.setObjectName("side_caption")
        return label

    def _on_pinned(self, pinned: Pinned | None) -> None:
        if pinned is None:
            self.timeline_a.link_time_to(None)
            self.timeline_a.clear()
            release_timeline(self.timeline_b)
            self._show_parts()
            return
        if self.timeline_a.view is not pinned.view:
            self.timeline_a.set_view(pinned.view)
        self._show_parts()
        self._refresh()
        self._balance()

    def _show_parts(self) -> None:
        comparing = self._model.comparing
        for widget in (self.timeline_a.parentWidget(), self.caption_b, self.deltas):
            if widget is not None:
                widget.setVisible(comparing)
        self.axis_note.setVisible(comparing and self._model.axis is CompareAxis.OWN)

    def _on_b_drawn(self) -> None:
        if self._model.comparing:
            self._apply_axis()
            self._balance()

    def _refresh(self) -> None:
        pinned = self._model.pinned
        if pinned is None:
            return
        a, shown = pinned.a, self._model.shown
        drawn = pinned.view.result  # cut to the time window, if the pair has one
        self.caption_a.setText(side_caption(0, a.label, drawn.trace, drawn.metrics, pinned.shift_ns))
        if shown is None:
            self.caption_b.setText(
                translate("ComparePanel", "{side}: run something to compare with A").format(side=side_name(1))
            )
            self.deltas.set_table("")
        else:
            caption = side_caption(1, shown.label, shown.result.trace, shown.result.metrics, shown.shift_ns)
            self.caption_b.setText(caption)
            names = (side_name(0, a.label), side_name(1, shown.label))
            self.deltas.set_table(delta_html(delta_rows(drawn.metrics, shown.result.metrics), names, NAME_LIMIT))
            self.deltas.setToolTip(delta_names_tooltip(names))
        self._apply_axis()

    def _apply_axis(self) -> None:
        """One time axis for both, or each its own (the lane titles stay one width either way)."""
        if not self._model.comparing:
            return
        if self._model.axis is CompareAxis.SHARED:
            self.timeline_a.link_time_to(self.timeline_b)
            align_timelines(self.timelines())
        else:
            self.timeline_a.link_time_to(None)
            align_timelines(self.timelines(), shared_time=False)
        self._show_parts()

    def _balance(self) -> None:
        """Split the height by the two timelines' lane counts."""
        scenes = [timeline.scene_items for timeline in (self.timeline_a, self.timeline_b)]
        if any(scene is None for scene in scenes):
            return
        heights = [scene.layout.nominal_height + 2.0 for scene in scenes if scene is not None]  # + caption and axis
        total = max(self._splitter.height(), 2)
        self._splitter.setSizes([round(total * h / sum(heights)) for h in heights])

"""The timeline widget: lanes of spans, a time axis, zoom and pan, hover and highlight.

Also the findings drawn as callouts (on by default, `set_explanations`) in the timeline's
font, their rows as tall as the words (the lanes are placed again when the font or the
plot's height changes), a replay cursor (`set_cursor_ms`), a time extent shared with
another timeline (`fit_time`), above a trace of more than 16 stream lanes a filter of its
streams (`view.filtered_view`), and a time window measured by dragging along the time axis
(`window_dragged`; the band is `window_band`). A trace cut to a time window is fitted to the
window; another tool's trace opens on its GPU work (`view.opening`), Home shows all of it.
It shows a prepared trace (`prepared.prepare_view`, made on the run thread): nothing
here reads a trace whole, so showing even a run of 10^6 spans only hands arrays to the items.
Given an executor (`build_in_background`), the finer levels of detail a zoom reads and the
hover index of a large lane are built on it, and the timeline draws again as they land
(`background_built`); without one they are built where first needed. The window's timelines
paint a new picture in a turn of the event loop of their own (`paint_in_own_turn`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np
import numpy.typing as npt
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QObject, QPoint, QPointF, Qt, QTimer, Signal
from PySide6.QtGui import QFont, QHelpEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import QApplication, QMenu, QToolTip, QVBoxLayout, QWidget

from overlapviz._qt.event_turns import in_a_turn_of_its_own
from overlapviz._qt.themes import DEFAULT_THEME, THEMES, Theme
from overlapviz._qt.timeline.axes import LaneAxis, TimeAxis
from overlapviz._qt.timeline.background_builds import BackgroundBuilds
from overlapviz._qt.timeline.paint_turn import PaintTurn
from overlapviz._qt.timeline.scene import TimelineScene
from overlapviz._qt.timeline.simulated_badge import SimulatedBadge
from overlapviz._qt.timeline.stream_filter_bar import StreamFilterBar
from overlapviz._qt.timeline.time_window_band import WindowDrag
from overlapviz._qt.timeline.view_box import PAN_STEP, ZOOM_STEP, TimelineViewBox
from overlapviz.app.executor import Executor
from overlapviz.core.trace.spans import Trace
from overlapviz.view.callouts import Callout
from overlapviz.view.filtered_view import filtered_view, offers_filter
from overlapviz.view.opening import opening_ms
from overlapviz.view.prepared import PreparedView
from overlapviz.view.stream_filter import StreamFilter, stream_lane_count

HOVER_TOLERANCE_PX = 3
CURSOR_PX = 2
KEYS = {
    Qt.Key.Key_Left: ("pan", -PAN_STEP), Qt.Key.Key_Right: ("pan", PAN_STEP),
    Qt.Key.Key_Plus: ("zoom", ZOOM_STEP), Qt.Key.Key_Equal: ("zoom", ZOOM_STEP),
    Qt.Key.Key_Minus: ("zoom", 1 / ZOOM_STEP), Qt.Key.Key_Up: ("zoom", ZOOM_STEP),
    Qt.Key.Key_Down: ("zoom", 1 / ZOOM_STEP), Qt.Key.Key_0: ("reset", 0.0),
}  # fmt: skip  (Home resets too: the window's "Reset timeline view" action owns that key)


class TimelineWidget(QWidget):
    """Shows one trace; `drawn` fires once its items are in place for a new trace (and may paint).

    `window_changed` gives the visible time window (ms from the run's start) once it has
    settled after a zoom, a pan or a resize; `window_dragged` the span (ms) dragged out along
    the time axis, on release; `background_built` that what was built off the GUI thread is drawn.
    """

    drawn = Signal()
    window_changed = Signal(float, float)
    window_dragged = Signal(float, float)
    background_built = Signal()

    def __init__(self, theme: Theme | None = None, parent: QWidget | None = None, *, filter_bar: bool = True) -> None:
        super().__init__(parent)
        self._theme = theme or THEMES[DEFAULT_THEME]
        self._view_box = TimelineViewBox()
        self._time_axis, self._lane_axis = TimeAxis(), LaneAxis()
        self._lane_axis.setTicks([[]])  # before the first run there are no lanes to name, not numbers 0 to 1
        axes = {"bottom": self._time_axis, "left": self._lane_axis}
        windows_before = set(QApplication.topLevelWidgets())
        self._plot = pg.PlotWidget(viewBox=self._view_box, axisItems=axes)
        self._adopt_menus(windows_before)
        self._plot.setObjectName("timeline_plot")
        self._plot.hideButtons()
        self._plot.getPlotItem().setMenuEnabled(False)
        self._scene: TimelineScene | None = None
        self._explain = True
        self._highlight = np.zeros(0, dtype=np.intp)
        self._font: QFont | None = None
        self._cursor_ms: float | None = None
        self._extent_ms: tuple[float, float] | None = None
        self._tooltip_text: str | None = None  # the span's tooltip on show, if any
        self._pointer: QPointF | None = None  # where the mouse last moved over the plot (scene coordinates)
        self._builds = BackgroundBuilds(self._on_built)
        self._paint_turn: PaintTurn | None = None
        self._cursor_line = pg.InfiniteLine(angle=90, movable=False)
        self._cursor_line.setZValue(20)
        self._cursor_line.hide()
        self._view_box.addItem(self._cursor_line, ignoreBounds=True)
        self.window_drag = WindowDrag(self._time_axis, self._view_box, lambda: self._scene is not None, self)
        self.window_drag.chosen.connect(self.window_dragged)
        self._window_timer = QTimer(self, singleShot=True, interval=0)
        self._window_timer.timeout.connect(self._apply_window)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.simulated_badge = SimulatedBadge(self)
        self.simulated_badge.add_to(layout)
        self.stream_filter = StreamFilterBar(self)
        self.stream_filter.hide()
        self._filter_bar = filter_bar  # an export's timeline has none: it draws the lanes it is given
        self.stream_filter.changed.connect(self._filter_streams)
        layout.addWidget(self.stream_filter)
        layout.addWidget(self._plot)
        self._view_box.sigXRangeChanged.connect(self._schedule_window)
        self._view_box.sigResized.connect(self._schedule_window)
        self._plot.scene().sigMouseMoved.connect(self._on_mouse_moved)
        self._plot.viewport().installEventFilter(self)
        self._view_box.sigXRangeChanged.connect(self._drop_tooltip)
        self._view_box.sigResized.connect(self._drop_tooltip)
        self._add_key_shortcuts()
        self.set_theme(self._theme)

    # --- content ---------------------------------------------------------------------

    @property
    def trace(self) -> Trace | None:
        """The trace shown, if any."""
        return None if self._scene is None else self._scene.trace

    @property
    def view(self) -> PreparedView | None:
        """The prepared trace shown, if any."""
        return None if self._scene is None else self._scene.view

    @property
    def scene_items(self) -> TimelineScene | None:
        """The drawn items of the current trace (for exporters and tests)."""
        return self._scene

    def set_view(self, view: PreparedView, *, keep_view: bool = False) -> None:
        """Show the prepared trace `view`; unless `keep_view`, the time window is where the trace opens.

        Another tool's trace opens on its GPU work, anything else whole (`view.opening`).

        A trace of many streams shows the stream lanes its filter keeps: the filter `view` was
        made with, else the one on show for the same trace, else every stream, the quiet ones folded.
        """
        self._highlight = np.zeros(0, dtype=np.intp)
        source = view.unfiltered or view
        offered = offers_filter(source)
        if offered and view.stream_filter is None:
            same_trace = self._scene is not None and self._scene.trace is source.trace
            view = filtered_view(source, self.stream_filter.current() if same_trace else StreamFilter())
        if offered and view.stream_filter is not None:
            self.stream_filter.show_filter(view.stream_filter)
            self.stream_filter.show_count(stream_lane_count(view.lanes), stream_lane_count(source.lanes))
        self.stream_filter.setVisible(offered and self._filter_bar)
        self._show(view, keep_view)

    def build_in_background(self, executor: Executor | None) -> None:
        """Build finer levels of detail and large lanes' hover indexes on `executor` (None: where first needed)."""
        self._builds.use(executor)

    def paint_in_own_turn(self) -> None:
        """From now on, paint each new picture in a turn of the event loop after the one that builds it.

        The window's timelines do (`paint_turn`); an export's, which is rendered at once, does not.
        `drawn` then says when the picture may paint, and so does `when_painted`. A zoom or pan
        waits the same turn, so its spans paint once, already culled for the new window.
        """
        if self._paint_turn is None:
            self._paint_turn = PaintTurn(self._plot, self)

    def when_painted(self, then: Callable[[], None]) -> None:
        """Call `then` once the picture on show may be painted (and grabbed): now, or when its turn comes."""
        if self._paint_turn is None:
            then()
        else:
            self._paint_turn.when_released(then)

    @property
    def building(self) -> bool:
        """Whether something asked of the background builds has not landed yet."""
        return self._builds.pending()

    def _on_built(self) -> None:
        """Draw again from what landed; a tooltip under a resting pointer may now be found."""
        if self._scene is None:
            return
        self._apply_window()
        if self._pointer is not None and self._tooltip_text is None and self._plot.underMouse():
            self._on_mouse_moved(self._pointer)
        self.background_built.emit()

    def _filter_streams(self, wanted: StreamFilter) -> None:
        if self._scene is not None:
            source = self._scene.view.unfiltered or self._scene.view
            self.set_view(filtered_view(source, wanted), keep_view=True)

    def _show(self, view: PreparedView, keep_view: bool) -> None:
        previous = self._view_box.viewRange()[0] if keep_view and self._scene is not None else None
        if self._paint_turn is not None:
            self._paint_turn.hold()
        self._remove_scene()
        self._scene = TimelineScene(view, self._theme, explain=self._explain)
        self._scene.add_to(self._view_box)
        if self._font is not None:
            self._scene.set_font(self._font)
        self._scene.fit_callout_rows(self._view_box.height())
        self._lane_axis.show_layout(self._scene.layout)
        self.simulated_badge.show_for(view.trace.meta)
        self._fit()
        opening = previous or opening_ms(view.trace)
        if opening is not None:
            self._view_box.setXRange(*opening, padding=0)
        self._scene.set_cursor(self._cursor_ms)
        if len(self._highlight):
            self._scene.highlight(self._highlight)
        self._apply_window()
        self.when_painted(self.drawn.emit)

    def _fit(self) -> None:
        scene = self._scene
        if scene is not None:
            start_ms, end_ms = scene.start_ms, scene.end_ms
            if self._extent_ms is not None:
                start_ms, end_ms = min(start_ms, self._extent_ms[0]), max(end_ms, self._extent_ms[1])
            self._view_box.fit(start_ms, end_ms, scene.layout.height, padded=not scene.windowed)

    @property
    def explanations(self) -> bool:
        """Whether the findings are drawn as callouts."""
        return self._explain

    def set_explanations(self, on: bool) -> None:
        """Draw the findings as callouts on their spans, or not (the lanes move to make room)."""
        if on != self._explain:
            self._explain = on
            if self._scene is not None:
                self._show(self._scene.view, keep_view=True)

    def callouts(self) -> list[Callout]:
        """The callouts on show."""
        return [] if self._scene is None else self._scene.callout_item.callouts

    def set_cursor_ms(self, t_ms: float | None) -> None:
        """Replay: show only what started before `t_ms`, cut at it, with a line there (None: all)."""
        self._cursor_ms = t_ms
        self._cursor_line.setVisible(t_ms is not None)
        if t_ms is not None:
            self._cursor_line.setPos(t_ms)
        if self._scene is not None:
            self._scene.set_cursor(t_ms)

    def cursor_ms(self) -> float | None:
        """Where the replay cursor is (None: no replay)."""
        return self._cursor_ms

    def fit_time(self, extent_ms: tuple[float, float] | None, opening: tuple[float, float] | None = None) -> None:
        """Let the time axis span `extent_ms` (start, end) at least (shared with another timeline).

        Show all of it, or `opening` where given (the stacked timelines' GPU work, `view.opening`).
        """
        self._extent_ms = extent_ms
        self._fit()
        if opening is not None:
            self._view_box.setXRange(*opening, padding=0)
        self._apply_window()

    def link_time_to(self, other: TimelineWidget | None) -> None:
        """Zoom and pan with `other` (None: on its own again)."""
        self._view_box.setXLink(None if other is None else other._view_box)

    def lane_axis_width(self) -> float:
        """The width the lane titles need."""
        return float(self._lane_axis.natural_width())

    def set_lane_axis_min_width(self, width: float) -> None:
        """Make the lane titles at least `width` wide, so stacked timelines line up."""
        self._lane_axis.min_width = width
        self._lane_axis.fit_width()

    def clear(self) -> None:
        """Show nothing."""
        self._remove_scene()
        self.stream_filter.hide()

    def _remove_scene(self) -> None:
        self._builds.forget()  # what was asked for the old picture is of no use to the next
        if self._scene is not None:
            self._scene.remove_from(self._view_box)
            # freeing a large scene's items and arrays takes milliseconds: a turn of its own, after the new picture's
            in_a_turn_of_its_own(self, functools.partial(_let_go, [self._scene]))
            self._scene = None
        self._lane_axis.setTicks([[]])
        self.simulated_badge.show_for(None)

    def highlight_rows(self, rows: npt.ArrayLike) -> None:
        """Outline the spans of `rows` (empty: none)."""
        self._highlight = np.asarray(rows, dtype=np.intp)
        if self._scene is not None:
            self._scene.highlight(self._highlight)

    # --- view ------------------------------------------------------------------------

    def view_range_ms(self) -> tuple[float, float]:
        """The visible time window, ms from the run's start."""
        x0, x1 = self._view_box.viewRange()[0]
        return float(x0), float(x1)

    def set_view_range_ms(self, t0: float, t1: float) -> None:
        """Show the time window [t0, t1] (ms)."""
        self._view_box.setXRange(t0, t1, padding=0)
        self._apply_window()

    def take_focus(self) -> None:
        """Take the keyboard, so that its keys (Home, zoom, pan) work at once."""
        self._plot.setFocus()

    def reset_view(self) -> None:
        """Show the whole run."""
        self._view_box.reset_view()
        self._apply_window()

    def zoom_by(self, factor: float) -> None:
        """Zoom the time axis in (> 1) or out (< 1)."""
        self._view_box.zoom_by(factor)

    def pan_by(self, fraction: float) -> None:
        """Move along the time axis by `fraction` of the window."""
        self._view_box.pan_by(fraction)

    def map_to_widget(self, t_ms: float, y: float) -> QPoint:
        """Where the scene point (t, y) lands in this widget's coordinates."""
        scene_point = self._view_box.mapViewToScene(QPointF(t_ms, y))
        view_point = self._plot.mapFromScene(scene_point)
        return QPoint(self._plot.mapTo(self, view_point))

    def time_axis_point(self, t_ms: float) -> QPoint:
        """Where the time axis is at the time `t_ms`, in this widget's coordinates (to drag along it)."""
        x = self._view_box.mapViewToScene(QPointF(t_ms, 0.0)).x()
        scene_point = QPointF(x, self._time_axis.sceneBoundingRect().center().y())
        return QPoint(self._plot.mapTo(self, self._plot.mapFromScene(scene_point)))

    # --- looks -------------------------------------------------------------------------

    def set_theme(self, theme: Theme, *, transparent: bool = False) -> None:
        """Colour the plot with `theme` (no background when `transparent`)."""
        relayout = self._scene is not None and theme.span_margin != self._theme.span_margin
        self._theme = theme
        self._plot.setBackground(None if transparent else theme.background)
        for axis in (self._time_axis, self._lane_axis):
            axis.setPen(pg.mkPen(theme.muted))
            axis.setTextPen(pg.mkPen(theme.foreground))
            axis.label.setDefaultTextColor(pg.mkColor(theme.foreground))
        self._cursor_line.setPen(pg.mkPen(theme.foreground, width=CURSOR_PX))
        self.window_drag.band.set_theme(theme)
        if self._scene is not None and relayout:
            self._show(self._scene.view, keep_view=True)
        elif self._scene is not None:
            self._scene.set_theme(theme)

    def set_font(self, font: QFont) -> None:
        """Use `font` for tick labels, axis titles and callouts."""
        self._font = QFont(font)
        if self._scene is not None:
            self._scene.set_font(font)
        for axis in (self._time_axis, self._lane_axis):
            axis.setTickFont(font)
            axis.label.setFont(font)
        self._time_axis.setHeight(None)
        self.window_drag.band.label.setFont(font)
        self._lane_axis.fit_width()
        self.simulated_badge.set_font(font)
        self._fit_callout_rows()

    # --- internals ---------------------------------------------------------------------

    def _adopt_menus(self, windows_before: set[QWidget]) -> None:
        """Make pyqtgraph's parentless context menus children of this widget.

        They are never shown (the menus are disabled), but as parentless windows they would
        outlive the timeline until Python's garbage collector found them.
        """
        for window in QApplication.topLevelWidgets():
            if isinstance(window, QMenu) and window not in windows_before and window.parent() is None:
                window.setParent(self, window.windowFlags())

    def _add_key_shortcuts(self) -> None:
        for key, (action, amount) in KEYS.items():
            shortcut = QShortcut(QKeySequence(key), self)
            shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            shortcut.activated.connect(lambda a=action, v=amount: self._key_action(a, v))

    def _key_action(self, action: str, amount: float) -> None:
        if action == "pan":
            self.pan_by(amount)
        elif action == "zoom":
            self.zoom_by(amount)
        else:
            self.reset_view()

    def _schedule_window(self, *_args: object) -> None:
        if self._paint_turn is not None:  # paint the moved spans once, culled for the new window
            self._paint_turn.hold()
        self._window_timer.start()

    def _fit_callout_rows(self) -> None:
        """Give the callouts rows as tall as their words on the plot as it is now."""
        if self._scene is not None and self._scene.fit_callout_rows(self._view_box.height()):
            self._lane_axis.show_layout(self._scene.layout)
            self._view_box.fit_height(self._scene.layout.height)

    def _apply_window(self) -> None:
        self._window_timer.stop()
        if self._scene is None:
            return
        self._fit_callout_rows()
        t0, t1 = self.view_range_ms()
        width_px = max(self._view_box.width(), 1.0)
        self._scene.set_window(t0, t1, (t1 - t0) / width_px, self._builds)
        self.window_changed.emit(t0, t1)

    def _on_mouse_moved(self, scene_pos: QPointF) -> None:
        self._pointer = QPointF(scene_pos)
        text = self.tooltip_at_scene(scene_pos)
        if text:
            QToolTip.showText(self._plot.mapToGlobal(self._plot.mapFromScene(scene_pos)), text, self._plot)
        else:
            QToolTip.hideText()
        self._tooltip_text = text

    def _drop_tooltip(self, *_args: object) -> None:
        """Hide the span's tooltip once the spans move under a resting pointer (zoom, new run, resize)."""
        if self._tooltip_text is not None and QToolTip.isVisible() and QToolTip.text() == self._tooltip_text:
            QToolTip.hideText()
        self._tooltip_text = None

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        """Answer Qt's own tooltip request over a span with the span's tooltip.

        Once the pointer rests, Qt asks the view for a tooltip (to an active window only, so
        only on a desktop); left to the graphics scene, whose items have none, the answer is
        an empty tooltip, which hides the one the last mouse move showed.
        """
        if isinstance(event, QHelpEvent) and event.type() == QEvent.Type.ToolTip:
            text = self.tooltip_at_scene(self._plot.mapToScene(event.pos()))
            if text:
                QToolTip.showText(event.globalPos(), text, self._plot)
                self._tooltip_text = text
                return True
        return bool(super().eventFilter(watched, event))

    def tooltip_at_scene(self, scene_pos: QPointF) -> str | None:
        """The tooltip for the scene point `scene_pos`, if a span is there."""
        if self._scene is None or not self._view_box.sceneBoundingRect().contains(scene_pos):
            return None
        point = self._view_box.mapSceneToView(scene_pos)
        t0, t1 = self.view_range_ms()
        tolerance_ms = HOVER_TOLERANCE_PX * (t1 - t0) / max(self._view_box.width(), 1.0)
        return self._scene.describe_at(point.x(), point.y(), tolerance_ms, self._builds)


def _let_go(held: list[TimelineScene]) -> None:
    """Drop the last reference to a scene taken off the timeline: it is freed now, in this turn.

    Not when the call is done with: a timer's call is deleted later, with the next turn's
    posted events (the new picture's paint among them).
    """
    held.clear()

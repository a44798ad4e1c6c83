"""The timeline widget: lanes of spans, a time axis, zoom and pan, hover and highlight."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pyqtgraph as pg
from PySide6.QtCore import QPoint, QPointF, Qt, QTimer, Signal
from PySide6.QtGui import QFont, QKeySequence, QShortcut
from PySide6.QtWidgets import QApplication, QMenu, QToolTip, QVBoxLayout, QWidget

from overlapviz._qt.themes import DEFAULT_THEME, THEMES, Theme
from overlapviz._qt.timeline.axes import LaneAxis, TimeAxis
from overlapviz._qt.timeline.scene import TimelineScene
from overlapviz._qt.timeline.view_box import PAN_STEP, ZOOM_STEP, TimelineViewBox
from overlapviz.core.trace import Trace

HOVER_TOLERANCE_PX = 3
KEYS = {
    Qt.Key.Key_Left: ("pan", -PAN_STEP), Qt.Key.Key_Right: ("pan", PAN_STEP),
    Qt.Key.Key_Plus: ("zoom", ZOOM_STEP), Qt.Key.Key_Equal: ("zoom", ZOOM_STEP),
    Qt.Key.Key_Minus: ("zoom", 1 / ZOOM_STEP), Qt.Key.Key_Up: ("zoom", ZOOM_STEP),
    Qt.Key.Key_Down: ("zoom", 1 / ZOOM_STEP), Qt.Key.Key_0: ("reset", 0.0),
}  # fmt: skip  (Home resets too: the window's "Reset timeline view" action owns that key)


class TimelineWidget(QWidget):
    """Shows one trace; `drawn` fires once its items are in place for a new trace."""

    drawn = Signal()

    def __init__(self, theme: Theme | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._theme = theme or THEMES[DEFAULT_THEME]
        self._view_box = TimelineViewBox()
        self._time_axis, self._lane_axis = TimeAxis(), LaneAxis()
        axes = {"bottom": self._time_axis, "left": self._lane_axis}
        windows_before = set(QApplication.topLevelWidgets())
        self._plot = pg.PlotWidget(viewBox=self._view_box, axisItems=axes)
        self._adopt_menus(windows_before)
        self._plot.setObjectName("timeline_plot")
        self._plot.hideButtons()
        self._plot.getPlotItem().setMenuEnabled(False)
        self._scene: TimelineScene | None = None
        self._window_timer = QTimer(self, singleShot=True, interval=0)
        self._window_timer.timeout.connect(self._apply_window)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self._plot)
        self._view_box.sigXRangeChanged.connect(self._schedule_window)
        self._view_box.sigResized.connect(self._schedule_window)
        self._plot.scene().sigMouseMoved.connect(self._on_mouse_moved)
        self._add_key_shortcuts()
        self.set_theme(self._theme)

    # --- content ---------------------------------------------------------------------

    @property
    def trace(self) -> Trace | None:
        """The trace shown, if any."""
        return None if self._scene is None else self._scene.trace

    @property
    def scene_items(self) -> TimelineScene | None:
        """The drawn items of the current trace (for exporters and tests)."""
        return self._scene

    def set_trace(self, trace: Trace, *, keep_view: bool = False) -> None:
        """Show `trace`; the view resets to the whole run unless `keep_view`."""
        previous = self._view_box.viewRange()[0] if keep_view and self._scene is not None else None
        self.clear()
        self._scene = TimelineScene(trace, self._theme)
        self._scene.add_to(self._view_box)
        self._lane_axis.show_layout(self._scene.layout)
        self._view_box.fit(self._scene.end_ms, self._scene.layout.height)
        if previous is not None:
            self._view_box.setXRange(*previous, padding=0)
        self._apply_window()
        self.drawn.emit()

    def clear(self) -> None:
        """Show nothing."""
        if self._scene is not None:
            self._scene.remove_from(self._view_box)
            self._scene = None
        self._lane_axis.setTicks([[]])

    def highlight_rows(self, rows: npt.ArrayLike) -> None:
        """Outline the spans of `rows` (empty: none)."""
        if self._scene is not None:
            self._scene.highlight(np.asarray(rows, dtype=np.intp))

    # --- view ------------------------------------------------------------------------

    def view_range_ms(self) -> tuple[float, float]:
        """The visible time window, ms from the run's start."""
        x0, x1 = self._view_box.viewRange()[0]
        return float(x0), float(x1)

    def set_view_range_ms(self, t0: float, t1: float) -> None:
        """Show the time window [t0, t1] (ms)."""
        self._view_box.setXRange(t0, t1, padding=0)
        self._apply_window()

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

    # --- looks -------------------------------------------------------------------------

    def set_theme(self, theme: Theme, *, transparent: bool = False) -> None:
        """Colour the plot with `theme` (no background when `transparent`)."""
        self._theme = theme
        self._plot.setBackground(None if transparent else theme.background)
        for axis in (self._time_axis, self._lane_axis):
            axis.setPen(pg.mkPen(theme.muted))
            axis.setTextPen(pg.mkPen(theme.foreground))
            axis.label.setDefaultTextColor(pg.mkColor(theme.foreground))
        if self._scene is not None:
            self._scene.set_theme(theme)

    def set_font(self, font: QFont) -> None:
        """Use `font` for tick labels and axis titles."""
        for axis in (self._time_axis, self._lane_axis):
            axis.setTickFont(font)
            axis.label.setFont(font)
        self._time_axis.setHeight(None)
        self._lane_axis.fit_width()

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
        self._window_timer.start()

    def _apply_window(self) -> None:
        self._window_timer.stop()
        if self._scene is None:
            return
        t0, t1 = self.view_range_ms()
        width_px = max(self._view_box.width(), 1.0)
        self._time_axis.fit_unit(t0, t1)
        self._scene.set_window(t0, t1, (t1 - t0) / width_px)

    def _on_mouse_moved(self, scene_pos: QPointF) -> None:
        text = self.tooltip_at_scene(scene_pos)
        if text:
            QToolTip.showText(self._plot.mapToGlobal(self._plot.mapFromScene(scene_pos)), text, self._plot)
        else:
            QToolTip.hideText()

    def tooltip_at_scene(self, scene_pos: QPointF) -> str | None:
        """The tooltip for the scene point `scene_pos`, if a span is there."""
        if self._scene is None or not self._view_box.sceneBoundingRect().contains(scene_pos):
            return None
        point = self._view_box.mapSceneToView(scene_pos)
        t0, t1 = self.view_range_ms()
        tolerance_ms = HOVER_TOLERANCE_PX * (t1 - t0) / max(self._view_box.width(), 1.0)
        return self._scene.describe_at(point.x(), point.y(), tolerance_ms)

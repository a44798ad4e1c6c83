"""The rank overview's plot: one row per rank, its time on the job's clock in coloured cells.

All rows are one image (`view.rank_overview` makes its RGBA cells), so 512 ranks by 1024
columns draw as fast as 2: one item, whatever the job's size. The left axis names the rows
(``rank 3``, starred where the rank is marked: the worst of the job at a figure, or its
straggler, `job_report.rank_marks`), thinned to what its height can hold; the marked rows are
also framed. A click opens a rank's timeline, Ctrl+click selects up to two ranks for Compare;
hovering a row shows the rank's figures and why it is marked.
"""

from __future__ import annotations

import math

import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetrics, QKeyEvent, QPen, QResizeEvent
from PySide6.QtWidgets import QApplication, QGraphicsRectItem, QMenu, QToolTip, QWidget

from overlapviz._qt.themes import DEFAULT_THEME, Theme, get_theme
from overlapviz._qt.translation import translate
from overlapviz.view.rank_overview import RankOverview

MAX_SELECTED = 2  # Compare takes two ranks
MARK_COLOUR = "#D55E00"  # the palette's vermillion, as the host's blocked time: what stands out
NS_PER_MS = 1e6


class RankOverviewPlot(pg.PlotWidget):  # type: ignore[misc]  # pyqtgraph is untyped
    """The rows of a job's ranks. `rank_activated` (a row) opens it; `selection_changed` lists the selected rows."""

    rank_activated = Signal(int)
    selection_changed = Signal(list)

    def __init__(self, parent: QWidget | None = None) -> None:
        windows_before = set(QApplication.topLevelWidgets())
        super().__init__(parent, viewBox=pg.ViewBox(enableMenu=False))
        self._adopt_menus(windows_before)
        self.overview: RankOverview | None = None
        self.selected: list[int] = []
        self._theme = get_theme(DEFAULT_THEME)
        self._image = pg.ImageItem(axisOrder="row-major")
        self._frames: list[QGraphicsRectItem] = []  # the marked ranks' rows
        self._selection_frames: list[QGraphicsRectItem] = []
        self.addItem(self._image)
        self.setMenuEnabled(False)
        self.hideButtons()
        self.setMouseEnabled(x=True, y=False)
        self.getPlotItem().invertY(True)
        self.getAxis("bottom").setLabel(translate("RankOverviewPlot", "ms on the job's clock"))
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.scene().sigMouseClicked.connect(self._on_click)
        self.scene().sigMouseMoved.connect(self._on_hover)
        self.set_theme(self._theme)

    def _adopt_menus(self, windows_before: set[QWidget]) -> None:
        """Make pyqtgraph's parentless context menus this widget's children (as the timeline's are).

        They are never shown (the menus are disabled), but as parentless windows they would
        outlive the plot until Python's garbage collector found them.
        """
        for window in QApplication.topLevelWidgets():
            if isinstance(window, QMenu) and window not in windows_before and window.parent() is None:
                window.setParent(self, window.windowFlags())

    def show_overview(self, overview: RankOverview) -> None:
        """Draw `overview` (replacing what was there), nothing selected."""
        self.overview = overview
        rows = len(overview.rows)
        self._image.setImage(overview.image, levels=(0, 255))
        self._image.setRect(QRectF(0.0, 0.0, overview.span_ns / NS_PER_MS, float(rows)))
        self.getViewBox().setLimits(xMin=0.0, xMax=overview.span_ns / NS_PER_MS, yMin=0.0, yMax=float(max(rows, 1)))
        self.getViewBox().setRange(xRange=(0.0, overview.span_ns / NS_PER_MS), yRange=(0.0, float(rows)), padding=0)
        self._frame_marked()
        self.set_selected([])
        self._label_rows()

    def set_selected(self, rows: list[int]) -> None:
        """Select `rows` (at most two; the last is the current one)."""
        self.selected = rows[-MAX_SELECTED:]
        self._draw_selection()
        self.selection_changed.emit(list(self.selected))

    def row_at_y(self, y: float) -> int | None:
        """The row at `y` in the plot's coordinates, or None outside the rows."""
        if self.overview is None or y < 0:
            return None
        row = math.floor(y)
        return row if row < len(self.overview.rows) else None

    def row_centre(self, row: int) -> QPointF:
        """Where `row`'s middle is on the widget (for clicks and hovering)."""
        box = self.getViewBox()
        x_range = box.viewRange()[0]
        scene = box.mapViewToScene(QPointF(sum(x_range) / 2, row + 0.5))
        centre: QPointF = self.mapFromScene(scene).toPointF()
        return centre

    def set_theme(self, theme: Theme) -> None:
        """Draw in `theme`'s background, text and grid colours."""
        self._theme = theme
        self.setBackground(theme.background)
        for name in ("left", "bottom"):
            axis = self.getAxis(name)
            axis.setPen(pg.mkPen(theme.muted))
            axis.setTextPen(pg.mkPen(theme.foreground))
        self._draw_selection()

    def set_font(self, font: QFont) -> None:
        """Write the axes in `font` (the window's text size)."""
        for name in ("left", "bottom"):
            self.getAxis(name).setStyle(tickFont=font)
            self.getAxis(name).label.setFont(font)
        self._label_rows()

    # --- the rows' labels and marks -------------------------------------------------------

    def _label_rows(self) -> None:
        """Name as many rows as the axis has room for, every marked one among them."""
        if self.overview is None:
            return
        rows = self.overview.rows
        line = QFontMetrics(self.getAxis("left").style.get("tickFont") or self.font()).height()
        room = max(1, int(self.getViewBox().height() // max(line, 1)))
        step = max(1, math.ceil(len(rows) / room))
        named = {i for i in range(0, len(rows), step)} | {i for i, row in enumerate(rows) if row.marks}
        ticks = [(i + 0.5, rows[i].label) for i in sorted(named)]
        self.getAxis("left").setTicks([ticks, []])

    def _frame_marked(self) -> None:
        for frame in self._frames:
            self.removeItem(frame)
        self._frames = []
        if self.overview is None:
            return
        width = self.overview.span_ns / NS_PER_MS
        for index, row in enumerate(self.overview.rows):
            if row.marks:
                self._frames.append(self._frame(index, width, QColor(MARK_COLOUR), 2, Qt.PenStyle.DashLine))

    def _draw_selection(self) -> None:
        for frame in self._selection_frames:
            self.removeItem(frame)
        self._selection_frames = []
        if self.overview is None:
            return
        width = self.overview.span_ns / NS_PER_MS
        colour = QColor(self._theme.foreground)
        self._selection_frames = [self._frame(row, width, colour, 3, Qt.PenStyle.SolidLine) for row in self.selected]

    def _frame(self, row: int, width: float, colour: QColor, pen_width: int, style: Qt.PenStyle) -> QGraphicsRectItem:
        frame = QGraphicsRectItem(QRectF(0.0, float(row), width, 1.0))
        pen = QPen(colour, pen_width, style)
        pen.setCosmetic(True)
        frame.setPen(pen)
        frame.setBrush(QBrush(Qt.BrushStyle.NoBrush))
        self.addItem(frame)
        return frame

    # --- what the user does ---------------------------------------------------------------

    def _on_click(self, event: object) -> None:
        scene_pos = event.scenePos()  # type: ignore[attr-defined]
        if not self.getViewBox().sceneBoundingRect().contains(scene_pos):
            return
        row = self.row_at_y(self.getViewBox().mapSceneToView(scene_pos).y())
        if row is None:
            return
        if event.modifiers() & Qt.KeyboardModifier.ControlModifier:  # type: ignore[attr-defined]
            self.set_selected([r for r in self.selected if r != row] if row in self.selected else [*self.selected, row])
            return
        self.set_selected([row])
        self.rank_activated.emit(row)

    def _on_hover(self, scene_pos: QPointF) -> None:
        if self.overview is None or not self.getViewBox().sceneBoundingRect().contains(scene_pos):
            QToolTip.hideText()
            return
        index = self.row_at_y(self.getViewBox().mapSceneToView(scene_pos).y())
        row = None if index is None else self.overview.row_at(index)
        if row is None:
            QToolTip.hideText()
            return
        global_pos = self.viewport().mapToGlobal(self.mapFromScene(scene_pos))
        QToolTip.showText(global_pos, row.tooltip, self)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt's name)
        """Up and Down move the selection; Enter opens the selected rank."""
        rows = len(self.overview.rows) if self.overview else 0
        current = self.selected[-1] if self.selected else -1
        if event.key() in (Qt.Key.Key_Up, Qt.Key.Key_Down) and rows:
            step = -1 if event.key() == Qt.Key.Key_Up else 1
            self.set_selected([min(max(current + step, 0), rows - 1)])
        elif event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and current >= 0:
            self.rank_activated.emit(current)
        else:
            super().keyPressEvent(event)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt's name)
        """Name as many rows as the new height holds."""
        super().resizeEvent(event)
        if "overview" in vars(self):  # pyqtgraph resizes the view while it is being built
            self._label_rows()

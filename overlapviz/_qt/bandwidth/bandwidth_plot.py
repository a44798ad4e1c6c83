"""The plot: bandwidth (GB/s) against transfer size (log scale), H2D and D2H, per host memory kind.

Directions take their kinds' colours (as on the timeline), and more than colour, so that they
tell apart in greyscale too and neither hides the other where they coincide (the model's
pinned H2D and D2H are the same): H2D is a wide band with large circles, D2H a narrow line
with small squares drawn on top of it, so a shared stretch shows the D2H line inside the H2D
band. Pinned is solid with filled marks, pageable dashed with long gaps and hollow marks,
write-combined dotted with small hollow diamonds on top (on the H200 it moves like pinned
memory, so its dots run along the pinned curve rather than hiding it). The
link's theoretical limit per direction is a dashed horizontal line with its name. The title
says "simulated" when the model drew it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import pyqtgraph as pg
from PySide6.QtCore import QT_TRANSLATE_NOOP, Qt
from PySide6.QtGui import QColor, QPen
from PySide6.QtWidgets import QApplication, QMenu, QVBoxLayout, QWidget

from overlapviz._qt.themes import Theme
from overlapviz._qt.translation import translate
from overlapviz.core.config import format_size
from overlapviz.core.number_text import rate_text
from overlapviz.session import BandwidthSweep
from overlapviz.view.palette import KIND_COLOURS, SpanStyle

DIRECTION_COLOURS = {"h2d": KIND_COLOURS[SpanStyle.H2D], "d2h": KIND_COLOURS[SpanStyle.D2H]}



@dataclass(frozen=True, slots=True)
class DirectionLook:
    """How one direction's curves are drawn: line width, mark, and which lies on top."""

    line_px: float
    line_alpha: int  # 0-255: the wide band is pale, so the narrow line on it stands out, in grey too
    symbol: str
    symbol_px: int
    z: int


DIRECTION_LOOKS = {"h2d": DirectionLook(10.0, 110, "o", 17, 0), "d2h": DirectionLook(3.0, 255, "s", 9, 1)}
OTHER_LOOK = DirectionLook(3.0, 255, "t", 11, 2)


@dataclass(frozen=True, slots=True)
class MemoryLook:
    """How one memory kind's curves differ: dashes (pixels on, off; None: solid) and marks."""

    dashes: tuple[float, float] | None
    filled: bool
    symbol: str | None = None  # None: the direction's mark
    thin: bool = False  # a narrow line on top of the others, whatever the direction
    z: int = 0


MEMORY_LOOKS = {
    "pinned": MemoryLook(None, filled=True),
    "pageable": MemoryLook((18.0, 12.0), filled=False),  # the same dash length on the band and the line
    "write-combined": MemoryLook((3.0, 6.0), filled=False, symbol="d", thin=True, z=3),
}
OTHER_MEMORY = MemoryLook((8.0, 4.0), filled=False)
ORDER = {"h2d": 0, "d2h": 1, "pinned": 0, "pageable": 1, "write-combined": 2}
# the axes' titles and the host memory kinds' names, in English: translated where shown
SIZE_LABEL = str(QT_TRANSLATE_NOOP("BandwidthPlot", "Transfer size (one copy)"))
RATE_LABEL = str(QT_TRANSLATE_NOOP("BandwidthPlot", "Bandwidth (GB/s, 10\u2079 bytes/s)"))
MEMORY_NAMES = {
    "pinned": str(QT_TRANSLATE_NOOP("BandwidthPlot", "pinned")),
    "pageable": str(QT_TRANSLATE_NOOP("BandwidthPlot", "pageable")),
    "write-combined": str(QT_TRANSLATE_NOOP("BandwidthPlot", "write-combined")),
}


def sweep_title(sweep: BandwidthSweep) -> str:
    """``NVIDIA H200 (model), simulated (sim backend)`` or ``NVIDIA H200, measured (cupy backend)``."""
    name = sweep.device_name or sweep.device or translate("BandwidthPlot", "default device")
    if sweep.simulated:
        title = translate("BandwidthPlot", "{device}, simulated ({backend} backend)")
    else:
        title = translate("BandwidthPlot", "{device}, measured ({backend} backend)")
    return title.format(device=name, backend=sweep.backend)


def curve_name(memory: str, direction: str) -> str:
    """The legend's name of one curve: ``H2D, pinned``."""
    kind = translate("BandwidthPlot", MEMORY_NAMES[memory]) if memory in MEMORY_NAMES else memory
    return translate("BandwidthPlot", "{direction}, {memory}").format(direction=direction.upper(), memory=kind)


def series(sweep: BandwidthSweep) -> dict[tuple[str, str], tuple[list[int], list[float]]]:
    """(memory, direction) -> sizes and GB/s, sorted by size, finite values only."""
    found: dict[tuple[str, str], list[tuple[int, float]]] = {}
    for point in sweep.points:
        gbps = float(point["gbps"])
        if math.isfinite(gbps):
            found.setdefault((str(point["memory"]), str(point["direction"])), []).append((int(point["size"]), gbps))
    return {key: ([s for s, _ in sorted(pts)], [g for _, g in sorted(pts)]) for key, pts in found.items()}


def _line_pen(colour: str, look: DirectionLook, dashes: tuple[float, float] | None) -> QPen:
    """A solid pen, or one dashed `dashes` pixels on and off whatever its width (Qt counts dashes in widths)."""
    shade = QColor(colour)
    shade.setAlpha(look.line_alpha)
    pen = QPen(shade, look.line_px)
    pen.setCosmetic(True)  # pixels on screen, as pg.mkPen makes them
    pen.setCapStyle(Qt.PenCapStyle.FlatCap)
    if dashes is not None:
        pen.setDashPattern([dashes[0] / look.line_px, dashes[1] / look.line_px])
    return pen


def _legend_order(item: tuple[tuple[str, str], object]) -> tuple[int, int]:
    (memory, direction), _values = item
    return ORDER.get(direction, 9), ORDER.get(memory, 9)


class BandwidthPlot(QWidget):
    """The plot of one sweep."""

    def __init__(self, theme: Theme, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        windows_before = set(QApplication.topLevelWidgets())
        self.plot = pg.PlotWidget()
        self._adopt_menus(windows_before)
        self.plot.setObjectName("bandwidth_plot")
        self.plot.setMenuEnabled(False)
        self.plot.hideButtons()
        self.plot.setLogMode(x=True, y=False)
        self.plot.showGrid(x=True, y=True, alpha=0.25)
        self.plot.setMouseEnabled(x=False, y=False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.plot)
        self._theme = theme
        self.curves: dict[tuple[str, str], pg.PlotDataItem] = {}
        self.peak_line: pg.InfiniteLine | None = None
        self._style_axes()

    def show_sweep(self, sweep: BandwidthSweep) -> None:
        """Draw `sweep` (replacing what was there)."""
        self.plot.clear()
        legend = self.plot.getPlotItem().legend or self.plot.addLegend(offset=(-10, -110))
        legend.clear()
        legend.setLabelTextColor(self._theme.foreground)
        self.curves = {}
        sizes: set[int] = set()
        for (memory, direction), (xs, ys) in sorted(series(sweep).items(), key=_legend_order):
            colour = DIRECTION_COLOURS.get(direction, self._theme.muted)
            look = DIRECTION_LOOKS.get(direction, OTHER_LOOK)
            kind = MEMORY_LOOKS.get(memory, OTHER_MEMORY)
            if kind.thin:
                look = replace(look, line_px=OTHER_LOOK.line_px, line_alpha=255, symbol_px=OTHER_LOOK.symbol_px)
            curve = self.plot.plot(
                xs, ys, pen=_line_pen(colour, look, kind.dashes), symbol=kind.symbol or look.symbol,
                symbolSize=look.symbol_px, symbolBrush=colour if kind.filled else self._theme.background,
                symbolPen=pg.mkPen(colour, width=2.5), name=curve_name(memory, direction),
            )  # fmt: skip
            curve.setZValue(look.z + kind.z)
            self.curves[(memory, direction)] = curve
            sizes.update(xs)
        self.peak_line = self._peak_line(sweep)
        self.plot.getPlotItem().setTitle(sweep_title(sweep), color=self._theme.foreground)
        self.plot.getAxis("bottom").setTicks([[(math.log10(s), format_size(s)) for s in sorted(sizes)]])
        top = max([sweep.link_peak_gbps or 0.0, *(max(ys) for _xs, ys in series(sweep).values())], default=1.0)
        self.plot.setYRange(0, top * 1.1, padding=0)

    def _adopt_menus(self, windows_before: set[QWidget]) -> None:
        """Make pyqtgraph's parentless context menus (disabled, never shown) children of this widget.

        As parentless windows they would outlive the plot until Python's garbage collector found them.
        """
        for window in QApplication.topLevelWidgets():
            if isinstance(window, QMenu) and window not in windows_before and window.parent() is None:
                window.setParent(self, window.windowFlags())

    def _peak_line(self, sweep: BandwidthSweep) -> pg.InfiniteLine | None:
        if not sweep.link_peak_gbps:
            return None
        link = sweep.link or translate("BandwidthPlot", "the link")
        limit = translate("BandwidthPlot", "{link}: theoretical limit {rate} per direction")
        line = pg.InfiniteLine(
            pos=sweep.link_peak_gbps, angle=0, movable=False,
            pen=pg.mkPen(self._theme.foreground, width=2, style=Qt.PenStyle.DashLine),
            label=limit.format(link=link, rate=rate_text(sweep.link_peak_gbps)),
            labelOpts={"position": 0.02, "color": self._theme.foreground, "anchors": [(0, 1), (0, 1)]},
        )  # fmt: skip
        self.plot.addItem(line)
        return line

    def _style_axes(self) -> None:
        self.plot.setBackground(self._theme.background)
        for name, label in (("bottom", SIZE_LABEL), ("left", RATE_LABEL)):
            axis = self.plot.getAxis(name)
            axis.enableAutoSIPrefix(False)
            axis.setPen(pg.mkPen(self._theme.muted))
            axis.setTextPen(pg.mkPen(self._theme.foreground))
            axis.setLabel(translate("BandwidthPlot", label), color=self._theme.foreground)

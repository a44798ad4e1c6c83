"""The timeline's view box: time zooms and pans; the lanes stay put."""

from __future__ import annotations

import pyqtgraph as pg

from overlapviz.view.layout import VIEW_PAD

ZOOM_STEP = 1.25
PAN_STEP = 0.1  # of the visible window
MIN_WINDOW_MS = 1e-4  # 100 ns: below that the ticks say nothing new
EDGE_PAD = 0.02  # of the run's length, on each side, when the view is reset


class TimelineViewBox(pg.ViewBox):  # type: ignore[misc]  # pyqtgraph is untyped
    """x-only mouse (wheel zooms, drag pans), y fixed to the lanes, no context menu."""

    def __init__(self) -> None:
        super().__init__(enableMenu=False)
        self.setMouseEnabled(x=True, y=False)
        self.invertY(True)
        self.disableAutoRange()
        self._full = (0.0, 1.0)

    def updateViewRange(self, forceX: bool = False, forceY: bool = False) -> None:  # noqa: N802,N803 (pyqtgraph's names)
        """Take the new range and move the items to it now.

        pyqtgraph moves them only when it next paints, and items moved inside a paint ask
        for a second one: every new picture, zoom and pan painted twice (10 ms more of the
        GUI thread for a 4096-chunk run on a 2-core machine).
        """
        super().updateViewRange(forceX, forceY)
        if not self.rect().isEmpty():  # not laid out yet: there is nothing to move the items to
            self.updateMatrix()

    def fit(self, start_ms: float, end_ms: float, height: float, *, padded: bool = True) -> None:
        """Bound the view to time from `start_ms` to `end_ms` and lanes `height` tall; show all of it.

        `padded` leaves a little room at both ends (a run); without it the view ends at the
        times themselves (a time window, whose spans are cut at its edges).
        """
        pad = max(end_ms - start_ms, MIN_WINDOW_MS) * EDGE_PAD if padded else 0.0
        self._full = (start_ms - pad, end_ms + pad)
        self.setLimits(xMin=self._full[0], xMax=self._full[1], minXRange=MIN_WINDOW_MS)
        self.fit_height(height)
        self.reset_view()

    def fit_height(self, height: float) -> None:
        """Show lanes `height` tall, all of them; the time window stays."""
        self.setLimits(yMin=-VIEW_PAD, yMax=height + VIEW_PAD)
        self.setYRange(-VIEW_PAD, height + VIEW_PAD, padding=0)

    def reset_view(self) -> None:
        """Show the whole run."""
        self.setXRange(*self._full, padding=0)

    def zoom_by(self, factor: float) -> None:
        """Zoom in (`factor` > 1) or out around the window's centre."""
        x0, x1 = self.viewRange()[0]
        centre, half = (x0 + x1) / 2, (x1 - x0) / 2 / factor
        self.setXRange(centre - half, centre + half, padding=0)

    def pan_by(self, fraction: float) -> None:
        """Move the window by `fraction` of its width (negative: earlier)."""
        x0, x1 = self.viewRange()[0]
        shift = (x1 - x0) * fraction
        self.setXRange(x0 + shift, x1 + shift, padding=0)

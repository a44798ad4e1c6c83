"""How much of each lane a rendered picture inks, against how busy the lane's spans keep it.

A lane's ink is read from the image alone: in the rows its spans may fill, each pixel counts
as the share of the way it lies from the lane's background towards the nearest of the
lane's colours (a pixel half-covered by an antialiased edge counts half), averaged over the
columns of the time window. Its busy share is the union of the lane's spans (waiting left
out) over the window, from the trace. A picture true to its numbers inks each lane as busy
as it was.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import QPoint
from PySide6.QtGui import QColor, QImage

from overlapviz._qt.timeline.scene import TimelineScene
from overlapviz.core.analysis.intervals import covered_ns, union_intervals
from overlapviz.view.palette import SpanStyle

NS_PER_MS = 1e6
NOT_INKED = {SpanStyle.WAITING, SpanStyle.ANNOTATION}  # hatched or written on: no one colour to measure
ToDevice = Callable[[float, float], QPoint]  # (t ms, scene y) -> the image's pixel there


@dataclass(frozen=True, slots=True)
class LaneInk:
    """A lane's ink in the picture and its busy share in the trace, both from 0 to 1."""

    lane_key: str
    ink: float
    busy: float

    def __str__(self) -> str:
        return f"{self.lane_key}: ink {self.ink:.1%}, busy {self.busy:.1%}"


def lane_inks(
    image: QImage, scene: TimelineScene, window_ms: tuple[float, float], to_device: ToDevice
) -> list[LaneInk]:
    """The ink and busy share of every lane whose layers all paint one solid colour each."""
    pixels = _rgb(image)
    layers: dict[str, list] = {}
    for item in scene.batches.values():
        for layer in item.layers:
            layers.setdefault(layer.lane_key, []).append(layer)
    found = []
    for placed in scene.layout.lanes:
        lane_layers = layers.get(placed.lane.key, [])
        if not lane_layers or any(layer.style in NOT_INKED for layer in lane_layers):
            continue
        ink = _ink(pixels, placed, [layer.colour for layer in lane_layers], window_ms, to_device)
        found.append(LaneInk(placed.lane.key, ink, _busy(lane_layers, window_ms)))
    return found


def _rgb(image: QImage) -> np.ndarray:
    """The image's pixels as (rows, columns, 3) floats."""
    image = image.convertToFormat(QImage.Format.Format_RGB32)
    data = np.frombuffer(image.constBits(), dtype=np.uint8).reshape(image.height(), image.bytesPerLine() // 4, 4)
    return data[:, : image.width(), 2::-1].astype(np.float64)  # BGRA in memory -> RGB


def _ink(pixels: np.ndarray, placed, colours: list[str], window_ms, to_device: ToDevice) -> float:
    """The mean ink of the lane's span rows over the window's columns."""
    left, right = to_device(window_ms[0], placed.centre).x(), to_device(window_ms[1], placed.centre).x()
    top, bottom = to_device(window_ms[0], placed.span_top).y(), to_device(window_ms[0], placed.span_bottom).y()
    below = min(bottom + 1, pixels.shape[0] - 1)  # the lane's margin under its spans: only its background
    background = np.median(pixels[below, left:right], axis=0)
    rows = pixels[top:bottom, left:right] - background
    shares = []
    for colour in colours:
        q = QColor(colour)
        towards = np.array([q.red(), q.green(), q.blue()], dtype=np.float64) - background
        shares.append(np.clip(rows @ towards / (towards @ towards), 0.0, 1.0))
    return float(np.max(shares, axis=0).mean())


def _busy(layers, window_ms: tuple[float, float]) -> float:
    """The share of the window that the union of the layers' spans covers."""
    union_s, union_e = union_intervals(
        np.concatenate([layer.starts for layer in layers]), np.concatenate([layer.ends for layer in layers])
    )
    t0, t1 = (round(t * NS_PER_MS) for t in window_ms)
    return float(covered_ns(union_s, union_e, [t0], [t1])[0]) / (t1 - t0)

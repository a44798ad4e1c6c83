"""Where an exported picture must show its spans, worked out from the picture's own layout.

The picture is laid out as the exporters lay it out (`picture_view`, `fill`, `lay_out`): the
same widgets at the same size, so the same axis range, lane rows and plot geometry. For
each timeline in it, the centre of every span wide enough to aim at becomes a probe: a
device pixel of the exported image and the colour that must be there (the colour of the
top layer at that point of that lane). Tests read those pixels in the PNG, in the SVG
rasterised at the same size, or in the file a command wrote; with spans not painted, every
probe reads the lane's background instead.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
from PySide6.QtCore import QByteArray, QPoint, QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer
from PySide6.QtWidgets import QWidget

from overlapviz._qt.export.export_view import ExportOptions
from overlapviz._qt.export.image_export import Subject, canvas, picture_view
from overlapviz._qt.timeline.widget import TimelineWidget
from overlapviz.view.palette import SpanStyle
from overlapviz.view.span_sets import SpanSet

NS_PER_MS = 1e6
MIN_SPAN_PX = 8  # device pixels: narrower spans are not aimed at


@dataclass(frozen=True, slots=True)
class Probe:
    """One point of a span in the exported image, and the colour it must have."""

    side: int  # which timeline of the picture (0, or A and B)
    lane_key: str
    t_ms: float
    x: int
    y: int
    colour: str  # "#RRGGBB"


@dataclass(frozen=True, slots=True)
class PictureLayout:
    """A picture's size in device pixels, its probes, and where its lanes and times are."""

    size: QSize
    probes: tuple[Probe, ...]
    lane_rows: dict[tuple[int, str], int]  # (side, lane key) -> the device row of the lane's centre
    time_x: dict[tuple[int, float], int]  # (side, t ms) -> the device column of that time

    def colours(self) -> set[str]:
        """Every colour the probes expect."""
        return {probe.colour for probe in self.probes}


def picture_layout(subject: Subject, options: ExportOptions, times_ms: tuple[float, ...] = ()) -> PictureLayout:
    """Lay `subject` out as an export with `options` would; its probes (and where `times_ms` fall)."""
    with picture_view(subject, options) as view:
        view.fill()
        view.lay_out()
        probes: list[Probe] = []
        rows: dict[tuple[int, str], int] = {}
        columns: dict[tuple[int, float], int] = {}
        for side, timeline in enumerate(view.timelines()):
            probes += _timeline_probes(view, side, timeline, options.scale)
            scene = timeline.scene_items
            assert scene is not None
            for placed in scene.layout.lanes:
                rows[side, placed.lane.key] = _device(view, timeline, 0.0, placed.centre, options.scale).y()
            for t_ms in times_ms:
                columns[side, t_ms] = _device(view, timeline, t_ms, 0.0, options.scale).x()
        size = QSize(round(view.width() * options.scale), round(view.height() * options.scale))
        return PictureLayout(size, tuple(probes), rows, columns)


def on_slide(layout: PictureLayout, options: ExportOptions) -> PictureLayout:
    """`layout`'s probes where a slide of `options` puts the picture: scaled to fit, centred."""
    scale = options.scale
    where = canvas(QSize(round(layout.size.width() / scale), round(layout.size.height() / scale)), options)

    def placed(probe: Probe) -> Probe:
        point = where.placement.map(QPointF(probe.x + 0.5, probe.y + 0.5) / scale) * scale
        return replace(probe, x=int(point.x()), y=int(point.y()))

    size = QSize(round(where.size.width() * scale), round(where.size.height() * scale))
    return replace(layout, size=size, probes=tuple(placed(probe) for probe in layout.probes), lane_rows={}, time_x={})


def wrong_pixels(image: QImage, layout: PictureLayout) -> list[str]:
    """The probes whose pixel is not their colour, described (empty: every span is where it must be)."""
    assert image.size() == layout.size, (image.size(), layout.size)
    wrong = []
    for probe in layout.probes:
        found = image.pixelColor(probe.x, probe.y).name().upper()
        if found != probe.colour:
            wrong.append(f"side {probe.side} {probe.lane_key} at {probe.t_ms:.3f} ms ({probe.x}, {probe.y}): "
                         f"{found}, not {probe.colour}")  # fmt: skip
    return wrong


def rasterise_svg(data: bytes, size: QSize) -> QImage:
    """The SVG `data` drawn into an image of `size` (its view box stretched over it)."""
    renderer = QSvgRenderer(QByteArray(data))
    assert renderer.isValid()
    image = QImage(size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    renderer.render(painter, QRectF(0, 0, size.width(), size.height()))
    painter.end()
    return image


def first_column(image: QImage, row: int, colour: str) -> int | None:
    """The leftmost column where `row` has `colour`."""
    target = QColor(colour).rgb()
    return next((x for x in range(image.width()) if image.pixel(x, row) == target), None)


def last_column(image: QImage, row: int, colour: str) -> int | None:
    """The rightmost column where `row` has `colour`."""
    target = QColor(colour).rgb()
    return next((x for x in range(image.width() - 1, -1, -1) if image.pixel(x, row) == target), None)


def _timeline_probes(view: QWidget, side: int, timeline: TimelineWidget, scale: float) -> list[Probe]:
    scene = timeline.scene_items
    assert scene is not None
    t0, t1 = timeline.view_range_ms()
    centres = {placed.lane.key: placed.centre for placed in scene.layout.lanes}
    by_lane: dict[str, list[SpanSet]] = {}
    for item in scene.batches.values():  # paint order: batch after batch, layer after layer
        for layer in item.layers:
            by_lane.setdefault(layer.lane_key, []).append(layer)
    probes = []
    for lane_key, layers in by_lane.items():
        y = centres[lane_key]
        for layer in layers:
            if layer.style is SpanStyle.WAITING:
                continue  # hatched: no one colour to expect
            for start, end in zip(layer.starts / NS_PER_MS, layer.ends / NS_PER_MS, strict=True):
                left, right = _device(view, timeline, start, y, scale), _device(view, timeline, end, y, scale)
                middle = (start + end) / 2
                if right.x() - left.x() < MIN_SPAN_PX or not t0 < middle < t1 or _top(layers, middle) is not layer:
                    continue
                point = _device(view, timeline, middle, y, scale)
                probes.append(Probe(side, lane_key, middle, point.x(), point.y(), QColor(layer.colour).name().upper()))
    return probes


def _top(layers: list[SpanSet], t_ms: float) -> SpanSet | None:
    """The last layer painted over `t_ms` in a lane."""
    t_ns = t_ms * NS_PER_MS
    covering = [layer for layer in layers if np.any((layer.starts <= t_ns) & (layer.ends > t_ns))]
    return covering[-1] if covering else None


def _device(view: QWidget, timeline: TimelineWidget, t_ms: float, y: float, scale: float) -> QPoint:
    """Where the scene point (t, y) of `timeline` lands in the exported image of `view`."""
    point = timeline.mapTo(view, timeline.map_to_widget(t_ms, y))
    return QPoint(round(point.x() * scale), round(point.y() * scale))

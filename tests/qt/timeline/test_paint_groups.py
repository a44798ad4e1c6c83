"""The layers of a batch item that share a style are filled in one call, and the picture stays the same."""

import numpy as np
from PySide6.QtGui import QImage, QPainter, QTransform

from overlapviz._qt.themes import THEMES
from overlapviz._qt.timeline.scene import TimelineScene
from overlapviz._qt.timeline.span_item import paint_groups
from overlapviz.core.config import PipelineConfig
from overlapviz.session import run_pipeline
from overlapviz.view.palette import SpanStyle
from overlapviz.view.prepared import prepare_trace
from overlapviz.view.span_sets import SpanSet

WIDTH_PX, HEIGHT_PX = 1200, 700


def _picture(scene, view):
    image = QImage(WIDTH_PX, HEIGHT_PX, QImage.Format.Format_ARGB32)
    image.fill(0xFFFFFFFF)
    painter = QPainter(image)
    lanes_bottom = max(item.boundingRect().bottom() for item in scene.batches.values())
    painter.setTransform(QTransform(WIDTH_PX / view.end_ms, 0.0, 0.0, HEIGHT_PX / lanes_bottom, 0.0, 0.0))
    for item in scene.batches.values():
        item.paint(painter)
    painter.end()
    return np.frombuffer(image.constBits(), dtype=np.uint8).copy()


def test_filling_a_style_of_every_lane_at_once_paints_the_same_pixels(qapp):
    view = prepare_trace(run_pipeline(PipelineConfig(chunks=512, streams=8), "sim", "h200").trace)
    scene = TimelineScene(view, THEMES["light"])
    scene.set_window(0.0, view.end_ms, view.end_ms / WIDTH_PX)
    streams = [item for (group, _), item in scene.batches.items() if group.name == "STREAMS"]
    assert streams and all(len(item._paint_groups) < len(item.layers) for item in streams)
    together = _picture(scene, view)
    for item in scene.batches.values():
        item._paint_groups = [[index] for index in range(len(item.layers))]
        item._painted = None
    assert (together == _picture(scene, view)).all()


def _layer(lane, style):
    none = np.zeros(0, dtype=np.int64)
    return SpanSet.of(lane, style, "#123456", none, none, none.astype(np.intp))


def test_layers_group_by_style_where_every_lane_orders_its_styles_alike():
    alike = [_layer(lane, style) for lane in "ab" for style in (SpanStyle.WAITING, SpanStyle.H2D)]
    assert paint_groups(alike) == [[0, 2], [1, 3]]
    crossed = [_layer("a", SpanStyle.WAITING), _layer("a", SpanStyle.H2D),
               _layer("b", SpanStyle.H2D), _layer("b", SpanStyle.WAITING)]  # fmt: skip
    assert paint_groups(crossed) == [[0], [1], [2], [3]]

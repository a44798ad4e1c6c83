"""The first batch item of a picture to paint works out every item's rectangles, each as it would alone."""

from PySide6.QtGui import QTransform

from overlapviz._qt.themes import THEMES
from overlapviz._qt.timeline.scene import TimelineScene
from overlapviz.core.config import PipelineConfig
from overlapviz.session import run_pipeline
from overlapviz.view.prepared import prepare_trace

WIDTH_PX = 1600


def _scene(view, alone):
    scene = TimelineScene(view, THEMES["light"])
    scene.set_window(0.0, view.end_ms, view.end_ms / WIDTH_PX)  # the whole run: most spans are ink
    if alone:
        for item in scene.batches.values():
            item.together = None
    return scene


def _as_lists(rects):
    return [(spans.tolist(), ink.tolist()) for spans, ink in rects]


def test_every_item_gets_the_rectangles_it_would_work_out_alone(qapp):
    view = prepare_trace(run_pipeline(PipelineConfig(chunks=4096), "sim", "h200").trace)
    transform = QTransform(WIDTH_PX / view.end_ms, 0.0, 0.0, 40.0, 80.0, 10.0)
    alone = {key: _as_lists(item.device_rects(transform)) for key, item in _scene(view, alone=True).batches.items()}
    scene = _scene(view, alone=False)  # held, as the timeline holds the picture on show
    items = scene.batches
    first, *others = items.values()
    assert all(item.rects_stale(transform) for item in items.values())
    first.device_rects(transform)
    assert not any(item.rects_stale(transform) for item in others)  # the first to paint worked out all of theirs
    assert {key: _as_lists(item.device_rects(transform)) for key, item in items.items()} == alone
    assert sum(len(ink) for rects in alone.values() for _spans, ink in rects) > len(items)  # ink in many layers


def test_a_picture_let_go_leaves_its_items_to_work_out_their_own(qapp):
    view = prepare_trace(run_pipeline(PipelineConfig(chunks=256), "sim", "h200").trace)
    scene = _scene(view, alone=False)
    items = list(scene.batches.values())
    scene._rects_together = None  # the picture's shared work is gone: an item held elsewhere still paints
    transform = QTransform(WIDTH_PX / view.end_ms, 0.0, 0.0, 40.0, 80.0, 10.0)
    assert all(len(item.device_rects(transform)) == len(item.layers) for item in items)

"""A scene taken off the timeline is freed in a later turn of the event loop of its own, not kept."""

import gc
import weakref

from PySide6.QtCore import QCoreApplication
from qt_traces import two_chunk_trace

from overlapviz._qt.themes import THEMES
from overlapviz._qt.timeline.widget import TimelineWidget
from overlapviz.view.prepared import prepare_trace


def test_the_scene_a_new_trace_replaces_is_let_go_once_the_event_loop_turns(qtbot):
    timeline = TimelineWidget(THEMES["light"])
    qtbot.addWidget(timeline)
    timeline.set_view(prepare_trace(two_chunk_trace()))
    old = weakref.ref(timeline.scene_items)
    timeline.set_view(prepare_trace(two_chunk_trace()))
    assert old() is not None and old() is not timeline.scene_items  # off the view box, not yet freed
    QCoreApplication.sendPostedEvents()
    assert old() is not None  # not with the calls posted meanwhile (the new picture's paint among them)
    gc.disable()  # freed in its turn, by its last reference going: no collection needed
    try:
        qtbot.waitUntil(lambda: old() is None, timeout=2000)
    finally:
        gc.enable()
    assert timeline.scene_items is not None and len(timeline.scene_items.batches) > 0

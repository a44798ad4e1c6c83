"""A new picture, a zoom and a pan each paint the timeline once (a second paint: another stretch of the GUI thread)."""

import pytest
from paint_probes import Paints, window_timeline
from PySide6.QtWidgets import QWidget
from qt_traces import long_trace, two_chunk_trace

from overlapviz.view.prepared import prepare_trace

SETTLE_MS = 200  # long enough for a second paint, had the first asked for one


@pytest.fixture
def shown(qtbot):
    timeline = window_timeline(qtbot)
    with qtbot.waitSignal(timeline.drawn, timeout=2000):
        timeline.set_view(prepare_trace(two_chunk_trace()))
    qtbot.wait(SETTLE_MS)
    viewport = timeline.findChild(QWidget, "timeline_plot").viewport()
    return timeline, Paints(viewport)


def test_a_new_picture_paints_once(shown, qtbot):
    timeline, paints = shown
    with qtbot.waitSignal(timeline.drawn, timeout=2000):
        timeline.set_view(prepare_trace(long_trace()))
    qtbot.wait(SETTLE_MS)
    assert paints.count == 1


@pytest.mark.parametrize("move", [lambda t: t.zoom_by(2.0), lambda t: t.pan_by(0.1), lambda t: t.reset_view()])
def test_a_zoom_or_pan_paints_once(shown, qtbot, move):
    timeline, paints = shown
    timeline.zoom_by(1.5)  # somewhere a pan and a reset can move to
    qtbot.wait(SETTLE_MS)
    paints.count = 0
    move(timeline)
    qtbot.wait(SETTLE_MS)
    assert paints.count == 1

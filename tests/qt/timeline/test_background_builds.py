"""A zoom draws at once from a coarser level; the finer level is built off the GUI thread and drawn as it lands.

The same for a large lane's hover index: no tooltip until it is built, then the span's.
"""

import numpy as np
import pytest
from qt_traces import meta

from overlapviz._qt.timeline.background_builds import BackgroundBuilds
from overlapviz._qt.timeline.widget import TimelineWidget
from overlapviz._qt.worker import RunController
from overlapviz.app.executor import outcome_of
from overlapviz.core.cancel import CancelToken
from overlapviz.core.trace.lanes import LaneGroup
from overlapviz.core.trace.spans import OpKind, TraceBuilder, Unit
from overlapviz.view import hover_index
from overlapviz.view.prepared import prepare_trace

KERNELS = 20_000
ZOOM = (0.40, 0.40 + 1 / 64)  # the share of the run in view: a window that reads a finer level


class HeldJobs:
    """An executor that runs its jobs only when told (`run`), so that what is drawn before they land can be seen."""

    def __init__(self):
        self.jobs = []

    def submit(self, job, done):
        self.jobs.append((job, done))

    def cancel(self):
        self.jobs.clear()

    def run(self):
        jobs, self.jobs = self.jobs, []
        for job, done in jobs:
            done(outcome_of(job, CancelToken()))


def _varied_trace(n=KERNELS, seed=3):
    """`n` kernels on one stream, 100 ns to 1 ms long (log-uniform), with gaps under a µs."""
    rng = np.random.default_rng(seed)
    widths = np.rint(10 ** rng.uniform(2, 6, n)).astype(np.int64)
    starts = np.cumsum(widths + rng.integers(0, 1_000, n)) - widths
    b = TraceBuilder()
    for chunk, (start, width) in enumerate(zip(starts.tolist(), widths.tolist(), strict=True)):
        b.add(OpKind.KERNEL, Unit.COMPUTE, start, start + width, name="k", stream=0, chunk=chunk, ready_ns=start)
    return b.build(meta(2, 1), origin_ns=0)


@pytest.fixture(scope="module")
def trace():
    return _varied_trace()


def _timeline(qtbot, trace, executor=None):
    timeline = TimelineWidget()
    qtbot.addWidget(timeline)
    timeline.resize(1000, 400)
    timeline.show()
    timeline.build_in_background(executor)
    timeline.set_view(prepare_trace(trace))
    return timeline


def _zoom(timeline):
    start, end = timeline.view.trace["start_ns"].min(), timeline.view.trace["end_ns"].max()
    extent_ms = (end - start) / 1e6
    timeline.set_view_range_ms(ZOOM[0] * extent_ms, ZOOM[1] * extent_ms)


def _shown(timeline):
    """Every span drawn as it is, per layer, and every layer's ink."""
    items = timeline.scene_items.batches.values()
    return [(shown.starts, shown.ends, shown.ink) for item in items for shown in item.shown]


def _levels_missing(timeline):
    return [pair for item in timeline.scene_items.batches.values() for pair in item.missing_levels()]


def _same(shown, expected):
    return len(shown) == len(expected) and all(
        np.array_equal(s0, s1) and np.array_equal(e0, e1) and np.allclose(i0, i1)
        for (s0, e0, i0), (s1, e1, i1) in zip(shown, expected, strict=True)
    )


def test_a_zoom_draws_from_a_coarser_level_until_the_finer_one_lands(qtbot, trace):
    held = HeldJobs()
    timeline, exact = _timeline(qtbot, trace, held), _timeline(qtbot, trace)
    _zoom(timeline)
    _zoom(exact)
    assert _levels_missing(timeline) and held.jobs and timeline.building  # asked of the worker, not built here
    meanwhile, expected = _shown(timeline), _shown(exact)
    drawn, drawn_exactly = (sum(len(starts) for starts, _e, _i in shown) for shown in (meanwhile, expected))
    assert 0 < drawn < drawn_exactly  # the coarser level's spans, the rest as ink
    with qtbot.waitSignal(timeline.background_built, timeout=5_000):
        held.run()
    assert not _levels_missing(timeline) and not timeline.building
    assert _same(_shown(timeline), expected)


def test_the_finer_level_is_built_on_a_thread_and_drawn_when_it_lands(qtbot, trace):
    runner = RunController()
    try:
        timeline, exact = _timeline(qtbot, trace, runner), _timeline(qtbot, trace)
        with qtbot.waitSignal(timeline.background_built, timeout=10_000):
            _zoom(timeline)
        _zoom(exact)
        assert not _levels_missing(timeline)
        assert _same(_shown(timeline), _shown(exact))
    finally:
        runner.shutdown()


def test_a_new_picture_drops_the_builds_asked_for_the_old_one(qtbot, trace):
    held = HeldJobs()
    timeline = _timeline(qtbot, trace, held)
    _zoom(timeline)
    asked_for = _levels_missing(timeline)
    assert held.jobs and asked_for
    timeline.set_view(prepare_trace(trace))
    assert not held.jobs and not timeline.building
    assert all(index not in levels.built for levels, index in asked_for)  # never built


def test_a_large_lane_has_its_tooltip_once_its_index_is_built_off_the_thread(qtbot, trace, monkeypatch):
    monkeypatch.setattr(hover_index, "INDEX_NOW_MAX", KERNELS // 2)
    held, landed = HeldJobs(), []
    builds = BackgroundBuilds(lambda: landed.append(True), held)
    scene = _timeline(qtbot, trace).scene_items
    stream = scene.layout.lanes_of_group(LaneGroup.STREAMS)[0]
    t_ms = float(scene.trace["start_ns"][KERNELS // 2] + 1) / 1e6
    assert scene.view.hover.needs_indexing(stream.lane.key)
    assert scene.describe_at(t_ms, stream.centre, 0.0, builds) is None  # asked of the worker, not indexed here
    assert held.jobs and scene.view.hover.needs_indexing(stream.lane.key)
    held.run()
    assert landed and not scene.view.hover.needs_indexing(stream.lane.key)
    assert "Kernel" in scene.describe_at(t_ms, stream.centre, 0.0, builds)


def test_without_a_worker_a_zoom_and_a_tooltip_build_what_they_need_at_once(qtbot, trace, monkeypatch):
    monkeypatch.setattr(hover_index, "INDEX_NOW_MAX", KERNELS // 2)
    timeline = _timeline(qtbot, trace)
    _zoom(timeline)
    assert not _levels_missing(timeline) and not timeline.building
    scene = timeline.scene_items
    stream = scene.layout.lanes_of_group(LaneGroup.STREAMS)[0]
    t_ms = float(scene.trace["start_ns"][KERNELS // 2] + 1) / 1e6
    assert "Kernel" in scene.describe_at(t_ms, stream.centre, 0.0, BackgroundBuilds(lambda: None))

import pytest
from qt_traces import two_chunk_trace
from teaching_helpers import make_window_fixture, run_and_wait  # noqa: F401 (the make_window fixture)

from overlapviz._qt.teaching.replay import SPEEDS, ReplayController, ReplaySpeed
from overlapviz._qt.themes import THEMES
from overlapviz._qt.timeline.widget import TimelineWidget
from overlapviz.core.config import PipelineConfig
from overlapviz.core.trace.lanes import LaneGroup
from overlapviz.view.palette import KIND_COLOURS, SpanStyle
from overlapviz.view.prepared import prepare_trace

TEN_SECONDS = next(i for i, s in enumerate(SPEEDS) if s.title == "Whole run in 10 s")


@pytest.fixture
def timeline(qtbot):
    widget = TimelineWidget(THEMES["light"])
    qtbot.addWidget(widget)
    widget.resize(1000, 700)
    widget.show()
    qtbot.waitExposed(widget)
    widget.set_explanations(False)
    widget.set_view(prepare_trace(two_chunk_trace()))  # 4 ms
    return widget


@pytest.fixture
def replay(timeline):
    controller = ReplayController(lambda: [timeline])
    controller.set_speed(TEN_SECONDS)
    yield controller
    controller.stop()


def _colour(widget, t_ms, lane):
    return widget.grab().toImage().pixelColor(widget.map_to_widget(t_ms, lane.centre)).name().upper()


def test_speeds_as_a_fraction_of_real_time_or_the_whole_run_in_seconds():
    assert ReplaySpeed("x", factor=1e-4).rate(run_ms=6.0) == 1e-4
    assert ReplaySpeed("y", whole_run_s=10).rate(run_ms=6.0) == pytest.approx(6.0 / 10_000)
    assert {s.factor for s in SPEEDS if s.factor} == {1e-3, 1e-4, 1e-5}


def test_spans_appear_as_the_cursor_passes_their_start_cut_at_it(timeline, replay):
    full = timeline.scene_items.shown_rect_count()
    replay.advance(5_000)  # half of ten seconds: half the run
    assert replay.position_ms == pytest.approx(2.0) and timeline.cursor_ms() == pytest.approx(2.0)
    assert timeline.scene_items.shown_rect_count() < full
    stream0, stream1 = timeline.scene_items.layout.lanes_of_group(LaneGroup.STREAMS)
    assert _colour(timeline, 0.5, stream0) == KIND_COLOURS[SpanStyle.H2D].upper()  # started: drawn
    assert _colour(timeline, 1.9, stream0) == KIND_COLOURS[SpanStyle.KERNEL].upper()  # running: cut at 2 ms
    assert _colour(timeline, 2.5, stream0) == THEMES["light"].band.upper()  # the D2H at 2 ms: cut to nothing yet
    assert _colour(timeline, 3.5, stream1) == THEMES["light"].band.upper()  # starts at 3 ms: not yet


def test_the_replay_ends_at_the_run_end_and_stop_shows_everything(timeline, replay):
    replay.play()
    assert replay.playing
    replay.advance(60_000)
    assert replay.position_ms == pytest.approx(4.0) and not replay.playing
    replay.stop()
    assert replay.position_ms is None and timeline.cursor_ms() is None
    stream1 = timeline.scene_items.layout.lanes_of_group(LaneGroup.STREAMS)[1]
    assert _colour(timeline, 3.5, stream1) == KIND_COLOURS[SpanStyle.D2H].upper()


def test_play_moves_the_cursor_on_a_timer_pause_holds_it_restart_begins_again(timeline, replay, qtbot):
    replay.set_speed(0)  # the whole run in 5 s
    replay.play()
    qtbot.waitUntil(lambda: (replay.position_ms or 0) > 0.05, timeout=3000)
    replay.pause()
    held = replay.position_ms
    qtbot.wait(100)
    assert replay.position_ms == held and not replay.playing
    replay.toggle()
    assert replay.playing
    replay.restart()
    assert replay.playing and replay.position_ms < held


def test_nothing_to_replay_does_nothing(qtbot):
    empty = TimelineWidget()
    qtbot.addWidget(empty)
    controller = ReplayController(lambda: [empty])
    controller.play()
    assert not controller.playing and controller.position_ms is None


def test_replay_in_the_window_plays_both_sides_and_a_new_run_ends_it(make_window, qtbot):
    window = make_window()
    window.teaching.actions.replay_play.trigger()  # nothing on show yet: nothing plays
    assert not window.teaching.replay.playing and not window.teaching.actions.replay_play.isChecked()
    run_and_wait(qtbot, window, PipelineConfig(memory="pageable"))
    window.teaching.compare.pin_current()
    run_and_wait(qtbot, window, PipelineConfig())
    window.teaching.actions.replay_play.trigger()
    replay = window.teaching.replay
    assert replay.playing and window.teaching.actions.replay_play.isChecked()
    replay.advance(1_000)
    a, b = window.compare.timeline_a, window.compare.timeline_b
    assert a.cursor_ms() == b.cursor_ms() == replay.position_ms > 0
    window.teaching.actions.replay_play.trigger()
    assert not replay.playing and not window.teaching.actions.replay_play.isChecked()
    run_and_wait(qtbot, window, PipelineConfig(streams=2))
    assert replay.position_ms is None and b.cursor_ms() is None and a.cursor_ms() is None


def test_a_run_cut_to_a_time_window_replays_from_the_window_start_over_the_window(timeline, replay):
    from overlapviz.core.analysis.time_window import Window, clip_to_window

    timeline.set_view(prepare_trace(clip_to_window(two_chunk_trace(), Window(2_000_000, 4_000_000))))
    assert replay.span_ms() == (2.0, 4.0)
    replay.play()
    assert replay.position_ms == 2.0  # not 0: nothing of the cut run lies before its window
    replay.advance(5_000.0)  # half of "the whole run in 10 s": half of the window's 2 ms
    assert replay.position_ms == pytest.approx(3.0)
    replay.restart()
    assert replay.position_ms == 2.0

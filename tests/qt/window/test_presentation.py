import pytest
from PySide6.QtCore import QEvent, QObject, QPointF, QRectF, Qt, QTimer
from PySide6.QtGui import QColor, QFont, QImage, QPainter
from PySide6.QtWidgets import QApplication
from teaching_helpers import make_window_fixture, run_and_wait  # noqa: F401 (the make_window fixture)

from overlapviz._qt.teaching.presentation import SMALLEST_TEXT_SCALE, TEXT_SCALE, caption_html, headline, text_scale
from overlapviz._qt.themes import THEMES
from overlapviz.app.model import LessonOnShow
from overlapviz.core.config import PipelineConfig
from overlapviz.core.trace.lanes import LaneGroup
from overlapviz.presets import lessons
from overlapviz.session import run_pipeline
from overlapviz.view.layout import HEADER_HEIGHT


def _plot(window):
    plot = window.timeline._plot
    plot.setFocus()
    return plot


def _present_comparison_on_a_full_hd_screen(make_window, qtbot, monkeypatch):
    """A comparison in presentation mode on a 1920 x 1080 screen whose window manager answers late, as X's do."""
    window = make_window()
    window.teaching.compare.pageable_vs_pinned()
    qtbot.waitUntil(window.compare.is_comparing, timeout=10_000)
    monkeypatch.setattr(window, "showFullScreen", lambda: QTimer.singleShot(100, lambda: window.resize(1920, 1080)))
    return window


def _title_rects(timeline):
    """The lane axis's titles as pyqtgraph draws them: text -> rect, in the axis's coordinates."""
    image = QImage(8, 8, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    _axis, _ticks, texts = timeline._lane_axis.generateDrawSpecs(painter)
    painter.end()
    return {text: rect for rect, _flags, text in texts}


def _drawn_font(axis):
    return axis.style["tickFont"] or QFont()


def _rows(timeline):
    """Each title's row (a header or a lane): text -> rect, in the lane axis's coordinates."""
    axis, box, layout = timeline._lane_axis, timeline._view_box, timeline.scene_items.layout

    def y(value):
        return axis.mapFromScene(box.mapViewToScene(QPointF(0, value))).y()

    rows = [(band.title, band.top, band.top + HEADER_HEIGHT) for band in (*layout.groups, *layout.devices)]
    rows += [(placed.lane.title, placed.top, placed.bottom) for placed in layout.lanes]
    return {title: QRectF(0, y(top), axis.width(), y(bottom) - y(top)) for title, top, bottom in rows}


def test_in_a_presented_comparison_every_title_fits_its_row(make_window, qtbot, monkeypatch):
    window = _present_comparison_on_a_full_hd_screen(make_window, qtbot, monkeypatch)
    with qtbot.waitSignal(window.teaching.presentation.settled, timeout=10_000):
        window.teaching.actions.presentation.trigger()
    assert window.size().toTuple() == (1920, 1080)
    for timeline in window.compare.timelines():
        titles, rows = _title_rects(timeline), _rows(timeline)
        assert set(titles) == set(rows) and {"HOST", "Host thread", "STREAMS", "Stream 0"} <= set(titles)
        for title, rect in titles.items():  # no title outside its row: none over another
            assert rows[title].top() <= rect.top() and rect.bottom() <= rows[title].bottom(), title
        assert _drawn_font(timeline._lane_axis).pixelSize() >= 10  # smaller, not gone


def test_a_title_gets_its_full_size_where_its_row_has_room(make_window, qtbot):
    window = make_window()
    run_and_wait(qtbot, window)
    axis = window.timeline._lane_axis
    assert _drawn_font(axis) == QApplication.font()  # a single run in a window of 1000 px: nothing shrinks
    window.timeline.resize(window.timeline.width(), 120)
    qtbot.waitUntil(lambda: _drawn_font(axis).pixelSize() > 0)
    assert axis.natural_width() == window.timeline.lane_axis_width()  # the width is still the full font's


class _PaintLog(QObject):
    """What the timelines' titles and lanes looked like at each paint of the window or a timeline."""

    def __init__(self, window):
        super().__init__(window)
        self.window, self.states = window, []
        for watched in (window, *(timeline._plot.viewport() for timeline in window.compare.timelines())):
            watched.installEventFilter(self)

    def state(self):
        def of(timeline):
            axis = timeline._lane_axis
            return (_drawn_font(axis).toString(), axis.geometry(), timeline._time_axis.geometry(),
                    timeline.scene_items.layout.height, timeline._view_box.viewRange()[1])  # fmt: skip

        return self.window.size(), tuple(of(timeline) for timeline in self.window.compare.timelines())

    def eventFilter(self, watched, event):  # noqa: N802 (Qt's name)
        if event.type() == QEvent.Type.Paint:
            self.states.append(self.state())
        return False


def test_f5_paints_the_presentation_once_it_is_laid_out(make_window, qtbot, monkeypatch):
    window = _present_comparison_on_a_full_hd_screen(make_window, qtbot, monkeypatch)
    qtbot.wait(100)
    log = _PaintLog(window)
    with qtbot.waitSignal(window.teaching.presentation.settled, timeout=10_000):
        window.teaching.actions.presentation.trigger()
    qtbot.waitUntil(lambda: bool(log.states), timeout=5000)
    qtbot.wait(300)  # any later pass of the layout would paint again
    final = log.state()
    assert final[0].toTuple() == (1920, 1080) and log.states
    assert all(state == final for state in log.states)  # nothing half drawn, no title moved after the first paint


def test_a_window_manager_that_never_answers_still_gets_the_window_painted(make_window, qtbot, monkeypatch):
    window = make_window()
    run_and_wait(qtbot, window)
    monkeypatch.setattr(window, "showFullScreen", lambda: None)
    with qtbot.waitSignal(window.teaching.presentation.settled, timeout=5000):
        window.teaching.actions.presentation.trigger()
    assert window.updatesEnabled() and window.teaching.presentation.active
    with qtbot.waitSignal(window.teaching.presentation.settled, timeout=5000):
        window.teaching.presentation.leave()
    assert window.updatesEnabled()


def test_the_presentations_text_takes_the_same_share_of_any_screen():
    assert text_scale(1080) == pytest.approx(TEXT_SCALE)  # a full-HD slide: the scale it is chosen for
    assert text_scale(720) == pytest.approx(TEXT_SCALE * 2 / 3)  # a 720p projector: as large on the wall
    assert text_scale(2160) == pytest.approx(TEXT_SCALE)  # a 4K screen: no larger than on a full-HD one
    assert text_scale(300) == pytest.approx(SMALLEST_TEXT_SCALE)  # never smaller than the desktop's


def test_f5_presents_full_screen_in_the_projector_theme_with_large_type(make_window, qtbot, settings):
    window = make_window()
    run_and_wait(qtbot, window)
    normal_span = window.timeline.scene_items.layout.lanes[0]
    base_size = QApplication.font().pointSizeF()
    with qtbot.waitSignal(window.teaching.presentation.settled, timeout=10_000):  # painted from then on
        window.teaching.actions.presentation.trigger()
    presenting = window.teaching.presentation
    assert presenting.active and window.isFullScreen() and window.teaching.actions.presentation.isChecked()
    assert window.theme_name() == "projector" and settings.value("theme") != "projector"
    assert "#FFFFFF; color: #000000" in QApplication.instance().styleSheet()
    assert QApplication.font().pointSizeF() == pytest.approx(base_size * text_scale(window.height()))
    for panel in (window.controls_column, window.right_column, window.menuBar(), window.statusBar()):
        assert panel.isHidden()
    assert not window.presentation_caption.isHidden()
    assert "Press \u2192" in window.presentation_caption.text() and "Makespan" in window.presentation_caption.text()
    thick = window.timeline.scene_items.layout.lanes[0]
    assert thick.span_bottom - thick.span_top > normal_span.span_bottom - normal_span.span_top  # thicker spans
    qtbot.wait(50)
    streams = window.timeline.scene_items.layout.lanes_of_group(LaneGroup.STREAMS)[0]
    image = window.timeline.grab().toImage()
    end = window.timeline.view_range_ms()[1]
    band = image.pixelColor(window.timeline.map_to_widget(end * 0.999, streams.top + 0.02)).name().upper()
    assert band == QColor(THEMES["projector"].band).name().upper()


def test_arrow_keys_step_through_the_lessons_even_with_the_timeline_focused(make_window, qtbot):
    window = make_window()
    window.teaching.presentation.enter()
    presets = lessons()
    qtbot.keyClick(_plot(window), Qt.Key.Key_Right)
    assert window.teaching.lessons.index == 0
    assert presets[0].title in window.presentation_caption.text()
    qtbot.keyClick(_plot(window), Qt.Key.Key_Right)
    qtbot.keyClick(window, Qt.Key.Key_PageDown)
    assert window.teaching.lessons.index == 2
    qtbot.keyClick(_plot(window), Qt.Key.Key_Left)
    assert window.teaching.lessons.index == 1
    assert f"2/{len(presets)} \u00b7 {presets[1].title}" in window.presentation_caption.text()
    qtbot.waitUntil(lambda: window.shown() is not None and window.compare.is_comparing(), timeout=10_000)


def test_space_plays_the_replay(make_window, qtbot):
    window = make_window()
    run_and_wait(qtbot, window)
    window.teaching.presentation.enter()
    qtbot.keyClick(_plot(window), Qt.Key.Key_Space)
    assert window.teaching.replay.playing
    qtbot.keyClick(_plot(window), Qt.Key.Key_Space)
    assert not window.teaching.replay.playing


def test_esc_leaves_and_puts_everything_back(make_window, qtbot, settings):
    window = make_window()
    run_and_wait(qtbot, window)
    size = QApplication.font().pointSizeF()
    window.teaching.presentation.enter()
    qtbot.keyClick(_plot(window), Qt.Key.Key_Escape)
    presenting = window.teaching.presentation
    assert not presenting.active and not window.isFullScreen()
    assert not window.teaching.actions.presentation.isChecked()
    assert window.theme_name() == "light" and QApplication.font().pointSizeF() == pytest.approx(size)
    for panel in (window.controls_column, window.right_column, window.menuBar(), window.statusBar()):
        assert not panel.isHidden()
    assert window.presentation_caption.isHidden()
    window.teaching.presentation.enter()
    qtbot.keyClick(window, Qt.Key.Key_F5)  # F5 leaves too, with the menus out of sight
    assert not presenting.active and not window.menuBar().isHidden()
    before = window.timeline.view_range_ms()
    window.timeline.zoom_by(4)
    zoomed = window.timeline.view_range_ms()
    qtbot.keyClick(_plot(window), Qt.Key.Key_Right)  # the timeline's own key again: it pans
    assert window.teaching.lessons.index is None and window.timeline.view_range_ms() != zoomed != before


def test_the_caption_names_the_lesson_and_the_keys():
    preset = lessons()[3]
    text = caption_html(LessonOnShow(preset, 3, 16), 16, "Makespan 9.73 ms")
    assert text.startswith(f"<b>4/16 \u00b7 {preset.title}</b>") and "Makespan 9.73 ms" in text and "Esc" in text
    assert "first of 16 lessons" in caption_html(None, 16)
    left = caption_html(LessonOnShow(preset, 3, 16, departed=True), 16, "Makespan 5.93 ms")
    assert left.startswith("<b>Your own settings</b> (changed from lesson 4/16") and preset.text not in left


def test_the_headline_gives_copy_time_hidden_and_efficiency_as_shares():
    pinned, pageable = (run_pipeline(PipelineConfig(memory=m), "sim", "h200").metrics for m in ("pinned", "pageable"))
    assert headline(pinned).replace("\u00a0", " ").startswith(
        "Makespan 5.93 ms  \u00b7  copy time hidden 86 %  \u00b7  efficiency 90 %"
    )
    assert "copy\u00a0time\u00a0hidden\u00a00\u00a0%" in headline(pageable) and "overlap" not in headline(pageable)

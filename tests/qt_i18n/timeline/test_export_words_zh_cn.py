"""Exports in Simplified Chinese on a slide: every word whole, inside the picture and its room, apart from the others.

At 1920 and 3840 px, a single run and a comparison, laid out as the exporters lay them out:
title, captions, deltas and badge, the colour key, the lane titles, time ticks and axis title,
and the callouts' words (`written_words`). Chinese needs a font with its characters and the
window's compiled catalogue; without either the tests say which is missing and skip.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRectF
from PySide6.QtGui import QImage

from overlapviz._qt.export.comparison_view import ComparisonPicture
from overlapviz._qt.export.export_view import ExportOptions
from overlapviz._qt.export.image_export import canvas, picture_view, render_image
from overlapviz._qt.timeline.axes import TIME_LABEL
from overlapviz._qt.timeline.callout_item import ELLIPSIS
from overlapviz._qt.timeline.widget import TimelineWidget
from overlapviz._qt.translation import translate
from overlapviz.core.config import PipelineConfig
from overlapviz.core.i18n.text_width import display_width
from overlapviz.session import run_pipeline
from overlapviz.view.prepared import prepare_view
from tests.qt_i18n.timeline.written_words import cut, lane_titles, overlapping, written_words

SLIDES = [(1920, 1080), (3840, 2160)]


def _chinese(text: str) -> bool:
    return any(display_width(char) == 2 for char in text)


def _run(config: PipelineConfig):
    return prepare_view(run_pipeline(config, "sim", "h200"))


def _check_words(subject, options: ExportOptions, sides: int) -> None:
    """Lay `subject` out and paint it as its export would; every word whole, inside the slide and its room, apart."""
    with picture_view(subject, options) as view:
        view.fill()
        view.lay_out()
        image = QImage(view.size() * options.scale, QImage.Format.Format_ARGB32_Premultiplied)
        image.setDevicePixelRatio(options.scale)
        view.render(image)  # the callouts place their words as they paint
        words = written_words(view)
        timelines = view.findChildren(TimelineWidget)
        assert len(timelines) == sides
        parts = {word.part for word in words}
        assert parts >= {"label", "legend", "lane title", "time tick", "axis title", "callout"}, parts
        titles = [word.text for word in words if word.part == "axis title"]
        assert titles == [translate("TimeAxis", TIME_LABEL)] * sides and _chinese(titles[0])
        assert any(word.part == "label" and _chinese(word.text) for word in words)  # the caption
        assert all(_chinese(word.text) for word in words if word.part == "callout")  # the findings
        assert [word.text for word in words if word.text.endswith(ELLIPSIS)] == []  # none cut short
        for timeline in timelines:  # none dropped for want of room: pyqtgraph skips a title wider than its axis
            assert _scene_titles(timeline) == sorted(lane_titles(timeline))
        where = canvas(view.size(), options)
        slide = QRectF(0, 0, where.size.width(), where.size.height())
        on_slide = where.placement.mapRect(QRectF(view.rect()))
        assert slide.adjusted(-0.5, -0.5, 0.5, 0.5).contains(on_slide)  # the picture, scaled, inside the slide
        assert cut(words, QRectF(view.rect())) == []
        assert overlapping(words) == []
    image = render_image(subject, options)
    assert (image.width(), image.height()) == (options.width, options.height)


def _scene_titles(timeline: TimelineWidget) -> list[str]:
    """The titles the timeline's layout gives its lanes, its groups and its GPUs."""
    scene = timeline.scene_items
    assert scene is not None
    layout = scene.layout
    groups = [band.title for band in layout.groups] + [device.title for device in layout.devices]
    return sorted(groups + [placed.lane.title for placed in layout.lanes])


@pytest.mark.parametrize(("width", "height"), SLIDES)
def test_one_run_on_a_slide_writes_every_chinese_word_whole_and_apart(zh_cn_font, width, height):
    view = _run(PipelineConfig(memory="pageable", streams=4))  # findings over its copies: callouts
    _check_words(view, ExportOptions(width=width, height=height), sides=1)


@pytest.mark.parametrize(("width", "height"), SLIDES)
def test_a_comparison_on_a_slide_writes_every_chinese_word_whole_and_apart(zh_cn_font, width, height):
    views = (_run(PipelineConfig(memory="pageable")), _run(PipelineConfig(memory="pinned", streams=8)))
    picture = ComparisonPicture(views, ("可分页", "页锁定"), "可分页与页锁定内存")
    _check_words(picture, ExportOptions(width=width, height=height), sides=2)

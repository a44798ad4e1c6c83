"""Chinese words in the timeline's own drawing: cut short where a line may break, given the height their font needs.

A Chinese sentence has no spaces: cut only at spaces it would lose all its words at once. Its
characters come from a fallback font whose line is taller than the Latin font's, so a box as
tall as the font's own line would cut them (`text_extent`).
"""

from __future__ import annotations

import math

import pytest
from PySide6.QtGui import QFont, QFontDatabase, QFontInfo, QFontMetricsF

from overlapviz._qt.timeline.axes import fitted_font
from overlapviz._qt.timeline.callout_item import ELLIPSIS, cut_points, elide_at_words
from overlapviz._qt.timeline.text_extent import ink_height, line_height, tallest, text_size
from overlapviz._qt.widgets.legend import LegendBar
from overlapviz.core.i18n.text_width import display_width
from overlapviz.view.palette import LEGEND, LegendEntry

SENTENCE = "15 个 H2D 拷贝共排队 18.9 ms：H2D 拷贝引擎一次只运行一个拷贝，其余的在队列中等待"
ENGLISH = "15 H2D copies queued 18.9 ms in all: the H2D engine runs one copy at a time"
CHINESE_KEY = ("H2D 拷贝", "内核", "D2H 拷贝", "主机 API 调用", "主机阻塞", "等待（就绪 → 开始）")


@pytest.fixture
def cjk_font(qapp) -> QFont:
    """A 20-pixel font of the application's family; its Chinese characters from a fallback font."""
    if not QFontDatabase.families(QFontDatabase.WritingSystem.SimplifiedChinese):
        pytest.skip("no font with Chinese characters here (install fonts-noto-cjk)")
    font = QFont()
    font.setPixelSize(20)
    return font


def _wide(char: str) -> bool:
    return display_width(char) == 2


def test_a_chinese_sentence_may_be_cut_between_characters_never_inside_a_number_or_a_latin_word(qapp):
    points = cut_points(SENTENCE)
    assert points and all(SENTENCE[p - 1].isspace() or _wide(SENTENCE[p - 1]) or _wide(SENTENCE[p]) for p in points)
    numbers_and_words = ["15", "H2D", "18.9", "ms"]
    for token in numbers_and_words:
        start = SENTENCE.index(token)
        assert not any(start < p < start + len(token) for p in points), token
    assert sum(_wide(SENTENCE[p - 1]) and _wide(SENTENCE[p]) for p in points) >= 10  # between characters


def test_an_english_sentence_is_still_cut_only_after_its_spaces(qapp):
    assert cut_points(ENGLISH) == [index + 1 for index, char in enumerate(ENGLISH) if char == " "]


def test_a_chinese_callout_too_long_for_its_room_keeps_as_many_characters_as_fit(qapp):
    metrics = QFontMetricsF(QFont())
    room = metrics.horizontalAdvance(SENTENCE) * 0.6
    shown = elide_at_words(SENTENCE, metrics, room)
    assert shown.endswith(ELLIPSIS) and SENTENCE.startswith(shown[: -len(ELLIPSIS)])
    assert metrics.horizontalAdvance(shown) <= room
    assert len(shown) > len(SENTENCE) / 3  # cut between characters, not back to its first number


def test_a_line_of_chinese_is_measured_on_the_characters_not_the_latin_font(cjk_font):
    latin, chinese = text_size(cjk_font, "H2D copy"), text_size(cjk_font, CHINESE_KEY[3])
    assert line_height(cjk_font) == QFontMetricsF(cjk_font).height()
    assert line_height(cjk_font, CHINESE_KEY) >= max(latin.height(), chinese.height())
    assert tallest(cjk_font, ["H2D copy", CHINESE_KEY[3]]) == max(
        ["H2D copy", CHINESE_KEY[3]], key=lambda text: text_size(cjk_font, text).height()
    )


def test_lane_titles_in_chinese_are_fitted_to_their_letters_as_english_ones_are(cjk_font):
    chinese, english = "流 7 · 内核", "Stream 7 · Kernel"
    row_px = math.floor(ink_height(cjk_font, [chinese])) - 1  # a row a pixel lower than the letters need
    fitted = fitted_font(cjk_font, row_px, [chinese])
    assert ink_height(fitted, [chinese]) <= row_px < ink_height(cjk_font, [chinese])
    # the fallback font's taller line (blank leading) costs the Chinese title nothing against the English one
    sizes = [QFontInfo(fitted_font(cjk_font, row_px, [title])).pixelSize() for title in (chinese, english)]
    assert sizes[0] >= sizes[1]
    assert ink_height(cjk_font, [chinese]) < line_height(cjk_font, [chinese])  # the leading that is left out


@pytest.mark.parametrize("width", [2000, 500, 260])
def test_a_chinese_colour_key_gives_each_label_the_room_its_characters_need(qtbot, cjk_font, width):
    legend = LegendBar(entries=tuple(LegendEntry(label, entry.colour, entry.waiting)
                                     for label, entry in zip(CHINESE_KEY, LEGEND, strict=True)))  # fmt: skip
    qtbot.addWidget(legend)
    legend.setFont(cjk_font)
    legend.resize(width, legend.heightForWidth(width))
    placed = legend.placed()
    assert [p.text for p in placed] == list(CHINESE_KEY)  # wide or wrapped, every label whole
    for entry in placed:
        needed = text_size(cjk_font, entry.text)
        box = entry.label_box
        assert box.width() >= needed.width() and box.height() >= needed.height(), entry.text
        assert legend.rect().contains(box), entry.text
    for index, entry in enumerate(placed):
        assert not any(entry.label_box.intersects(other.label_box) for other in placed[index + 1 :])

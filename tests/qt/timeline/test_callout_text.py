"""Callout words from the back of a hall: at least the legend's size, growing with Ctrl+plus, never overlapping."""

from PySide6.QtCore import QPoint, QRect, QRectF
from PySide6.QtGui import QFont, QFontInfo, QFontMetricsF, QImage
from PySide6.QtWidgets import QApplication, QToolTip
from teaching_helpers import make_window_fixture, run_and_wait  # noqa: F401 (the make_window fixture)

from overlapviz._qt.timeline.callout_item import ELLIPSIS, elide_at_words
from overlapviz._qt.widgets.font_scale import FontScale
from overlapviz.core.config import PipelineConfig

TWO_CALLOUTS = PipelineConfig(streams=8, order="breadth")  # a copy-queue callout over each copy engine
DARK = 110  # grey level below which a pixel is ink (black on white in the projector theme)


def _present_at_1080p(make_window, qtbot, config=TWO_CALLOUTS):
    window = make_window()
    run_and_wait(qtbot, window, config)
    window.teaching.presentation.enter()
    qtbot.waitUntil(lambda: window.size() == window.screen().geometry().size(), timeout=5000)  # full screen
    window.setGeometry(0, 0, 1920, 1080)  # the offscreen screen is smaller than a projector's
    qtbot.waitUntil(lambda: window.timeline.width() > 1800, timeout=5000)
    return window


def _widget_rect(timeline, box: QRectF) -> QRect:
    top_left = timeline.map_to_widget(box.left(), box.top())
    bottom_right = timeline.map_to_widget(box.right(), box.bottom())
    return QRect(top_left, bottom_right).normalized()


def _drawn(window, qtbot):
    """The grabbed timeline and each callout's words as painted there (widget pixels)."""
    qtbot.wait(50)  # the rows are fitted to the plot once it has settled
    image = window.timeline.grab().toImage()
    item = window.timeline.scene_items.callout_item
    boxes = [(_widget_rect(window.timeline, box), callout) for box, callout in item.drawn_words]
    assert len(boxes) == len(item.callouts) >= 2
    return image, boxes


def _ink_height(image: QImage, rect: QRect) -> int:
    """Rows of `rect` from the highest to the lowest with dark pixels: how tall the letters are."""
    rect = rect.intersected(image.rect())
    xs = range(rect.left(), rect.right() + 1)
    ys = range(rect.top(), rect.bottom() + 1)
    inked = [y for y in ys if any(image.pixelColor(x, y).lightness() < DARK for x in xs)]
    return inked[-1] - inked[0] + 1 if inked else 0


def _legend_ink_height(window) -> int:
    """How tall the letters of the legend's first label are, swatch left out."""
    legend = window.legend
    image = legend.grab().toImage()
    height = legend.fontMetrics().height()
    label = legend.fontMetrics().horizontalAdvance("H2D copy")
    left = int(height * 2.0) + 2  # past the swatch (coloured, not dark) and its gap
    return _ink_height(image, QRect(left, 0, label, legend.height()))


def test_callout_words_are_at_least_the_legends_size_when_presenting(make_window, qtbot):
    window = _present_at_1080p(make_window, qtbot)
    item = window.timeline.scene_items.callout_item
    legend_px = QFontInfo(window.legend.font()).pixelSize()
    assert legend_px >= 20  # presentation type
    assert QFontInfo(item.font).pixelSize() >= legend_px
    image, boxes = _drawn(window, qtbot)
    legend_ink = _legend_ink_height(window)
    assert legend_ink >= 0.6 * legend_px
    for rect, callout in boxes:
        assert _ink_height(image, rect) >= legend_ink - 1, callout.text  # drawn, and not drawn smaller


def test_callout_words_grow_with_ctrl_plus_and_shrink_back_with_ctrl_0(make_window, qtbot):
    window = _present_at_1080p(make_window, qtbot)
    item = window.timeline.scene_items.callout_item
    sizes, inks = [], []
    for step in range(3):
        if step:
            window.window_actions.bigger_text.trigger()
        image, boxes = _drawn(window, qtbot)
        sizes.append(QFontInfo(window.timeline.scene_items.callout_item.font).pixelSize())
        inks.append(min(_ink_height(image, rect) for rect, _callout in boxes))
        assert sizes[-1] >= QFontInfo(window.legend.font()).pixelSize()
    assert sizes[0] < sizes[1] < sizes[2] and inks[0] < inks[1] < inks[2]
    window.window_actions.normal_text.trigger()
    assert QFontInfo(window.timeline.scene_items.callout_item.font).pixelSize() < sizes[0]
    assert item is window.timeline.scene_items.callout_item  # the rows moved; nothing was rebuilt


def test_callouts_stay_inside_the_plot_off_the_spans_and_off_each_other(make_window, qtbot):
    window = make_window()
    run_and_wait(qtbot, window, TWO_CALLOUTS)
    window.resize(1000, 800)  # a window so narrow that a line of the words cannot fit
    timeline = window.timeline
    qtbot.waitUntil(lambda: timeline.width() < 700, timeout=5000)
    item = timeline.scene_items.callout_item
    _image, boxes = _drawn(window, qtbot)
    full_width = QFontMetricsF(item.font).horizontalAdvance(boxes[0][1].text)
    assert boxes[0][0].width() < full_width  # cut short ...
    box, callout = item.drawn_words[0]
    assert timeline.scene_items.describe_at(box.center().x(), box.center().y()) == callout.text  # ... whole here
    for rect, _callout in boxes:
        assert QRect(QPoint(0, 0), timeline.size()).contains(rect)


def test_elide_at_words_keeps_whole_words_only():
    font = QFont()
    font.setPixelSize(20)
    metrics = QFontMetricsF(font)
    text = "15 H2D copies queued 18.9 ms in all: the H2D engine runs one copy at a time"
    assert elide_at_words(text, metrics, 10_000) == text
    cut = elide_at_words(text, metrics, metrics.horizontalAdvance("15 H2D copies queued 18.9 ms in" + ELLIPSIS))
    assert cut == "15 H2D copies queued 18.9 ms in" + ELLIPSIS  # "all:" left out whole, its colon too
    assert elide_at_words(text, metrics, metrics.horizontalAdvance("1")) == ""


def test_tooltips_follow_the_text_size_even_when_the_platform_gives_them_their_own_font(qapp, qtbot):
    tip_font = QToolTip.font()
    small = QFont(QApplication.font())
    small.setPixelSize(11)
    QToolTip.setFont(small)  # as a desktop's platform theme does: a font for tooltips alone
    fonts = FontScale(qapp)
    try:
        fonts.set_scale(1.8)
        assert QFontInfo(QToolTip.font()).pixelSize() == round(11 * 1.8)
        anchor = window_for_tooltips(qtbot)
        QToolTip.showText(anchor.mapToGlobal(QPoint(5, 5)), "a span", anchor)
        label = next(w for w in QApplication.topLevelWidgets() if w.metaObject().className() == "QTipLabel")
        assert QFontInfo(label.font()).pixelSize() == round(11 * 1.8)
    finally:
        QToolTip.hideText()
        fonts.reset()
        QToolTip.setFont(tip_font)
    assert QFontInfo(QToolTip.font()).pixelSize() == QFontInfo(tip_font).pixelSize()


def window_for_tooltips(qtbot):
    from PySide6.QtWidgets import QWidget

    widget = QWidget()
    qtbot.addWidget(widget)
    widget.show()
    return widget

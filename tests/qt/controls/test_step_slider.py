from PySide6.QtCore import Qt

from overlapviz._qt.widgets.step_slider import StepSlider


def _slider(qtbot, values=(1, 2, 4, 8, 16)):
    slider = StepSlider()
    qtbot.addWidget(slider)
    slider.configure(values, lambda v: f"{v} x")
    return slider


def test_label_shows_the_value_not_the_position(qtbot):
    slider = _slider(qtbot)
    assert slider.set_value(4) == 4
    assert slider.value() == 4 and slider.value_text() == "4 x"


def test_values_not_offered_snap_to_the_nearest(qtbot):
    slider = _slider(qtbot)
    assert slider.set_value(11) == 8
    assert slider.set_value(13) == 16
    assert slider.set_value(1000) == 16


def test_a_key_step_changes_and_commits(qtbot):
    slider = _slider(qtbot)
    slider.set_value(2)
    slider.show()
    changed, committed = [], []
    slider.value_changed.connect(changed.append)
    slider.value_committed.connect(committed.append)
    qtbot.keyClick(slider._slider._slider, Qt.Key.Key_Right)
    assert slider.value() == 4
    assert changed == [4] and committed == [4]


def test_set_value_emits_nothing(qtbot):
    slider = _slider(qtbot)
    with qtbot.assertNotEmitted(slider.value_changed), qtbot.assertNotEmitted(slider.value_committed):
        slider.set_value(16)


def test_reconfiguring_keeps_the_nearest_value(qtbot):
    slider = _slider(qtbot)
    slider.set_value(8)
    slider.configure((1, 3, 9, 27))
    assert slider.value() == 9


def test_detail_line_hides_when_empty(qtbot):
    slider = _slider(qtbot)
    slider.show()
    slider.set_detail("about 1 ms")
    assert slider._detail_label.isVisible()
    slider.set_detail("")
    assert not slider._detail_label.isVisible()

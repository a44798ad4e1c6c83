import pytest
from teaching_helpers import (
    C1060,
    H200,
    ONE_ENGINE,
    REAL_GPU,
    SIM_TARGETS,
    config_of,
    make_window_fixture,  # noqa: F401 (the make_window fixture)
)

from overlapviz._qt.teaching.lesson_panel import LessonPanel
from overlapviz.app.lesson_plan import LessonUnavailableError, plan_lesson
from overlapviz.app.model import LessonOnShow
from overlapviz.presets import get_preset, lessons

# --- where a lesson runs -----------------------------------------------------------------------


def test_a_lesson_naming_no_device_runs_where_auto_would():
    plan = plan_lesson(get_preset("overlap-pinned-vs-pageable"), [REAL_GPU, *SIM_TARGETS], REAL_GPU)
    assert [side.target for side in plan.sides] == [REAL_GPU, REAL_GPU]
    assert [side.label for side in plan.sides] == ["pageable", "pinned"]
    assert plan.note == ""


def test_a_lesson_on_a_model_says_so_when_a_real_gpu_is_here():
    plan = plan_lesson(get_preset("copy-engines-both-ways"), [REAL_GPU, *SIM_TARGETS], REAL_GPU)
    assert [side.target for side in plan.sides] == [H200, ONE_ENGINE]
    assert plan.note.startswith("Simulated: this lesson runs on the model")
    assert "NVIDIA H200 (real GPU, cupy)" in plan.note


def test_without_a_real_gpu_a_model_lesson_needs_no_note():
    plan = plan_lesson(get_preset("order-c1060"), SIM_TARGETS, H200)
    assert {side.target for side in plan.sides} == {C1060} and plan.note == ""


def test_a_device_that_is_not_here_is_said_in_words():
    with pytest.raises(LessonUnavailableError, match="'tesla-c1060', which is not available here"):
        plan_lesson(get_preset("order-c1060"), [H200], H200)


# --- the panel -----------------------------------------------------------------------------------


def test_the_panel_shows_the_lesson_and_where_it_is(qtbot):
    panel = LessonPanel()
    qtbot.addWidget(panel)
    assert panel.isHidden()
    first = lessons()[0]
    panel.show_lesson(LessonOnShow(first, 0, 16, "a note"))
    assert not panel.isHidden() and panel.position.text() == "Lesson 1 of 16"
    assert first.title in panel.title.text() and panel.text.text() == first.text
    assert not panel.previous_button.isEnabled() and panel.next_button.isEnabled()
    assert panel.departed.isHidden()
    panel.show_lesson(LessonOnShow(first, 15, 16))
    assert panel.note.isHidden() and not panel.next_button.isEnabled()
    panel.show_lesson(LessonOnShow(first, 15, 16, departed=True))
    assert not panel.departed.isHidden() and "your own run" in panel.departed.text()
    panel.show_lesson(None)
    assert panel.isHidden()


# --- every lesson from the menu ------------------------------------------------------------------


def test_every_lesson_runs_from_the_lessons_menu(make_window, qtbot):
    window = make_window()
    actions = window.teaching.actions.lessons
    presets = lessons()
    assert [a.text().split(". ", 1)[1] for a in actions] == [p.title for p in presets]
    for action, preset in zip(actions, presets, strict=True):
        action.trigger()
        assert window.teaching.lessons.current() == preset
        assert window.lesson_panel.title.text() == f"<b>{preset.title}</b>"
        if preset.name == "pin-too-much":
            qtbot.waitUntil(lambda: window.banner.message() != "", timeout=10_000)
            assert "refusing to pin 64 GiB" in window.banner.message()
            assert window.shown() is None and not window.compare.is_comparing()
            continue
        qtbot.waitUntil(lambda: window.shown() is not None, timeout=10_000)
        b_config = config_of(window.shown().result)
        assert b_config == preset.configs[-1], preset.name
        assert window.shown().result.trace.meta.device == (preset.devices[-1] or "h200")
        assert window.compare.is_comparing() == preset.is_comparison, preset.name
        if preset.is_comparison:
            a = window.compare.side_a()
            assert config_of(a.result) == preset.configs[0] and a.label == preset.labels[0]
            assert window.compare.caption_b.text().startswith(f"B \u00b7 {preset.labels[1]}: ")
            assert window.current_picture().title == f"{preset.lesson}. {preset.title}"
        assert window.controls.config() == preset.configs[-1]


def test_next_and_previous_step_through_the_lessons(make_window, qtbot):
    window = make_window()
    lessons_ = window.teaching.lessons
    assert lessons_.next() and lessons_.index == 0
    window.lesson_panel.next_button.click()
    assert lessons_.index == 1
    window.teaching.actions.previous_lesson.trigger()
    assert lessons_.index == 0
    assert not lessons_.previous() and lessons_.index == 0  # there is none before the first
    assert not lessons_.start(99)


def test_a_model_lesson_on_a_machine_with_a_gpu_carries_a_note(make_window, qtbot, monkeypatch):
    monkeypatch.setattr("overlapviz._qt.main_window.default_target", lambda targets: REAL_GPU)
    window = make_window(targets=[REAL_GPU, *SIM_TARGETS])
    index = next(i for i, p in enumerate(lessons()) if p.name == "order-k20c")
    window.teaching.lessons.start(index)
    assert not window.lesson_panel.note.isHidden()
    assert "Tesla K20c" in window.lesson_panel.note.text()
    assert window.lesson_panel.note.text().startswith("Simulated:")
    qtbot.waitUntil(lambda: window.shown() is not None, timeout=10_000)


def test_a_lesson_whose_device_is_missing_is_refused_in_words(make_window):
    window = make_window(targets=[H200])
    index = next(i for i, p in enumerate(lessons()) if p.name == "order-c1060")
    assert not window.teaching.lessons.start(index)
    assert "not available here" in window.banner.message()
    assert window.teaching.lessons.current() is None

"""Lessons, exercises and the glossary shown in zh_CN, and in English exactly as their sources write them."""

import re
import tomllib

from overlapviz.app.glossary import GLOSSARY, glossary_in_language
from overlapviz.core.findings.registry import RULES
from overlapviz.core.i18n import set_language
from overlapviz.exercises import exercises_folder, get_exercise
from overlapviz.presets import get_preset, presets_folder

HAN = re.compile(r"[\u4e00-\u9fff]")


def paragraph(text: str) -> str:
    return " ".join(text.split())


def test_a_lesson_loads_in_chinese():
    set_language("zh_CN")
    lesson = get_preset("copy-pinned-vs-pageable")
    assert all(HAN.search(text) for text in (lesson.title, lesson.text, *lesson.labels))
    assert "cudaMemcpyAsync" in lesson.text  # API names stay as CUDA spells them


def test_an_exercise_loads_in_chinese():
    set_language("zh_CN")
    exercise = get_exercise("alloc-cost")
    words = (exercise.title, exercise.question, exercise.explanation, *exercise.hints)
    assert all(HAN.search(text) for text in words)
    assert all(HAN.search(choice.text) for choice in exercise.choices)
    assert [choice.key for choice in exercise.choices] == ["malloc", "cudaMallocHost"]  # the keys graded stay


def test_an_exercise_setup_carries_its_lesson_labels_in_chinese():
    set_language("zh_CN")
    setup = get_exercise("overlap-which-first").setup
    assert setup is not None and all(HAN.search(label) for label in setup.labels)


def test_the_glossary_is_shown_in_chinese_its_finding_codes_as_they_are():
    set_language("zh_CN")
    shown = glossary_in_language()
    codes = {rule.code for rule in RULES}
    assert len(shown) == len(GLOSSARY)
    for entry, english in zip(shown, GLOSSARY, strict=True):
        assert HAN.search(entry.meaning) and HAN.search(entry.where), english.term
        if english.term in codes:
            assert entry.term == english.term
        else:
            assert HAN.search(entry.term), english.term


def test_in_english_the_content_is_its_source_text():
    set_language("en")
    source = tomllib.loads((presets_folder() / "copy-pinned-vs-pageable.toml").read_text(encoding="utf-8"))
    lesson = get_preset("copy-pinned-vs-pageable")
    assert (lesson.title, lesson.text) == (source["title"], paragraph(source["text"]))
    quiz = tomllib.loads((exercises_folder() / "alloc-cost.toml").read_text(encoding="utf-8"))
    assert get_exercise("alloc-cost").question == paragraph(quiz["question"])
    assert glossary_in_language() == GLOSSARY

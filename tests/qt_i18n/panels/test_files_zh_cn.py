"""What the file dialogs offer and why a file could not be read, in zh_CN."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from overlapviz._qt.files.child_process import ChildStoppedError
from overlapviz._qt.files.path_dialogs import CSV_FILTER, JSON_FILTER, OPEN_FILTER, PNG_FILTER, SVG_FILTER, shown_filter
from overlapviz._qt.files.problem_words import problem_words
from tests.qt_i18n.chinese import chinese

pytestmark = pytest.mark.usefixtures("zh_cn")
PATTERNS = re.compile(r" \(([^()]+)\)$")  # how Qt finds a filter entry's patterns: in ASCII brackets, at the end


@pytest.mark.parametrize("filters", [OPEN_FILTER, JSON_FILTER, PNG_FILTER, SVG_FILTER, CSV_FILTER])
def test_each_filter_entry_is_chinese_and_keeps_its_patterns(filters: str) -> None:
    english, shown = filters.split(";;"), shown_filter(filters).split(";;")
    assert len(shown) == len(english)
    for source, entry in zip(english, shown, strict=True):
        patterns = PATTERNS.search(entry)
        assert chinese(entry) and patterns is not None, entry
        assert patterns[1] == PATTERNS.search(source)[1]  # type: ignore[index]


def test_a_child_process_that_stopped_is_told_in_chinese() -> None:
    part_way = ChildStoppedError("the process doing it stopped part way through", None)
    killed = ChildStoppedError("the process doing it stopped without an answer (exit code -9)", -9)
    for error in (part_way, killed):
        said = problem_words(error, Path("trace.json"))
        assert chinese(said) and said != str(error)
    assert "-9" in problem_words(killed, None)


def test_an_unexpected_error_is_told_in_chinese_by_its_type() -> None:
    said = problem_words(KeyError("spans"), Path("trace.json"))
    assert chinese(said) and "KeyError" in said

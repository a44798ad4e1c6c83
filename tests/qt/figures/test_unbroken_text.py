"""Wrapped text that reads whole: no number apart from its unit, no title over three lines, no note cut off."""

import pytest
from PySide6.QtGui import QFont, QTextDocument, QTextLayout
from teaching_helpers import make_window_fixture, run_and_wait  # noqa: F401 (the make_window fixture)

from overlapviz._qt.widgets.elided_label import ElidedLabel
from overlapviz.core.config import HostMemory, PipelineConfig
from overlapviz.session import run_pipeline
from overlapviz.view.deltas import CHANGE_TITLE, NAME_LIMIT, delta_html, delta_names_tooltip, delta_rows
from overlapviz.view.unit_text import as_read, elide_middle, unbreakable

LONG_NAME = "A \u00b7 test-cuda-2026.1-pageable-legacy-default-stream.sqlite.gz"


def laid_out_lines(text: str, width: float) -> list[str]:
    """`text` broken into lines of `width` pixels, as a wrapping label breaks it."""
    layout = QTextLayout(text, QFont())
    layout.beginLayout()
    lines = []
    while (line := layout.createLine()).isValid():
        line.setLineWidth(width)
        lines.append(text[line.textStart() : line.textStart() + line.textLength()])
    layout.endLayout()
    return lines


def cell_lines(html: str, width: float) -> dict[str, int]:
    """Each table cell's text and the lines it takes in a table `width` pixels wide."""
    document = QTextDocument()
    document.setHtml(html)
    document.setTextWidth(width)
    document.documentLayout().documentSize()  # lays the table out
    block, lines = document.begin(), {}
    while block.isValid():
        lines[block.text().replace("\u00a0", " ")] = block.layout().lineCount()
        block = block.next()
    return lines


def test_units_join_their_numbers_and_read_back_as_written():
    text = "+35.8 GB/s, 87 % of 5.93 ms in 4 streams, 4 MiB, 512 ns"
    joined = unbreakable(text)
    assert "35.8\u00a0GB/\u2060s" in joined and "87\u00a0%" in joined and "5.93\u00a0ms" in joined
    assert "4 streams" in joined and "4\u00a0MiB" in joined and "512\u00a0ns" in joined  # "streams" is no unit
    assert as_read(joined) == text


def test_a_long_name_is_cut_in_its_middle_to_its_limit():
    name = "test-cuda-2026.1-pinned-streams.sqlite.gz"
    assert elide_middle(name, 24) == "test-cuda-20\u2026s.sqlite.gz" and len(elide_middle(name, 24)) == 24
    assert elide_middle(name, len(name)) == name


@pytest.mark.parametrize("width", [40, 50, 60, 70, 80])
def test_a_rate_never_breaks_from_its_number_nor_inside_its_unit(qapp, width):
    lines = laid_out_lines(unbreakable("+35.8 GB/s, \u00d71.5 and 5.93 ms"), width)
    assert not any(line.rstrip().endswith(("GB/", "35.8", "5.93")) for line in lines), lines
    assert all(line.startswith(("+", "\u00d7", "and", "5.93")) for line in lines), lines


def test_the_compare_table_keeps_titles_and_names_on_one_line(qapp):
    a, b = (run_pipeline(PipelineConfig(memory=m), "sim", "h200") for m in (HostMemory.PAGEABLE, HostMemory.PINNED))
    names = (LONG_NAME, "B \u00b7 pinned")
    html = delta_html(delta_rows(a.metrics, b.metrics), names, NAME_LIMIT)
    lines = cell_lines(html, 300)  # far narrower than the table: every cell that may wrap does
    titles = [CHANGE_TITLE, "Copy time hidden", "Engines busy together", "H2D bandwidth", "B \u00b7 pinned"]
    assert {title: lines[title] for title in titles} == dict.fromkeys(titles, 1)
    [cut] = [text for text in lines if text.startswith("A \u00b7 ")]
    assert lines[cut] == 1 and "\u2026" in cut and cut.endswith(".sqlite.gz") and len(cut) < len(LONG_NAME)
    assert delta_names_tooltip(names) == f"{LONG_NAME}\nB \u00b7 pinned"  # the names whole, on hover
    assert delta_names_tooltip(("A \u00b7 pageable", "B \u00b7 pinned")) == ""


def test_a_long_status_line_is_cut_with_an_ellipsis_and_whole_in_its_tooltip(qtbot):
    label = ElidedLabel()
    qtbot.addWidget(label)
    label.resize(200, 20)
    label.show()
    note = "Real pageable times vary with the host's memory system: this pipeline measured 48.0-84.9 ms on H200 hosts"
    label.setText(note)
    assert label.text() == note and label.toolTip() == note
    assert label.shown_text().endswith("\u2026") and len(label.shown_text()) < len(note)
    label.resize(2000, 20)
    assert label.shown_text() == note and label.toolTip() == ""


def test_the_pageable_note_is_whole_below_the_findings(make_window, qtbot):
    window = make_window()
    result = run_and_wait(qtbot, window, PipelineConfig(memory=HostMemory.PAGEABLE))
    note = result.trace.meta.caveat
    assert note and note in window.status_label.text()
    assert window.metrics.finding_texts()[-1] == f"Note: {note}"

"""Captions wrap between values, never inside one ("copy time hidden 50 %" stays on one line)."""

import pytest
from PySide6.QtGui import QFont, QTextLayout, QTextOption
from qt_traces import two_chunk_trace

from overlapviz._qt.export.caption import LIST_SEPARATOR, SEPARATOR, caption_text, join_values
from overlapviz._qt.export.comparison_view import ComparisonPicture
from overlapviz._qt.export.export_view import ExportOptions, export_fonts
from overlapviz._qt.export.image_export import picture_view
from overlapviz._qt.teaching.presentation import headline
from overlapviz.core.analysis.metrics import compute_metrics
from overlapviz.core.config import PipelineConfig
from overlapviz.session import run_pipeline
from overlapviz.view.prepared import prepare_trace, prepare_view


def _line_starts(text: str, font: QFont, width: float) -> list[int]:
    """Where each line after the first begins when `text` is word-wrapped at `width` pixels, as a label does."""
    layout = QTextLayout(text, font)
    option = QTextOption()
    option.setWrapMode(QTextOption.WrapMode.WordWrap)
    layout.setTextOption(option)
    layout.beginLayout()
    starts = []
    while (line := layout.createLine()).isValid():
        line.setLineWidth(width)
        starts.append(line.textStart())
    layout.endLayout()
    return starts[1:]


def _breaks_inside_values(text: str, font: QFont, width: float) -> list[str]:
    starts = _line_starts(text, font, width)
    assert starts, "the text fits on one line: nothing to test at this width"
    return [text[:start][-12:] + " | " + text[start:][:12] for start in starts
            if not text[:start].endswith((SEPARATOR, LIST_SEPARATOR))]  # fmt: skip


def test_the_values_have_no_breakable_space_inside():
    text = join_values(["256 MiB, 4 streams x 16 chunks", "copy time hidden 50 %", "makespan 4.00 ms"])
    values = [value for part in text.split(SEPARATOR) for value in part.split(LIST_SEPARATOR)]
    assert [value.replace("\u00a0", "_") for value in values] == [
        "256_MiB", "4_streams_x_16_chunks", "copy_time_hidden_50_%", "makespan_4.00_ms"
    ]  # fmt: skip


@pytest.mark.parametrize("width", [240, 420, 700, 1000])
def test_a_caption_breaks_only_between_values(qapp, width):
    trace = two_chunk_trace()
    _text_font, caption_font = export_fonts()
    assert _breaks_inside_values(caption_text(trace, compute_metrics(trace)), caption_font, width) == []


@pytest.mark.parametrize("width", [1000, 1920])
def test_the_exported_captions_break_only_between_values(qapp, width):
    runs = [run_pipeline(PipelineConfig(stream_kind=kind), "sim", "h200") for kind in ("legacy", "nonblocking")]
    picture = ComparisonPicture(tuple(prepare_view(run) for run in runs), ("legacy default stream", "4 streams"))
    wrapped = 0
    for subject in (prepare_trace(two_chunk_trace()), picture):
        with picture_view(subject, ExportOptions(width=width)) as view:
            view.fill()
            view.lay_out()
            labels = view.captions if isinstance(subject, ComparisonPicture) else [view.caption]
            for label in labels:
                text, font, room = label.text().split(": ", 1)[-1], label.font(), label.contentsRect().width()
                if _line_starts(text, font, room):  # after "A · legacy default stream: "
                    wrapped += 1
                    assert _breaks_inside_values(text, font, room) == []
    assert wrapped >= 2  # the comparison's long captions wrap, even at 1920 px


def test_the_presentation_headline_breaks_only_between_values(qapp):
    metrics = run_pipeline(PipelineConfig(memory="pageable"), "sim", "h200").metrics
    font = QFont()
    font.setPixelSize(32)
    for width in (400, 700, 1100):
        assert _breaks_inside_values(headline(metrics), font, width) == []

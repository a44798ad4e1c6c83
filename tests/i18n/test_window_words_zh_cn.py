"""The window's words that the Qt-free code writes, in Simplified Chinese: the legend, the lanes, the status line,
the A/B table, a span's tooltip, the figures' definitions, config errors, a rank's problem read in a worker; and
the command line's listings lined up by display width."""

import pytest

from overlapviz.app.rank_processes import read_ranks
from overlapviz.commands.main import main
from overlapviz.core.analysis.metrics import FIGURE_NAMES, METRIC_DEFINITIONS
from overlapviz.core.cancel import CancelToken
from overlapviz.core.config import ConfigError, PipelineConfig, parse_size
from overlapviz.core.i18n import set_language
from overlapviz.core.i18n.text_width import display_width
from overlapviz.core.trace.lanes import lanes_of
from overlapviz.core.trace.spans import OpKind
from overlapviz.exercises import load_exercises
from overlapviz.job.summary import RankProblem
from overlapviz.job.worker import RankSource
from overlapviz.presets import load_presets
from overlapviz.session import RunResult, run_pipeline
from overlapviz.view.deltas import delta_rows
from overlapviz.view.palette import LEGEND
from overlapviz.view.span_text import describe_span
from overlapviz.view.status_text import status_line


def has_chinese(text: str) -> bool:
    return any("\u4e00" <= char <= "\u9fff" for char in text)


@pytest.fixture(scope="module")
def run() -> RunResult:
    return run_pipeline(PipelineConfig(size_bytes=2**22, chunks=4, streams=2), "sim")


def test_the_legend_says_its_words_in_the_language_active_when_it_is_drawn():
    english = [entry.label for entry in LEGEND]
    set_language("zh_CN")
    chinese = [entry.label for entry in LEGEND]
    assert english[:2] == ["H2D copy", "Kernel"] and chinese[:2] == ["H2D 拷贝", "内核"]
    assert all(has_chinese(label) for label in chinese)


def test_the_lanes_are_titled_in_chinese(run):
    set_language("zh_CN")
    titles = [lane.title for lane in lanes_of(run.trace)]
    assert titles[0] == "主机线程" and "流 0" in titles and "计算" in titles
    assert all(has_chinese(title) for title in titles)


def test_the_status_line_and_a_tooltip_are_chinese(run):
    set_language("zh_CN")
    status = status_line(run.trace.meta, run.wall_s)
    assert status.startswith("后端：sim") and "模拟" in status
    kernel = next(row for row in range(len(run.trace)) if run.trace.row(row)["kind"] == OpKind.KERNEL)
    tooltip = describe_span(run.trace, kernel).splitlines()
    assert tooltip[0].startswith("内核：") and tooltip[1].startswith("流 ")


def test_the_compare_table_names_its_figures_in_chinese(run):
    set_language("zh_CN")
    rows = delta_rows(run.metrics, run.metrics)
    assert rows[0].name == "总跨度" and rows[0].change == "相同"
    assert all(has_chinese(row.name) for row in rows)


def test_the_figures_tables_translate_as_they_are_read_and_keep_their_source():
    english = METRIC_DEFINITIONS["wall"]
    set_language("zh_CN")
    assert has_chinese(METRIC_DEFINITIONS["wall"]) and has_chinese(FIGURE_NAMES["wall"])
    assert METRIC_DEFINITIONS.source("wall") == english and not has_chinese(english)


def test_a_config_error_is_chinese():
    set_language("zh_CN")
    with pytest.raises(ConfigError) as refused:
        parse_size("12 apples")
    assert has_chinese(str(refused.value)) and "'12 apples'" in str(refused.value)


def _starts(lines: list[str], last_columns: list[str]) -> set[int]:
    """The display column where each line's last column begins."""
    return {display_width(line[: line.rindex(last)]) for line, last in zip(lines, last_columns, strict=True)}


def test_the_exercises_listing_lines_up_its_chinese_kinds(capsys):
    assert main(["exercises", "--lang", "zh_CN"]) == 0
    lines = capsys.readouterr().out.splitlines()
    titles = [exercise.title for exercise in load_exercises().values()]
    assert any("预测" in line for line in lines) and len(_starts(lines, titles)) == 1


def test_the_presets_listing_lines_up_its_titles(capsys):
    assert main(["presets", "--lang", "zh_CN"]) == 0
    lines = capsys.readouterr().out.splitlines()
    titles = [preset.title for preset in load_presets().values()]
    assert len(lines) == len(titles) and len(_starts(lines, titles)) == 1


def test_the_run_help_lines_up_its_chinese_figures(capsys):
    assert main(["run", "--help", "--lang", "zh_CN"]) == 0
    text = capsys.readouterr().out
    set_language("zh_CN")
    definitions = [METRIC_DEFINITIONS[key] for key in ("copy_hidden", "comm_hidden", "efficiency", "wall")]
    lines = [next(line for line in text.splitlines() if line.endswith(each)) for each in definitions]
    assert len(_starts(lines, definitions)) == 1 and "运行一次流水线" in text


def test_a_rank_worker_speaks_the_language_of_the_window(tmp_path):
    damaged = tmp_path / "rank0.json"
    damaged.write_text('{"traceEvents": "none"}')
    set_language("zh_CN")
    [problem] = read_ranks([RankSource(str(damaged))], 1, CancelToken(), lambda *_: None)
    assert isinstance(problem, RankProblem) and has_chinese(problem.message), problem

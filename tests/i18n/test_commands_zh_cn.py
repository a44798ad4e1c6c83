"""The commands in Simplified Chinese: their lines, tables and findings, the columns lined up by display width."""

from overlapviz.commands.devices import aligned
from overlapviz.commands.main import main
from overlapviz.core.config import PipelineConfig
from overlapviz.core.i18n import set_language
from overlapviz.core.i18n.text_width import display_width


def test_a_mapped_memory_run_explains_itself_in_chinese(capsys):
    argv = ["run", "--backend", "sim", "--memory", "mapped", "--chunks", "4", "--lang", "zh_CN"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "映射主机内存" in out  # mapped-memory's finding
    assert "个分块" in out.splitlines()[0]  # the pipeline's description


def test_a_pipeline_describes_itself_in_either_language():
    config = PipelineConfig(size_bytes=2**20, chunks=1, streams=2, ring_slots=3, memory="pinned")
    english = config.describe()
    assert "2 streams x 1 chunk" in english
    set_language("zh_CN")
    chinese = config.describe()
    assert "2 个流 x 1 个分块" in chinese and "stream" not in chinese


def test_a_table_lines_up_its_columns_by_display_width():
    lines = aligned([["sim", "可用", "the model"], ["cupy", "不可用", "no GPU"], ["auto", "选择 sim"]])
    starts = [display_width(line[: line.index(last)]) for line, last in zip(lines, ["the", "no", "选择"], strict=True)]
    assert starts == [18, 18, 8]  # 2 of indent, 4 of name, 2, 8 ("选择 sim" shows 8 wide), 2


def test_devices_names_its_sections_in_chinese(capsys):
    assert main(["devices", "--lang", "zh_CN"]) == 0
    assert {"后端", "GPU", "模拟配置文件"} <= set(capsys.readouterr().out.splitlines())


def test_an_error_line_is_chinese(capsys, tmp_path):
    assert main(["analyze", str(tmp_path / "missing.json"), "--lang", "zh_CN"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "无法读取" in err


def test_help_follows_lang_given_before_it(capsys):
    assert main(["--lang", "zh_CN", "analyze", "--help"]) == 0
    assert "打印一个 JSON 对象，而不是摘要" in capsys.readouterr().out

"""``overlapviz run --lang``: the findings and the summary in the language asked for."""

import pytest

from overlapviz.commands.main import main

PAGEABLE_ONE_STREAM = ["run", "--backend", "sim", "--memory", "pageable", "--streams", "1", "--chunks", "4"]


def test_run_in_simplified_chinese_prints_chinese_findings(capsys):
    assert main([*PAGEABLE_ONE_STREAM, "--lang", "zh_CN"]) == 0
    out = capsys.readouterr().out
    assert "主机缓冲区是可分页内存" in out  # host-blocked-pageable
    assert "都在同一个流上运行" in out  # single-stream
    assert "cudaMallocHost" in out  # the CUDA names stay as they are
    assert out.splitlines()[1].startswith("设备       ")  # the label column lines up in display width


def test_lang_before_the_command_counts_too(capsys):
    assert main(["--lang", "zh_CN", *PAGEABLE_ONE_STREAM]) == 0
    assert "\n发现\n" in capsys.readouterr().out


def test_the_environment_chooses_the_language_without_lang(capsys, monkeypatch):
    monkeypatch.delenv("LANGUAGE", raising=False)
    monkeypatch.setenv("LC_ALL", "zh_CN.UTF-8")
    assert main(PAGEABLE_ONE_STREAM) == 0
    assert "可分页内存" in capsys.readouterr().out


def test_english_is_the_default(capsys, monkeypatch):
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    assert main(PAGEABLE_ONE_STREAM) == 0
    assert "the host buffer is pageable" in capsys.readouterr().out


@pytest.mark.parametrize("where", ["before", "after"])
def test_an_unknown_language_is_one_line_and_exit_2(capsys, where):
    argv = ["--lang", "xx", *PAGEABLE_ONE_STREAM] if where == "before" else [*PAGEABLE_ONE_STREAM, "--lang", "xx"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "'xx'" in err and "en, zh_CN" in err

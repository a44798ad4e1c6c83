"""Wrapping for a terminal by display width: English as textwrap wraps it, Chinese broken between characters."""

import textwrap

import pytest

from overlapviz.core.i18n.text_width import display_width, wrap

ENGLISH = (
    "The default pipeline (256 MiB in 16 chunks on 4 streams) from pageable and from pinned memory. With"
    " pageable buffers every cudaMemcpyAsync keeps the host thread until its copy is done."
)
CHINESE = (
    "这条流水线从可分页内存把 32 MiB 分成 16 个分块拷到 GPU 再拷回，没有任何拷贝时间隐藏在内核之后。"
    "修改它的设置，让至少一半的拷贝时间在内核计算时进行，同时保持 cudaMemcpyAsync 的工作量不变。"
)


@pytest.mark.parametrize("width", [20, 40, 88])
def test_english_is_wrapped_as_textwrap_wraps_it(width):
    assert wrap(ENGLISH, width) == textwrap.wrap(ENGLISH, width)


@pytest.mark.parametrize("width", [20, 31, 40, 88])
def test_chinese_lines_fit_the_columns_and_keep_every_word_whole(width):
    lines = wrap(CHINESE, width)
    assert len(lines) > 1
    assert all(display_width(line) <= width for line in lines)
    assert "".join(lines).replace(" ", "") == CHINESE.replace(" ", "")  # nothing lost, only breaks added
    assert not any(line[0] in "，。、：；）" for line in lines)  # closing punctuation ends a line, never begins one
    words = {"cudaMemcpyAsync", "MiB", "GPU", "32", "16"}
    assert all(any(word in line for line in lines) for word in words)  # no Latin word or number cut


def test_a_break_between_two_chinese_characters_leaves_no_space():
    assert wrap("拷贝引擎拷贝引擎", 8) == ["拷贝引擎", "拷贝引擎"]

"""README.md: it begins with the two set-up commands, and its examples show real output."""

from __future__ import annotations

from docs.make_readme import BLOCK, README, comparable, refreshed


def test_readme_begins_with_the_two_setup_commands():
    lines = README.read_text().splitlines()
    assert lines[0].startswith("# overlapviz")
    block = lines[lines.index("```") + 1:]
    commands = block[: block.index("```")]
    assert [line.split()[:2] for line in commands] == [["make", "run"], ["make", "test"]]


def test_examples_show_what_the_commands_print_now():
    text = README.read_text()
    assert BLOCK.search(text), "the README shows at least one real command with its output"
    assert comparable(refreshed(text)) == comparable(text), "stale examples: run `python -m docs.make_readme`"

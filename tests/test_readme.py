"""README.md: it begins with the two set-up commands, and its examples show real output."""

from __future__ import annotations

import argparse

from docs.make_readme import BLOCK, README, comparable, refreshed
from overlapviz.commands.main import build_parser


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


def readme_commands() -> set[str]:
    """The subcommands the README's command table names (the bare ``overlapviz`` row starts the app)."""
    rows = [line for line in README.read_text().splitlines() if line.startswith("| `overlapviz")]
    words = [row.split("`")[1].split() for row in rows]
    return {command[1] for command in words if len(command) > 1 and not command[1].startswith(("[", "-"))}


def test_the_command_table_names_every_command_and_no_other():
    subcommands = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    assert readme_commands() == set(subcommands.choices)
    assert "bandwidth" in readme_commands()

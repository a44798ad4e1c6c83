"""Refresh the command-line examples in README.md with what the commands print now.

A block in README.md that starts with a line ``$ overlapviz ...`` shows that command's output.
This script runs each such command (in-process, through `overlapviz.commands.main.main`) and rewrites
the block; ``--check`` only says whether any block is stale. The run time that `run` prints
changes from run to run, so it is compared as ``run took ... ms``.

    python -m docs.make_readme [--check]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import re
import shlex
import sys
from pathlib import Path

from overlapviz.commands.main import main as overlapviz_main
from overlapviz.core.files.atomic_write import atomic_write_text

README = Path(__file__).resolve().parents[1] / "README.md"
BLOCK = re.compile(r"```\n\$ (overlapviz [^\n]*)\n(.*?)```", re.DOTALL)
RUN_TIME = re.compile(r"run took [0-9.]+ (?:ms|\u00b5s|ns)")


def command_output(command: str) -> str:
    """What `command` (``overlapviz ...``) prints on stdout."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = overlapviz_main(shlex.split(command)[1:])
    if code != 0:
        raise RuntimeError(f"{command!r} exited with {code}")
    return out.getvalue()


def refreshed(text: str) -> str:
    """README text with every example block's output replaced by the command's output now."""
    return BLOCK.sub(lambda m: f"```\n$ {m.group(1)}\n{command_output(m.group(1))}```", text)


def comparable(text: str) -> str:
    """The text with the run times, which change from run to run, masked."""
    return RUN_TIME.sub("run took ... ms", text)


def main() -> int:
    """Rewrite the stale examples (or, with --check, only report them)."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="exit 1 if an example is stale; write nothing")
    args = parser.parse_args()
    text = README.read_text()
    new = refreshed(text)
    if comparable(new) == comparable(text):
        print("README.md examples are up to date")
        return 0
    if args.check:
        print("README.md examples are stale: run `python -m docs.make_readme`", file=sys.stderr)
        return 1
    atomic_write_text(README, new)
    print(f"rewrote the examples in {README}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

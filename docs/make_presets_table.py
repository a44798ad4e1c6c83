"""Write the table of pipeline keys in docs/presets.md from the settings' declarations.

The rows come from `overlapviz.core.config.settings` (each setting's preset key, values and
default) and `overlapviz.presets.SIDE_KEYS` (label and device); the rest of the page is
written by hand. Run from the repository root:

    python -m docs.make_presets_table           # rewrite the table in docs/presets.md
    python -m docs.make_presets_table --check   # exit 1 when the table is out of date

``tests/test_presets_doc.py`` fails while the committed table differs from what this writes.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from overlapviz.core.config.docs_table import HEADER, setting_rows, table_row
from overlapviz.core.files.atomic_write import atomic_write_text
from overlapviz.presets import SIDE_KEYS

PAGE = Path(__file__).resolve().parent / "presets.md"
COMMAND = "python -m docs.make_presets_table"


def render_table() -> list[str]:
    """The table's lines: the header, one row per setting, then the keys that are not settings."""
    sides = [table_row(f"`{key}`", what, default) for key, (what, default) in SIDE_KEYS.items()]
    return [*HEADER, *setting_rows(), *sides]


def render_page(text: str) -> str:
    """`text` (the page) with its table of pipeline keys written again."""
    lines = text.splitlines()
    start = lines.index(HEADER[0])
    end = start
    while end < len(lines) and lines[end].startswith("|"):
        end += 1
    return "\n".join([*lines[:start], *render_table(), *lines[end:]]) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    """Rewrite the table, or with ``--check`` say whether it is out of date."""
    parser = argparse.ArgumentParser(prog=COMMAND, description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when the table is out of date")
    args = parser.parse_args(argv)
    text = PAGE.read_text(encoding="utf-8")
    page = render_page(text)
    if args.check:
        if page != text:
            print(f"{PAGE.name}: the table of pipeline keys is out of date; run {COMMAND}", file=sys.stderr)
            return 1
        return 0
    atomic_write_text(PAGE, page)
    return 0


if __name__ == "__main__":
    sys.exit(main())

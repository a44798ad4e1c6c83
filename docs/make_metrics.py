"""Refresh the findings table of docs/metrics.md from the finding rules.

Each rule (`overlapviz.core.findings.Rule`) carries its row of the table: its code, when it
fires and what it points at. This script rewrites the table in the rules' order (`RULES`);
``--check`` only says whether it is stale.

    python -m docs.make_metrics [--check]
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from overlapviz.core.files.atomic_write import atomic_write_text
from overlapviz.core.findings import RULES, Rule

METRICS = Path(__file__).resolve().parents[1] / "docs" / "metrics.md"
HEADER = "| code | fires when | points at |\n|---|---|---|\n"
# the header, then every row (or blank line) up to the first line of text after the table
TABLE = re.compile(re.escape(HEADER) + r"(?:\|[^\n]*\n|\n)*")


def table_row(rule: Rule) -> str:
    """The rule's row: its code, when it fires, what it points at."""
    return f"| `{rule.code}` | {rule.fires_when} | {rule.points_at} |\n"


def findings_table() -> str:
    """The findings table as the rules give it, with the blank line that ends it."""
    return HEADER + "".join(table_row(rule) for rule in RULES) + "\n"


def refreshed(text: str) -> str:
    """docs/metrics.md's text with its findings table made from the rules."""
    if len(TABLE.findall(text)) != 1:
        raise ValueError(f"{METRICS} has no findings table (or several) starting {HEADER!r}")
    return TABLE.sub(lambda _: findings_table(), text)


def main() -> int:
    """Rewrite a stale table (or, with --check, only report it)."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="exit 1 if the table is stale; write nothing")
    args = parser.parse_args()
    text = METRICS.read_text(encoding="utf-8")
    new = refreshed(text)
    if new == text:
        print("docs/metrics.md's findings table is up to date")
        return 0
    if args.check:
        print("docs/metrics.md's findings table is stale: run `python -m docs.make_metrics`", file=sys.stderr)
        return 1
    atomic_write_text(METRICS, new)
    print(f"rewrote the findings table in {METRICS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

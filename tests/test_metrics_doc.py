"""docs/metrics.md: its findings table is the one the finding rules give."""

from __future__ import annotations

from docs.make_metrics import METRICS, findings_table, refreshed
from overlapviz.core.findings import RULES


def test_the_findings_table_is_made_from_the_rules():
    text = METRICS.read_text(encoding="utf-8")
    assert findings_table() in text
    assert refreshed(text) == text, "stale findings table: run `python -m docs.make_metrics`"


def test_the_table_has_one_row_per_rule_in_the_rules_order():
    rows = [line for line in findings_table().splitlines() if line.startswith("| `")]
    assert [row.split("`")[1] for row in rows] == [rule.code for rule in RULES]

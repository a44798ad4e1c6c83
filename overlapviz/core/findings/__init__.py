"""Findings: what the picture shows, explained in one plain sentence each.

Every rule reads the trace (and its metrics) alone, so it works the same for the model, a
real GPU and a loaded file. A finding names its numbers and points at the spans (trace rows)
it talks about, so the view can highlight them. Each rule (`Rule`) is declared once, in the
module of its subject, with its callout and its line in docs/metrics.md; `RULES` lists them.
"""

from overlapviz.core.findings.callout import Callout, CalloutContext, ShownLane, merged_segments
from overlapviz.core.findings.finding import Finding, api_name, ms_text, pct_text, plain_api_name, rows_of, unit_text
from overlapviz.core.findings.registry import PROGRAM_RULES, RULES, find_findings, findings_by_rule, rule_for
from overlapviz.core.findings.rule import Rule, Scope
from overlapviz.core.findings.streams import COPY_QUEUE_SHARE

__all__ = [
    "COPY_QUEUE_SHARE",
    "PROGRAM_RULES",
    "RULES",
    "Callout",
    "CalloutContext",
    "Finding",
    "Rule",
    "Scope",
    "ShownLane",
    "api_name",
    "find_findings",
    "findings_by_rule",
    "merged_segments",
    "ms_text",
    "pct_text",
    "plain_api_name",
    "rows_of",
    "rule_for",
    "unit_text",
]

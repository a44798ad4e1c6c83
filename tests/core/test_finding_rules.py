"""The finding rules' registry: one rule per code, in one order, and an undeclared code is a mistake."""

import dataclasses

import pytest
from tracefactory import pipeline_trace

from overlapviz.core.findings import PROGRAM_RULES, RULES, Finding, Scope, find_findings, rule_for
from overlapviz.core.findings.callout import first_clause_callout


def test_each_code_has_one_rule_and_the_program_rules_keep_their_order():
    codes = [rule.code for rule in RULES]
    assert len(codes) == len(set(codes)) == 24
    assert tuple(rule for rule in RULES if rule.scope is Scope.PROGRAM) == PROGRAM_RULES
    assert [rule.code for rule in PROGRAM_RULES] == [
        "host-blocked-pageable", "sync-after-copy", "small-copies", "staged-peer-copy", "alloc-per-run",
    ]  # fmt: skip
    assert all(rule_for(rule.code) is rule for rule in RULES)


def test_the_rules_without_words_of_their_own_say_their_first_clause():
    plain = {rule.code for rule in RULES if rule.callout is first_clause_callout}
    assert plain == {"sync-after-copy", "legacy-default-stream", "small-copies", "staged-peer-copy", "launch-bound"}


def test_a_code_no_rule_declares_is_a_mistake():
    with pytest.raises(KeyError, match="no-such-code"):
        rule_for("no-such-code")
    stray = dataclasses.replace(RULES[0], detect=lambda trace, metrics: [Finding("no-such-code", "words", (0,))])
    with pytest.raises(LookupError, match="no-such-code"):
        find_findings(pipeline_trace(4, 2), rules=(stray,))

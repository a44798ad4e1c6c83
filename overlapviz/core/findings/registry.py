"""Every rule, in the order their findings are listed, and the functions that run them.

The order is the docs' findings table's (docs/metrics.md is made from it: `docs/make_metrics.py`):
what explains most comes first, the host's waits before the streams, the pace of the stages
after what stopped them overlapping.
"""

from __future__ import annotations

from collections.abc import Iterable
from types import MappingProxyType

from overlapviz.core.analysis.metrics import Metrics, compute_metrics
from overlapviz.core.findings.communication import EXPOSED_COMMUNICATION
from overlapviz.core.findings.finding import Finding
from overlapviz.core.findings.host import ALLOC_PER_RUN, GPU_IDLE, HOST_BLOCKED_PAGEABLE, SYNC_AFTER_COPY
from overlapviz.core.findings.memory import (
    GRAPH_LAUNCH,
    MANAGED_FAULTS,
    MAPPED_MEMORY,
    PREFETCH_BOUND,
    STAGING_HOST_BOUND,
    WRITE_COMBINED_READ,
)
from overlapviz.core.findings.peers import PEER_BOUND
from overlapviz.core.findings.pipeline import COPY_BOUND, KERNEL_BOUND, LAUNCH_BOUND, TOO_FEW_CHUNKS, TOO_MANY_CHUNKS
from overlapviz.core.findings.program import (
    LEGACY_DEFAULT_STREAM,
    PAGE_FAULT_MIGRATIONS,
    SMALL_COPIES,
    STAGED_PEER_COPY,
)
from overlapviz.core.findings.rule import Detect, Rule, Scope
from overlapviz.core.findings.streams import COPY_QUEUE, FALSE_DEPENDENCY, SINGLE_STREAM
from overlapviz.core.trace.spans import Trace

RULES: tuple[Rule, ...] = (
    HOST_BLOCKED_PAGEABLE,
    SYNC_AFTER_COPY,
    SINGLE_STREAM,
    LEGACY_DEFAULT_STREAM,
    COPY_QUEUE,
    SMALL_COPIES,
    STAGED_PEER_COPY,
    PAGE_FAULT_MIGRATIONS,
    FALSE_DEPENDENCY,
    PEER_BOUND,
    EXPOSED_COMMUNICATION,
    KERNEL_BOUND,
    COPY_BOUND,
    TOO_FEW_CHUNKS,
    TOO_MANY_CHUNKS,
    LAUNCH_BOUND,
    GPU_IDLE,
    ALLOC_PER_RUN,
    MAPPED_MEMORY,
    MANAGED_FAULTS,
    PREFETCH_BOUND,
    STAGING_HOST_BOUND,
    WRITE_COMBINED_READ,
    GRAPH_LAUNCH,
)
# The rules about the program as a whole: its host thread, its allocations, data moving from
# one GPU to another. With several GPUs they read the whole trace, the others each GPU's part.
PROGRAM_RULES: tuple[Rule, ...] = tuple(rule for rule in RULES if rule.scope is Scope.PROGRAM)
_BY_CODE = MappingProxyType({rule.code: rule for rule in RULES})
# The codes each detecting function may write: those of the rules that share it.
_CODES_OF: dict[Detect, frozenset[str]] = {
    detect: frozenset(rule.code for rule in RULES if rule.detect is detect) for detect in {r.detect for r in RULES}
}


def rule_for(code: str) -> Rule:
    """The rule of finding code `code`; a code no rule declares is a mistake, and says so."""
    try:
        return _BY_CODE[code]
    except KeyError:
        raise KeyError(f"no finding rule has the code {code!r}; the rules are in overlapviz.core.findings") from None


def find_findings(trace: Trace, metrics: Metrics | None = None, rules: tuple[Rule, ...] | None = None) -> list[Finding]:
    """Every finding of `rules` (default: all, `RULES`) that applies to `trace`, in a fixed rule order."""
    return [found for by_rule in findings_by_rule(trace, metrics, rules) for found in by_rule]


def findings_by_rule(
    trace: Trace, metrics: Metrics | None = None, rules: tuple[Rule, ...] | None = None
) -> tuple[tuple[Finding, ...], ...]:
    """The findings of each rule of `rules` (default: all, `RULES`) on `trace`, one tuple per rule, in order.

    A detecting function that rules share runs once.
    """
    metrics = compute_metrics(trace) if metrics is None else metrics
    rules = RULES if rules is None else rules
    if metrics.makespan_ns <= 0:
        return tuple(() for _ in rules)
    found: dict[Detect, list[Finding]] = {}
    for rule in rules:
        if rule.detect not in found:
            found[rule.detect] = _checked(rule.detect, rule.detect(trace, metrics))
    return tuple(tuple(finding for finding in found[rule.detect] if finding.code == rule.code) for rule in rules)


def _checked(detect: Detect, findings: Iterable[Finding]) -> list[Finding]:
    """`findings`, each of a code its rules declare: a finding no rule declares would go unlisted."""
    findings = list(findings)
    declared = _CODES_OF.get(detect, frozenset())
    stray = sorted({finding.code for finding in findings} - declared)
    if stray:
        raise LookupError(f"{detect.__qualname__} wrote findings of {stray}, which no rule of it declares")
    return findings

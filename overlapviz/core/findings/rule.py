"""A rule: everything about one finding code, declared once beside the code that finds it.

The rule list, the timeline's callouts and the findings table of docs/metrics.md all read the
rules (`registry`), so a finding is added in one place: its module under
`overlapviz.core.findings`.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass

from overlapviz.core.analysis.metrics import Metrics
from overlapviz.core.findings.callout import Callout, CalloutContext, Rows
from overlapviz.core.findings.finding import Finding
from overlapviz.core.trace.spans import Trace

Detect = Callable[[Trace, Metrics], list[Finding]]
BuildCallouts = Callable[[CalloutContext, Finding, Rows], list[Callout]]


class Scope(enum.Enum):
    """What part of a trace of several GPUs a rule reads."""

    GPU = "gpu"  # each GPU's part, its finding led by its GPU (``GPU 1: ...``)
    PROGRAM = "program"  # the whole trace: the host thread, its allocations, data between GPUs


@dataclass(frozen=True, slots=True)
class Rule:
    """One finding code: what finds it, what it reads, its callout and its line in docs/metrics.md.

    Two rules may share one `detect` where one test tells which of them fires (``kernel-bound``
    or ``copy-bound``): it runs once, and each rule keeps the findings of its own code.
    `fires_when` and `points_at` are the cells of the docs' findings table, in Markdown.
    """

    code: str
    detect: Detect
    callout: BuildCallouts
    fires_when: str
    points_at: str
    scope: Scope = Scope.GPU

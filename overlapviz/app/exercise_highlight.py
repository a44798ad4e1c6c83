"""The spans an exercise's explanation points at, as trace rows the timeline outlines.

An exercise's ``highlight`` names them three ways: a span kind (``h2d``, ``kernel``, ...),
``finding:CODE`` (the spans the run's findings of that code point at) or ``span:NAME`` (the
spans of that name: a kernel's or an API call's). What the run does not have outlines
nothing; the explanation still reads.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
import numpy.typing as npt

from overlapviz.core.findings import Finding
from overlapviz.core.trace.spans import OpKind, Trace

FINDING_PREFIX = "finding:"
SPAN_PREFIX = "span:"
KINDS_BY_LABEL = {kind.label: kind for kind in OpKind}


def highlight_rows(names: Iterable[str], trace: Trace, findings: Sequence[Finding]) -> npt.NDArray[np.int64]:
    """The rows of `trace` that `names` point at, sorted, each once."""
    parts = [_rows_of(name.strip(), trace, findings) for name in names]
    if not parts:
        return np.zeros(0, dtype=np.int64)
    return np.unique(np.concatenate(parts)).astype(np.int64)


def _rows_of(name: str, trace: Trace, findings: Sequence[Finding]) -> npt.NDArray[np.int64]:
    if name.startswith(FINDING_PREFIX):
        code = name.removeprefix(FINDING_PREFIX)
        rows = [finding.rows for finding in findings if finding.code == code]
        return np.concatenate(rows).astype(np.int64) if rows else np.zeros(0, dtype=np.int64)
    if name.startswith(SPAN_PREFIX):
        wanted = name.removeprefix(SPAN_PREFIX)
        ids = [index for index, span_name in enumerate(trace.names) if span_name == wanted]
        return np.flatnonzero(np.isin(trace["name"], ids)).astype(np.int64)
    kind = KINDS_BY_LABEL.get(name.lower())
    if kind is None:
        return np.zeros(0, dtype=np.int64)
    return np.flatnonzero(trace.mask(kind)).astype(np.int64)

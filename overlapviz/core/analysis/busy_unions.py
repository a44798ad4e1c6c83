"""When the ops of some kinds, and each engine, were busy: unions of their spans, worked out once per trace.

The metrics and the findings ask the same of a trace again and again: when kernels ran (copy
and communication time hidden, the communication finding and its callout), when each stage
ran (utilisation, several findings), when each engine was busy (the lower bound, the engines
busy together). On 10^7 spans each union is a sweep (and a sort, where the rows are out of
order) of millions of rows; kept beside the trace, it is made once. The unions are read-only,
so no reader can change what the next one sees.
"""

from __future__ import annotations

import numpy as np

from overlapviz.core.analysis.intervals import IntArray, IntpArray, union_intervals, union_with_pieces
from overlapviz.core.trace.answer_cache import kept_per_trace, kept_per_trace_and_key
from overlapviz.core.trace.spans import OpKind, Trace, Unit

Union = tuple[IntArray, IntArray]
COPY_KINDS = (OpKind.H2D, OpKind.D2H)


def kinds_union(trace: Trace, *kinds: OpKind) -> Union:
    """The times at least one op of `kinds` ran, as disjoint sorted intervals (read-only)."""
    return _union_of_kinds(trace, frozenset(int(kind) for kind in kinds))


def union_length(union: Union) -> int:
    """The time a disjoint union covers (ns)."""
    starts, ends = union
    return int((ends - starts).sum())


@kept_per_trace_and_key
def _union_of_kinds(trace: Trace, kinds: frozenset[int]) -> Union:
    if len(kinds) != 1:  # the union of each kind's union: rows of one kind mostly come in order, a mix rarely
        return read_only(merged_unions([_union_of_kinds(trace, frozenset({kind})) for kind in sorted(kinds)]))
    return kind_union_pieces(trace, OpKind(next(iter(kinds))))[:2]


@kept_per_trace_and_key
def kind_union_pieces(trace: Trace, kind: OpKind) -> tuple[IntArray, IntArray, IntpArray]:
    """The union of the ops of `kind` (read-only) and, per op of `trace.rows(kind)`, the piece of it that holds it.

    The pieces spare the idle waits of a unit whose ops are all of one kind (each engine of a
    pipeline) a union of their own.
    """
    rows = trace.rows(kind)  # indices: two gathers by them beat two by a mask
    found = union_with_pieces(trace["start_ns"][rows], trace["end_ns"][rows])
    for array in found:
        array.flags.writeable = False
    return found


def merged_unions(unions: list[Union]) -> Union:
    """The union of disjoint sorted unions, as one (each sorted already: the sort merges their runs)."""
    if len(unions) == 1:
        return unions[0]
    return union_intervals(np.concatenate([s for s, _ in unions]), np.concatenate([e for _, e in unions]))


@kept_per_trace
def engine_unions(trace: Trace) -> tuple[Union, ...]:
    """Each engine that works in parallel: its busy time as disjoint sorted intervals (read-only).

    With one copy engine both directions share it, so they are one engine; with two or more,
    each direction has its own. A prefetch counts on the copy engine it ran on. Communication,
    where there is any, is an engine of its own: its kernels wait on the link between the GPUs.
    Made of the kinds' unions, which the metrics and findings read too.
    """
    talking = [kinds_union(trace, OpKind.COMMUNICATION)] if trace.mask(OpKind.COMMUNICATION).any() else []
    kernels = kinds_union(trace, OpKind.KERNEL)
    if trace.copy_engines < 2:
        return (kinds_union(trace, *COPY_KINDS, OpKind.PREFETCH), kernels, *talking)
    h2d, d2h = (_with_prefetches(trace, kind, unit) for kind, unit in _DIRECTION_ENGINES)
    return (h2d, kernels, d2h, *talking)


_DIRECTION_ENGINES = ((OpKind.H2D, Unit.H2D_ENGINE), (OpKind.D2H, Unit.D2H_ENGINE))


def _with_prefetches(trace: Trace, kind: OpKind, unit: Unit) -> Union:
    """The copies of `kind` and the prefetches on `unit`, their engine: the copies' union where there are none."""
    copies = kinds_union(trace, kind)
    prefetch = trace.mask(OpKind.PREFETCH)
    if not prefetch.any():
        return copies
    rows = prefetch & (trace["unit"] == unit)
    fetched = union_intervals(trace["start_ns"][rows], trace["end_ns"][rows])
    return read_only(merged_unions([copies, fetched]))


def read_only(union: Union) -> Union:
    """`union`, its arrays made read-only: a union kept beside a trace is read by many."""
    for array in union:
        array.flags.writeable = False
    return union

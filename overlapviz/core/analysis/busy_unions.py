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
import numpy.typing as npt

from overlapviz.core.analysis.intervals import IntArray, union_intervals
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
    # the kinds in the order numpy.isin would have matched them: a union does not depend on it
    rows = trace.mask(*(OpKind(kind) for kind in sorted(kinds)))
    return read_only(union_intervals(trace["start_ns"][rows], trace["end_ns"][rows]))


def engine_rows(trace: Trace) -> list[npt.NDArray[np.bool_]]:
    """The engines that work in parallel, as the rows each carries.

    With one copy engine both directions share it, so they are one engine; with two or more,
    each direction has its own. A prefetch counts on the copy engine it ran on. Communication,
    where there is any, is an engine of its own: its kernels wait on the link between the GPUs.
    """
    prefetch = trace.mask(OpKind.PREFETCH)
    kernels = trace.mask(OpKind.KERNEL)
    comm = trace.mask(OpKind.COMMUNICATION)
    talking = [comm] if comm.any() else []
    if trace.copy_engines < 2:
        return [trace.mask(*COPY_KINDS) | prefetch, kernels, *talking]
    on = {unit: prefetch & (trace["unit"] == unit) for unit in (Unit.H2D_ENGINE, Unit.D2H_ENGINE)}
    return [trace.mask(OpKind.H2D) | on[Unit.H2D_ENGINE], kernels, trace.mask(OpKind.D2H) | on[Unit.D2H_ENGINE],
            *talking]  # fmt: skip


@kept_per_trace
def engine_unions(trace: Trace) -> tuple[Union, ...]:
    """Each engine's busy time (see `engine_rows`) as disjoint sorted intervals (read-only)."""
    return tuple(
        read_only(union_intervals(trace["start_ns"][rows], trace["end_ns"][rows])) for rows in engine_rows(trace)
    )


def read_only(union: Union) -> Union:
    """`union`, its arrays made read-only: a union kept beside a trace is read by many."""
    for array in union:
        array.flags.writeable = False
    return union

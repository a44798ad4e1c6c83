"""What a trace is: its spans in numpy columns, its metadata, the checks a file's values meet, its lanes.

Each name lives in one module of the package; import it from there inside overlapviz.
"""

from overlapviz.core.trace.answer_cache import kept_per_trace, once_per_trace
from overlapviz.core.trace.checks import MAX_ROWS, TraceValueError, check_int, check_meta, column_range, short_repr
from overlapviz.core.trace.columns import COLUMNS, PLACEMENT_COLUMNS
from overlapviz.core.trace.communication import (
    collective_in_group,
    collective_of,
    communication_rule,
    process_group_of,
    with_collective,
)
from overlapviz.core.trace.frozen_columns import distinct, freeze_columns
from overlapviz.core.trace.lanes import Lane, LaneGroup, gpus_of, is_legacy_stream, lane_rows, lanes_of
from overlapviz.core.trace.meta import TraceMeta
from overlapviz.core.trace.spans import (
    DEVICE_KINDS,
    UNKNOWN,
    MemoryKind,
    OpKind,
    Trace,
    TraceBuilder,
    Unit,
    check_spans,
)

__all__ = [
    "COLUMNS",
    "DEVICE_KINDS",
    "MAX_ROWS",
    "PLACEMENT_COLUMNS",
    "UNKNOWN",
    "Lane",
    "LaneGroup",
    "MemoryKind",
    "OpKind",
    "Trace",
    "TraceBuilder",
    "TraceMeta",
    "TraceValueError",
    "Unit",
    "check_int",
    "check_meta",
    "check_spans",
    "collective_in_group",
    "collective_of",
    "column_range",
    "communication_rule",
    "distinct",
    "freeze_columns",
    "gpus_of",
    "is_legacy_stream",
    "kept_per_trace",
    "lane_rows",
    "lanes_of",
    "once_per_trace",
    "process_group_of",
    "short_repr",
    "with_collective",
]

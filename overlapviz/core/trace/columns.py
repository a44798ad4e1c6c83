"""The trace's columns: one per fact of a span, each an integer numpy type.

Below the trace itself, so that the checks a file's values meet (`overlapviz.core.trace.checks`,
which the trace's metadata runs too) know each column's range without importing the trace.
"""

from __future__ import annotations

import numpy as np

COLUMNS: dict[str, type] = {
    "kind": np.int8,
    "unit": np.int8,
    "stream": np.int32,  # 0-based stream index; -1 for host spans
    "chunk": np.int32,  # chunk index; -1 when the span belongs to no chunk
    "enqueue_ns": np.int64,
    "ready_ns": np.int64,
    "start_ns": np.int64,
    "end_ns": np.int64,
    "bytes": np.int64,
    "memory": np.int8,
    "name": np.int32,  # index into Trace.names
    "op": np.int32,  # for host spans: the row of the device op the call issued, else -1
    "device": np.int16,  # GPU index; -1 where unknown (a host call that issued nothing)
    "thread": np.int64,  # host thread id; -1 where unknown (a device op no recorded call issued)
}
PLACEMENT_COLUMNS = ("device", "thread")  # the columns format 1 files lack: they read as 0

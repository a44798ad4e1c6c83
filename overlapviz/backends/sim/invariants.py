"""What every simulated timeline must satisfy before it may become a trace.

A model that loses an op still produces numbers that look plausible (a makespan, an overlap
percentage), and a learner cannot tell them from real ones. So each run is checked here, and
a timeline that breaks a rule is refused with the op that broke it rather than shown:

- every device op started and ended, and none ended before it started;
- the ops of one copy engine never overlap each other (an engine runs one copy at a time;
  each GPU has engines of its own, and the peer copies one engine pair between them);
- each stream runs its ops in issue order, each starting only after the one before it ended;
- an op that waits for an op of another stream (a peer copy, on two GPUs) starts after it ended.

Kernels may share the SMs, so compute is not checked for overlap.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from overlapviz.backends.sim.op_table import Op
from overlapviz.backends.sim.ops import op_column
from overlapviz.backends.sim.timeline_columns import Timeline
from overlapviz.core.run_errors import BackendError
from overlapviz.core.trace.spans import Unit

_COPY_UNITS = (Unit.H2D_ENGINE, Unit.D2H_ENGINE, Unit.COPY_ENGINE, Unit.DEVICE_COPY)


class ModelInvariantError(BackendError):
    """The model produced a timeline that breaks one of its own rules; no trace is made."""


def check_timeline(ops: Sequence[Op], timeline: Timeline) -> None:
    """Raise `ModelInvariantError` naming the first op that breaks a rule of the timeline."""
    if len(timeline.start_ns) != len(ops) or len(timeline.end_ns) != len(ops):
        raise ModelInvariantError(
            f"the GPU model returned times for {len(timeline.start_ns)} ops, but the pipeline has {len(ops)}"
        )
    start = np.asarray(timeline.start_ns, dtype=np.float64)
    end = np.asarray(timeline.end_ns, dtype=np.float64)
    _refuse_first(ops, start < 0, "never started")
    _refuse_first(ops, end < 0, "never ended")
    _refuse_first(ops, end < start, "ended before it started")
    _check_engines_run_one_copy_at_a_time(ops, start, end)
    _check_streams_keep_issue_order(ops, start, end)
    _check_events_kept(ops, start, end)


def describe_op(op: Op) -> str:
    """The op as a person names it, e.g. ``the kernel of chunk 4 on stream 0`` (``... on GPU 1`` where not GPU 0)."""
    where = f" on GPU {op.device}" if op.device else ""
    return f"the {op.kind.label} of chunk {op.chunk} on stream {op.stream}{where}"


def _refuse(problem: str) -> ModelInvariantError:
    return ModelInvariantError(f"the GPU model broke its own rules, so no trace is shown: {problem}")


def _refuse_first(ops: Sequence[Op], bad: npt.NDArray[np.bool_], problem: str) -> None:
    if bad.any():
        raise _refuse(f"{describe_op(ops[int(np.argmax(bad))])} {problem}")


def _check_engines_run_one_copy_at_a_time(
    ops: Sequence[Op], start: npt.NDArray[np.float64], end: npt.NDArray[np.float64]
) -> None:
    units, devices = op_column(ops, "unit"), op_column(ops, "device")
    for gpu, unit in ((int(g), u) for g in np.unique(devices) for u in _COPY_UNITS):
        on_unit = np.flatnonzero((units == int(unit)) & (devices == gpu))
        by_start = on_unit[np.argsort(start[on_unit], kind="stable")]
        earlier, later = by_start[:-1], by_start[1:]
        clash = start[later] < end[earlier]
        if clash.any():
            k = int(np.argmax(clash))
            raise _refuse(
                f"{describe_op(ops[int(later[k])])} started on the {unit.title}{f' of GPU {gpu}' * bool(gpu)} while"
                f" {describe_op(ops[int(earlier[k])])} was still running there"
            )


def _check_streams_keep_issue_order(
    ops: Sequence[Op], start: npt.NDArray[np.float64], end: npt.NDArray[np.float64]
) -> None:
    streams = op_column(ops, "stream")
    by_stream = np.argsort(streams, kind="stable")  # each stream's ops stay in issue order
    before, after = by_stream[:-1], by_stream[1:]
    same_stream = streams[before] == streams[after]
    jumped = same_stream & (start[after] < end[before])
    if jumped.any():
        k = int(np.argmax(jumped))
        raise _refuse(
            f"{describe_op(ops[int(after[k])])} started before {describe_op(ops[int(before[k])])},"
            " issued before it in the same stream, had ended"
        )


def _check_events_kept(ops: Sequence[Op], start: npt.NDArray[np.float64], end: npt.NDArray[np.float64]) -> None:
    after = op_column(ops, "after")
    waiting = np.flatnonzero(after >= 0)
    early = start[waiting] < end[after[waiting]]
    if early.any():
        k = int(waiting[int(np.argmax(early))])
        raise _refuse(
            f"{describe_op(ops[k])} started before {describe_op(ops[int(after[k])])}, which it waits for, had ended"
        )
